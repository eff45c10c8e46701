"""The scripted behaviour of the fake: defaults, validation and merging of POST /control/script."""

import copy

ENDPOINTS = ("authorize", "token", "device_code", "device_poll", "refresh", "user", "user_orgs", "revoke", "revoke7009",
             "scoped", "installation_token")

DEFAULT_SCRIPT = {
    # GET /login/oauth/authorize
    "authorize": {
        "user": None,            # login that approves; None: the `login` param if known, else octocat
        "deny": False,           # True: redirect with error=access_denied (+ state)
        "require_state": True,   # strict: a request without `state` gets a 400 page
        "require_pkce": True,    # strict: a request without code_challenge gets a 400 page
        "require_response_type": True,  # standard server: no response_type -> error=invalid_request redirect
    },
    # What a successful token response contains (code grant, device grant and refresh alike).
    "token": {
        "expiring": False,       # True: GitHub App style (ghu_, expires_in, ghr_ refresh_token, scope "")
        "expires_in": 28800,
        "refresh_token_expires_in": 15811200,
        "token_type": "bearer",  # None: omit the member
        "access_token": None,    # a literal token to issue instead of a random one
        "access_token_length": None,  # random token of exactly this length, charset [A-Za-z0-9._-]
        "scope": None,           # granted scope string instead of the requested scopes
        "numbers_as_strings": False,  # JSON numbers sent as strings ("28800")
        "omit": [],              # member names to leave out, e.g. ["token_type"]
        "extra": {},             # extra members added to the response
    },
    # POST /login/device/code and device-grant polls
    "device": {
        "verification_uri": "https://github.test/login/device",
        "interval": 5,           # None: omit `interval` (the fake then paces at 5 s, RFC 8628 default)
        "expires_in": 900,
        "user": "octocat",       # who approves the device code
        "enforce_interval": True,  # a poll sooner than the interval gets slow_down (+5 s), like GitHub
        "pacing_tolerance": 0.0,   # seconds of slack allowed by enforce_interval
    },
    # GET /user
    "user": {
        "override": {},          # members merged over the user object, e.g. {"login": "oct\u001b[31mocat"}
        "raw_utf8": False,       # send non-ASCII as raw UTF-8 (as GitHub does), not as \u escapes
    },
    # GET /user/orgs and organisation SAML SSO
    "orgs": {
        "list": [],              # organisations shown, e.g. [{"login": "acme", "id": 7}]
        "unauthorized": [],      # ids left out: X-GitHub-SSO: partial-results; organizations=IDS
        "sso_required_url": None,  # a URL: /user and /user/orgs answer 403, X-GitHub-SSO: required; url=URL
    },
    # POST /applications/{client_id}/token/scoped (scoped.py)
    "scoped": {
        # What the user token may do: the most a scoped token can be granted.
        "user_permissions": {"contents": "write", "metadata": "read", "pull_requests": "write", "issues": "write"},
        "repositories": ["acme/api", "acme/web", "acme/secret"],  # what the user token can see
        "widen": {},             # test hook: permissions merged over the grant, e.g. {"contents": "write"}
        "repositories_url_origin": None,  # test hook: another origin for repositories_url
        "expires_in": 28800,     # the scoped token's lifetime (GitHub's is not documented)
    },
    # A GitHub App's installations and their tokens (installations.py)
    "installations": {
        "app_id": 4242,          # the app's numeric ID (a JWT's iss may be it or the client ID)
        "client_id": "Iv23liTestAppKey",
        "public_key": None,      # {"n": HEX, "e": INT}: the app's public key, set by the test
        "list": [],              # [{"id": 7, "account": "acme", "type": "Organization"|"User",
                                 #   "permissions": {...}, "repositories": ["acme/api"],
                                 #   "repository_selection": "selected"|"all"}]
        "widen": {},             # test hook: permissions merged over the grant
        "extra_repositories": [],  # test hook: repositories added to the answer
        "expires_in": 3600,      # an installation token's lifetime (GitHub's: one hour)
    },
    "code_ttl": 600,             # seconds an authorization code stays valid
    "refresh_reuse_revokes": True,  # reusing a spent refresh token revokes the pair it rotated into
    "strict_hosts": True,        # Host/SNI/port checks and per-host routing (see README)
    # Per-endpoint queues of response directives; see directives.py.
    "responses": {name: [] for name in ENDPOINTS},
}


class ScriptError(ValueError):
    """A /control/script body that does not follow the schema."""


def default_script():
    return copy.deepcopy(DEFAULT_SCRIPT)


def merge_script(current, update, normalize_directive):
    """Validates `update` and merges it into `current` (in place).

    Dict sections (authorize, token, device, user) are updated key by key; scalars replace;
    `responses` replaces the queue of each endpoint named. Unknown keys are refused."""
    if not isinstance(update, dict):
        raise ScriptError("script must be a JSON object")
    staged = copy.deepcopy(current)
    for key, value in update.items():
        if key not in DEFAULT_SCRIPT:
            raise ScriptError("unknown script key %r (known: %s)" % (key, ", ".join(DEFAULT_SCRIPT)))
        if key == "responses":
            if not isinstance(value, dict):
                raise ScriptError("responses must be an object of endpoint -> list")
            for endpoint, queue in value.items():
                if endpoint not in ENDPOINTS:
                    raise ScriptError("unknown endpoint %r in responses (known: %s)"
                                      % (endpoint, ", ".join(ENDPOINTS)))
                if not isinstance(queue, list):
                    queue = [queue]
                staged["responses"][endpoint] = [normalize_directive(d) for d in queue]
        elif isinstance(DEFAULT_SCRIPT[key], dict):
            if not isinstance(value, dict):
                raise ScriptError("%s must be an object" % key)
            for sub, subvalue in value.items():
                if sub not in DEFAULT_SCRIPT[key]:
                    raise ScriptError("unknown key %s.%s (known: %s)"
                                      % (key, sub, ", ".join(DEFAULT_SCRIPT[key])))
                staged[key][sub] = subvalue
        else:
            staged[key] = value
    current.clear()
    current.update(staged)
