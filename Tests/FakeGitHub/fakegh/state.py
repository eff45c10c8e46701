"""Everything the fake remembers: apps, users, tokens, codes, device sessions, the script and the log.

One lock guards it all; handlers hold it only while reading or changing state, never while
sleeping or doing I/O."""

import secrets
import string
import threading
import time

from . import directives
from .script import ScriptError, default_script, merge_script

DEFAULT_APP = {"client_id": "Iv1.testclient", "client_secret": "testsecret-s3cr3t",
               "callback_url": "http://127.0.0.1/callback"}
DEFAULT_USERS = [
    {"login": "octocat", "id": 1, "name": "The Octocat", "email": "octocat@github.test"},
    {"login": "hubot", "id": 2, "name": "Hubot", "email": "hubot@github.test"},
]
TOKEN_ALPHABET = string.ascii_letters + string.digits
LONG_TOKEN_ALPHABET = TOKEN_ALPHABET + "._-"
USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ0123456789"


def now():
    """Monotonic seconds (CLOCK_MONOTONIC: comparable with the test process's clock)."""
    return time.monotonic()


def random_token(prefix, length=None):
    if length is None:
        return prefix + "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(36))
    body = max(0, length - len(prefix))
    return (prefix + "".join(secrets.choice(LONG_TOKEN_ALPHABET) for _ in range(body)))[:length]


class State:
    def __init__(self):
        self.lock = threading.RLock()
        # Notified on every log entry: what GET /control/wait waits on.
        self.logged = threading.Condition(self.lock)
        self.reset()

    # --- lifecycle --------------------------------------------------------------------
    def reset(self):
        with self.lock:
            self.apps = {DEFAULT_APP["client_id"]: dict(DEFAULT_APP)}
            self.users = {u["login"]: dict(u) for u in DEFAULT_USERS}
            self.tokens = {}          # access token -> record
            self.refresh_tokens = {}  # refresh token -> record
            self.codes = {}           # code -> record
            self.device = {}          # device_code -> session
            self.script = default_script()
            self.log = []
            self.seq = 0
            self.connections = 0
            self.counters = {}

    def count(self, name):
        with self.lock:
            self.counters[name] = self.counters.get(name, 0) + 1

    # --- script -----------------------------------------------------------------------
    def update_script(self, update):
        with self.lock:
            merge_script(self.script, update, directives.normalize)

    def section(self, name):
        with self.lock:
            return dict(self.script[name])

    def setting(self, name):
        with self.lock:
            return self.script[name]

    def next_directive(self, endpoint):
        """Pops the next directive for `endpoint` (a sticky one stays), or None for normal."""
        with self.lock:
            queue = self.script["responses"][endpoint]
            if not queue:
                return None
            directive = queue[0]
            if not directive.get("sticky"):
                queue.pop(0)
            return dict(directive)

    # --- log --------------------------------------------------------------------------
    def add_log(self, entry):
        with self.lock:
            self.seq += 1
            entry["seq"] = self.seq
            self.log.append(entry)
            self.logged.notify_all()
            return entry

    def new_connection(self, peer):
        with self.lock:
            self.connections += 1
            return self.add_log({"type": "connection", "conn": self.connections, "time": now(),
                                 "peer": "%s:%d" % peer, "tls": "pending", "tls_error": None,
                                 "sni": None, "tls_version": None, "requests": 0})

    def wait_for_request(self, path, timeout):
        """The first logged request for `path` (a copy), waiting up to `timeout` seconds for one
        to arrive; None when none did. A request is logged once it has been read in full,
        before it is answered (and before any scripted delay)."""
        deadline = time.monotonic() + timeout
        with self.logged:
            while True:
                for entry in self.log:
                    if entry.get("type") == "request" and entry.get("path") == path:
                        return dict(entry)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self.logged.wait(remaining)

    def snapshot_log(self):
        with self.lock:
            return [dict(e) for e in self.log]

    # --- registration -----------------------------------------------------------------
    def register(self, body):
        """Handles POST /control/users: users, apps, tokens, refresh_tokens (all optional lists)."""
        if not isinstance(body, dict):
            raise ScriptError("body must be an object")
        unknown = set(body) - {"users", "apps", "tokens", "refresh_tokens", "renames"}
        if unknown:
            raise ScriptError("unknown keys %s (known: users, apps, tokens, refresh_tokens, renames)" % sorted(unknown))
        with self.lock:
            for user in body.get("users", []):
                if not isinstance(user.get("login"), str) or not isinstance(user.get("id"), int):
                    raise ScriptError("a user needs a string login and an integer id")
                record = {"name": None, "email": None}
                record.update(user)
                self.users[user["login"]] = record
            for app in body.get("apps", []):
                if not isinstance(app.get("client_id"), str):
                    raise ScriptError("an app needs a string client_id")
                record = {"client_secret": None, "callback_url": DEFAULT_APP["callback_url"]}
                record.update(app)
                self.apps[app["client_id"]] = record
            for tok in body.get("tokens", []):
                self._register_token(tok)
            for rt in body.get("refresh_tokens", []):
                self._register_refresh(rt)
            # A GitHub rename: the user (same id) answers to a new login; its tokens stay valid.
            for rename in body.get("renames", []):
                old, new = rename.get("from"), rename.get("to")
                if old not in self.users or not isinstance(new, str) or new in self.users:
                    raise ScriptError("a rename needs a known 'from' login and a free 'to' login")
                record = self.users.pop(old)
                record["login"] = new
                self.users[new] = record
                for collection in (self.tokens, self.refresh_tokens):
                    for tok in collection.values():
                        if tok.get("login") == old:
                            tok["login"] = new

    def _register_token(self, tok):
        value = tok.get("access_token")
        if not isinstance(value, str) or tok.get("login") not in self.users:
            raise ScriptError("a token needs an access_token string and a known login")
        scopes = tok.get("scopes", "repo,gist")
        if isinstance(scopes, list):
            scopes = ",".join(scopes)
        expires_in = tok.get("expires_in")
        self.tokens[value] = {
            "access_token": value, "login": tok["login"],
            "client_id": tok.get("client_id", DEFAULT_APP["client_id"]),
            "scope": scopes, "kind": tok.get("kind", "oauth"), "origin": tok.get("origin", "registered"),
            "expires_at": None if expires_in is None else now() + expires_in,
            "revoked": False, "code": None,
            # GitHub-Authentication-Token-Expiration sent with API answers for this token
            # (a personal access token with an expiry), as given: "2026-12-20 10:00:00 UTC".
            "expiration_header": tok.get("expiration_header"),
        }

    def _register_refresh(self, rt):
        value = rt.get("refresh_token")
        if not isinstance(value, str) or rt.get("login") not in self.users:
            raise ScriptError("a refresh token needs a refresh_token string and a known login")
        origin = rt.get("origin", "web")
        if origin not in ("web", "device"):
            raise ScriptError("refresh token origin must be 'web' or 'device'")
        expires_in = rt.get("expires_in", 15811200)
        self.refresh_tokens[value] = {
            "refresh_token": value, "login": rt["login"],
            "client_id": rt.get("client_id", DEFAULT_APP["client_id"]), "origin": origin,
            "access_token": rt.get("access_token"), "used": False, "successor": None,
            "expires_at": None if expires_in is None else now() + expires_in,
        }

    # --- tokens -----------------------------------------------------------------------
    def issue_token(self, client_id, login, scopes, origin, code=None):
        """Mints a token per the `token` script section; returns the ordered response fields."""
        with self.lock:
            opts = dict(self.script["token"])
            expiring = bool(opts["expiring"])
            if opts["access_token"] is not None:
                access = opts["access_token"]
            else:
                access = random_token("ghu_" if expiring else "gho_", opts["access_token_length"])
            scope = opts["scope"] if opts["scope"] is not None else ("" if expiring else ",".join(scopes))
            fields = {"access_token": access}
            record = {"access_token": access, "login": login, "client_id": client_id, "scope": scope,
                      "kind": "app" if expiring else "oauth", "origin": origin,
                      "expires_at": None, "revoked": False, "code": code}
            if expiring:
                refresh = random_token("ghr_")
                fields["expires_in"] = opts["expires_in"]
                fields["refresh_token"] = refresh
                fields["refresh_token_expires_in"] = opts["refresh_token_expires_in"]
                record["expires_at"] = now() + opts["expires_in"]
                flow = "device" if origin == "device" else self._flow_of(origin)
                self.refresh_tokens[refresh] = {
                    "refresh_token": refresh, "login": login, "client_id": client_id, "origin": flow,
                    "access_token": access, "used": False, "successor": None,
                    "expires_at": now() + opts["refresh_token_expires_in"]}
            fields["scope"] = scope
            fields["token_type"] = opts["token_type"]
            for name in opts["omit"] or []:
                fields.pop(name, None)
            if fields.get("token_type", "") is None:
                fields.pop("token_type")
            if opts["numbers_as_strings"]:
                fields = {k: (str(v) if isinstance(v, int) and not isinstance(v, bool) else v)
                          for k, v in fields.items()}
            fields.update(opts["extra"] or {})
            self.tokens[access] = record
            return fields

    def _flow_of(self, origin):
        # A refresh keeps the flow of the token it rotated from ("refresh:web" / "refresh:device").
        return origin.split(":", 1)[1] if origin.startswith("refresh:") else "web"

    def valid_token(self, value):
        """The token record if `value` is a live token, else None."""
        with self.lock:
            record = self.tokens.get(value)
            if record is None or record["revoked"]:
                return None
            if record["expires_at"] is not None and now() >= record["expires_at"]:
                return None
            return dict(record)

    def revoke(self, value):
        with self.lock:
            record = self.tokens.get(value)
            if record is not None:
                record["revoked"] = True

    def new_code(self):
        return secrets.token_hex(10)

    def new_device_code(self):
        user_code = "".join(secrets.choice(USER_CODE_ALPHABET) for _ in range(8))
        return secrets.token_hex(20), user_code[:4] + "-" + user_code[4:]

    # --- inspection -------------------------------------------------------------------
    def snapshot(self):
        """GET /control/state."""
        with self.lock:
            t = now()

            def remaining(rec):
                return None if rec.get("expires_at") is None else rec["expires_at"] - t

            return {
                "counters": dict(self.counters),
                "tokens": [dict(r, expires_at=None, expires_in_remaining=remaining(r))
                           for r in self.tokens.values()],
                "refresh_tokens": [dict(r, expires_at=None, expires_in_remaining=remaining(r))
                                   for r in self.refresh_tokens.values()],
                "codes": [dict(c) for c in self.codes.values()],
                "device_sessions": [dict(s, polls=list(s["polls"])) for s in self.device.values()],
                "apps": list(self.apps.values()),
                "users": list(self.users.values()),
                "script": self.script,
                "now": t,
            }
