"""The control side: plain HTTP on 127.0.0.1 for tests to script the fake and read its log.

  POST /control/script      merge a script update (see script.py / README.md)    -> {"ok": true}
  POST /control/users       register users, apps, tokens, refresh_tokens        -> {"ok": true}
  POST /control/revoke      {"access_token": T}: T is revoked (GET /user -> 401)  -> {"ok": true}
  POST /control/reset       everything back to the defaults                       -> {"ok": true}
  POST /control/clear_log   empty the log only                                   -> {"ok": true}
  GET  /control/log         every connection and request seen on the TLS side    -> [entry, ...]
  GET  /control/state       counters, tokens, codes, device sessions, script     -> {...}
  GET  /control/wait?path=P&timeout=S  the first request for P, once it has arrived  -> entry
                            (408 when none within S seconds, default 20): a readiness signal
  GET  /control/echo?...    echoes path, Host and query (a loopback callback stand-in)
Errors: 400 {"error": "..."} for a bad body, 404 for an unknown path."""

import http.server
import json
import urllib.parse

from .directives import DirectiveError
from .script import ScriptError


class ControlServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, address, state):
        self.state = state
        super().__init__(address, ControlHandler)

    def handle_error(self, request, client_address):
        pass


class ControlHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 10

    def log_message(self, *args):
        pass

    def do_GET(self):
        state = self.server.state
        if self.path == "/control/log":
            self._reply(200, state.snapshot_log())
        elif self.path == "/control/state":
            self._reply(200, state.snapshot())
        elif self.path.split("?")[0] == "/control/wait":
            query = urllib.parse.parse_qs(self.path.partition("?")[2])
            path = query.get("path", [None])[0]
            try:
                timeout = float(query.get("timeout", ["20"])[0])
            except ValueError:
                timeout = -1
            if not path or not 0 <= timeout <= 600:
                self._reply(400, {"error": "wait needs ?path=/some/path and a timeout of 0 to 600 s"})
                return
            entry = state.wait_for_request(path, timeout)
            if entry is None:
                self._reply(408, {"error": "no request for %s within %g s" % (path, timeout)})
            else:
                self._reply(200, entry)
        elif self.path == "/control/ping":
            self._reply(200, {"ok": True})
        elif self.path.split("?")[0] == "/control/echo":
            # A stand-in loopback callback target for harness tests: echoes what it received.
            self._reply(200, {"path": self.path, "host": self.headers.get("Host"),
                              "query": self.path.partition("?")[2]})
        else:
            self._reply(404, {"error": "unknown control path %s" % self.path})

    def do_POST(self):
        state = self.server.state
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw.strip() else {}
        except ValueError as error:
            self._reply(400, {"error": "body is not JSON: %s" % error})
            return
        try:
            if self.path == "/control/script":
                state.update_script(body)
            elif self.path == "/control/users":
                state.register(body)
            elif self.path == "/control/revoke":
                # A token revoked at GitHub (by the user, an admin or a leak scanner).
                token = body.get("access_token") if isinstance(body, dict) else None
                if not isinstance(token, str) or state.valid_token(token) is None:
                    self._reply(400, {"error": "revoke needs the access_token of a live token"})
                    return
                state.revoke(token)
            elif self.path == "/control/reset":
                state.reset()
            elif self.path == "/control/clear_log":
                with state.lock:
                    state.log.clear()
            else:
                self._reply(404, {"error": "unknown control path %s" % self.path})
                return
        except (ScriptError, DirectiveError) as error:
            self._reply(400, {"error": str(error)})
            return
        self._reply(200, {"ok": True})

    def _reply(self, status, obj):
        body = json.dumps(obj).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        self.close_connection = True
