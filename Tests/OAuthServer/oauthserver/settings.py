"""Settings of the test OAuth server: django-oauth-toolkit on sqlite in $OAUTH_SERVER_DIR."""

import os

BASE = os.environ["OAUTH_SERVER_DIR"]
SECRET_KEY = "ghlogin-test-only-not-a-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
USE_TZ = True
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
# No CSRF middleware: the only form-free views are DOT's token, revocation and introspection
# endpoints (csrf_exempt there anyway) and /api/user.
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "oauthserver.log.RecordMiddleware",
]
ROOT_URLCONF = "oauthserver.urls"
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.path.join(BASE, "db.sqlite3")}}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast; test only
LOGIN_URL = "/no-login-page/"
OAUTH2_PROVIDER = {
    "SCOPES": {"read": "read", "write": "write"},
    "DEFAULT_SCOPES": ["read"],
    "PKCE_REQUIRED": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"],
    "ACCESS_TOKEN_EXPIRE_SECONDS": 36000,
}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
LOGGING = {"version": 1, "disable_existing_loggers": True}
