#!/usr/bin/env python3
"""git_http_server.py ROOT CERT KEY USER TOKEN [USER TOKEN ...]

A git server for end-to-end tests: serves the repositories under ROOT with `git http-backend`
over HTTPS on 127.0.0.1 (an ephemeral port, never another address), and only to requests
carrying HTTP Basic credentials exactly USER:TOKEN of one of the accounts given (a table of
USER TOKEN pairs); anything else gets 401 with
`WWW-Authenticate: Basic realm="ghlogin test"`, as GitHub does. `GET /api/v3/user` is the host's
API as ghlogin derives it: 200 `{"login": USER, "id": N}` (N: the account's place in the table,
from 1) for `Authorization: Bearer TOKEN`, 401 for anything else (what `git-credential erase`
checks, R102).

Prints `PORT <n>` on stdout once listening. Logs one line per request on stderr:
`<status> <method> <path> auth=<none|ok|wrong> user=<USER|-> fp=<fingerprint|->`, the
fingerprint being the first 12 hex digits of the SHA-256 of the token sent (never the token).
Exits when its stdin reaches EOF.

With `GIT_SERVER_FAKE_CONTROL=PORT` (the fake GitHub's control port), a Basic password that is
none of the table's is looked up at the fake (`GET /control/state`): a live token the fake minted
with `POST /applications/{client_id}/token/scoped` (or an installation token, from
`POST /app/installations/{id}/access_tokens`) reaches only its repositories, as GitHub
answers: 404 "Repository not found." for one it cannot see, 403 for a push without
`contents: write` (issue 34 §3).
Python 3 standard library only.
"""

import base64
import hashlib
import http.client
import http.server
import json
import os
import ssl
import subprocess
import sys
import threading


def main() -> None:
    root, cert, key = sys.argv[1:4]
    pairs = sys.argv[4:]
    if len(pairs) < 2 or len(pairs) % 2:
        sys.exit("usage: git_http_server.py ROOT CERT KEY USER TOKEN [USER TOKEN ...]")
    accounts = [(pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2)]
    # Basic header -> user, Bearer header -> (user, id)
    basic = {"Basic " + base64.b64encode(f"{u}:{t}".encode()).decode(): u for u, t in accounts}
    bearer = {"Bearer " + t: (u, n) for n, (u, t) in enumerate(accounts, start=1)}

    def fingerprint(header):
        """The SHA-256 prefix of the token (or password) in an Authorization header, or "-"."""
        if not header:
            return "-"
        scheme, _, value = header.partition(" ")
        secret = value
        if scheme == "Basic":
            try:
                secret = base64.b64decode(value).decode("utf-8", "replace").partition(":")[2]
            except ValueError:
                secret = value
        return hashlib.sha256(secret.encode()).hexdigest()[:12]

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, format, *args):  # quiet: we log our own line
            pass

        def do_GET(self):
            self.serve()

        def do_POST(self):
            self.serve()

        def serve(self):
            given = self.headers.get("Authorization")
            if self.path == "/api/v3/user":
                if given in bearer:
                    login, number = bearer[given]
                    body = ('{"login": "%s", "id": %d}' % (login, number)).encode()
                    self.reply(200, [("Content-Type", "application/json")], body, "ok", login)
                else:
                    self.reply(401, [("Content-Type", "application/json")], b'{"message": "Bad credentials"}',
                               "none" if given is None else "wrong")
                return
            if given not in basic and self.scoped(given):
                return
            if given not in basic:
                self.reply(401, [("WWW-Authenticate", 'Basic realm="ghlogin test"')], b"authentication required\n",
                           "none" if given is None else "wrong")
                return
            self.backend(basic[given])

        def scoped(self, given):
            """Serves (or refuses) a request with a scoped token of the fake; False when it is none."""
            port = os.environ.get("GIT_SERVER_FAKE_CONTROL")
            if not port or not given or not given.startswith("Basic "):
                return False
            try:
                password = base64.b64decode(given[6:]).decode("utf-8", "replace").partition(":")[2]
            except ValueError:
                return False
            connection = http.client.HTTPConnection("127.0.0.1", int(port), timeout=10)
            connection.request("GET", "/control/state")
            tokens = json.loads(connection.getresponse().read())["tokens"]
            connection.close()
            record = next((t for t in tokens if t["access_token"] == password
                           and t.get("kind") in ("scoped", "installation")
                           and not t["revoked"] and (t.get("expires_in_remaining") or 1) > 0), None)
            if record is None:
                return False
            parts = self.path.partition("?")[0].strip("/").split("/")
            repository = "/".join(parts[:2])
            repository = repository[:-4] if repository.endswith(".git") else repository
            if repository.lower() not in [r.lower() for r in record["repositories"]]:
                self.reply(404, [("Content-Type", "text/plain")], b"Repository not found.\n", "scoped", record["login"])
                return True
            pushing = "git-receive-pack" in self.path
            if pushing and record["permissions"].get("contents") != "write":
                self.reply(403, [("Content-Type", "text/plain")],
                           b"Permission to %s denied to %s.\n" % (repository.encode(), record["login"].encode()),
                           "scoped", record["login"])
                return True
            self.backend(record["login"])
            return True

        def backend(self, user):
            path, _, query = self.path.partition("?")
            body = self.read_body()
            env = {
                "GIT_PROJECT_ROOT": root,
                "GIT_HTTP_EXPORT_ALL": "1",
                "PATH_INFO": path,
                "QUERY_STRING": query,
                "REQUEST_METHOD": self.command,
                "CONTENT_TYPE": self.headers.get("Content-Type", ""),
                "CONTENT_LENGTH": str(len(body)),
                "REMOTE_USER": user,
                "REMOTE_ADDR": "127.0.0.1",
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "HOME": root,
                "GIT_CONFIG_NOSYSTEM": "1",
            }
            for header, variable in (("Content-Encoding", "HTTP_CONTENT_ENCODING"),
                                     ("Git-Protocol", "HTTP_GIT_PROTOCOL")):
                if self.headers.get(header):
                    env[variable] = self.headers[header]
            result = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True)
            head, _, content = result.stdout.partition(b"\r\n\r\n")
            status, headers = 200, []
            for line in head.split(b"\r\n"):
                name, _, value = line.decode("latin-1").partition(":")
                if name.lower() == "status":
                    status = int(value.split()[0])
                elif name:
                    headers.append((name, value.strip()))
            self.reply(status, headers, content, "ok", user)

        def read_body(self) -> bytes:
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                chunks = []
                while True:
                    size = int(self.rfile.readline().split(b";")[0], 16)
                    if size == 0:
                        self.rfile.readline()
                        return b"".join(chunks)
                    chunks.append(self.rfile.read(size))
                    self.rfile.readline()
            length = int(self.headers.get("Content-Length") or 0)
            return self.rfile.read(length) if length else b""

        def reply(self, status, headers, content, auth, login="-"):
            # Logged before the answer goes out, so a client that has it and exits never
            # outruns the line a test then looks for.
            sent = fingerprint(self.headers.get("Authorization"))
            print(f"{status} {self.command} {self.path} auth={auth} user={login} fp={sent}", file=sys.stderr, flush=True)
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(content)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(content)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    sys.stdin.read()  # until EOF: the test is done
    server.shutdown()


if __name__ == "__main__":
    main()
