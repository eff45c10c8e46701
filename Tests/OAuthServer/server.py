#!/usr/bin/env python3
"""A real RFC 6749 / RFC 7009 server for end-to-end tests: django-oauth-toolkit on 127.0.0.1.

Usage: PYTHON server.py DIR     (PYTHON: the venv of scripts/test-tools.sh)

Migrates a sqlite database in DIR (once: an existing one is reused), creates the user `octocat`
and a confidential Application (authorization code, PKCE S256 required by the settings, redirect
URI http://127.0.0.1/callback with any port as RFC 8252 §7.3 asks, skip_authorization so a
logged-in session is redirected at once), then serves plain HTTP on an ephemeral port of
127.0.0.1 and prints one JSON line: {"port", "client_id", "client_secret", "public_client_id", "session"} (`session`:
a Django session cookie value logged in as octocat). Endpoints: /o/authorize/, /o/token/,
/o/revoke_token/, /o/introspect/ (DOT's), /api/user (the token's user, 401 otherwise),
/control/log (GET: what /o/ and /api/ received; POST: clear). Exits when stdin reaches EOF.
"""

import json
import os
import socketserver
import sys
import threading
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

CLIENT_ID = "ghlogin-test-client"
CLIENT_SECRET = "ghlogin-test-secret-0123456789"
PUBLIC_CLIENT_ID = "ghlogin-test-public"


class ThreadingServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


def prepare():
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from oauth2_provider.models import Application

    user, created = User.objects.get_or_create(username="octocat")
    if created:
        user.set_password("octocat-password")
        user.save()
    if not Application.objects.filter(client_id=CLIENT_ID).exists():
        Application.objects.create(
            client_id=CLIENT_ID, client_secret=CLIENT_SECRET, user=user, name="ghlogin test",
            client_type=Application.CLIENT_CONFIDENTIAL, authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            redirect_uris="http://127.0.0.1/callback", skip_authorization=True, algorithm="")
    if not Application.objects.filter(client_id=PUBLIC_CLIENT_ID).exists():
        Application.objects.create(
            client_id=PUBLIC_CLIENT_ID, client_secret="", user=user, name="ghlogin test (public)",
            client_type=Application.CLIENT_PUBLIC, authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            redirect_uris="http://127.0.0.1/callback", skip_authorization=True, algorithm="")
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def main():
    directory = sys.argv[1]
    os.environ["OAUTH_SERVER_DIR"] = directory
    os.environ["DJANGO_SETTINGS_MODULE"] = "oauthserver.settings"
    session = prepare()
    from django.core.wsgi import get_wsgi_application

    server = make_server("127.0.0.1", 0, get_wsgi_application(), server_class=ThreadingServer,
                         handler_class=QuietHandler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()
    print(json.dumps({"port": server.server_port, "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET,
                      "public_client_id": PUBLIC_CLIENT_ID, "session": session}), flush=True)
    try:
        while sys.stdin.buffer.read1(4096):
            pass
    except (OSError, ValueError):
        pass
    server.shutdown()
    os._exit(0)


if __name__ == "__main__":
    main()
