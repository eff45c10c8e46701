#!/usr/bin/env python3
"""A registry token server (the Docker registry v2 bearer-token protocol, as ghcr.io runs it),
over HTTPS on 127.0.0.1, for the container end-to-end tests.

  registry_token_server.py CERT KEY CA USER_URL JWT_KEY JWT_CERT SERVICE ISSUER LOG

GET /token?service=SERVICE&scope=repository:NAME:pull,push with `Authorization: Basic
LOGIN:TOKEN` is granted only when USER_URL (the fake GitHub's /user, trusted through CA)
accepts TOKEN as a Bearer token and answers that LOGIN; the answer is a registry JWT (RS256,
signed with the `openssl` command, the signing certificate in its x5c header) for the scopes
asked. Anything else gets 401. An anonymous request (no Authorization) gets a token with no
access, as the registries' protocol allows. Prints its port as the first line of stdout,
serves until stdin closes; each request is appended to LOG as a JSON line
{"path", "authorization": bool, "granted": bool}.
"""
import base64, json, os, ssl, subprocess, sys, tempfile, threading, time, urllib.parse, urllib.request
from http.server import BaseHTTPRequestHandler

from tls_serve import serve_tls

cert, key, ca, user_url, jwt_key, jwt_cert, service, issuer, log_path = sys.argv[1:10]
lock = threading.Lock()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


with open(jwt_cert) as f:
    pem = f.read()
der_b64 = "".join(line for line in pem.splitlines() if line and not line.startswith("-----"))


def sign(claims):
    header = {"typ": "JWT", "alg": "RS256", "x5c": [der_b64]}
    signing_input = (b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())).encode()
    signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", jwt_key], input=signing_input,
                               capture_output=True, check=True).stdout
    return signing_input.decode() + "." + b64url(signature)


def github_login(token):
    context = ssl.create_default_context(cafile=ca)
    request = urllib.request.Request(user_url, headers={
        "Authorization": "Bearer " + token, "User-Agent": "registry-token-server", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, context=context, timeout=10) as response:
            return json.load(response).get("login")
    except Exception:
        return None


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        authorization = self.headers.get("Authorization")
        granted = False
        access = []
        status = 401
        if url.path == "/token" and query.get("service") == [service]:
            if authorization is None:
                status = 200  # anonymous: a token that grants nothing
            elif authorization.startswith("Basic "):
                try:
                    login, _, token = base64.b64decode(authorization[6:]).decode().partition(":")
                except Exception:
                    login, token = "", ""
                if login and token and github_login(token) == login:
                    status, granted = 200, True
                    for scope in query.get("scope", []):
                        kind, _, rest = scope.partition(":")
                        name, _, actions = rest.rpartition(":")
                        access.append({"type": kind, "name": name, "actions": actions.split(",")})
        with lock, open(log_path, "a") as log:
            log.write(json.dumps({"path": url.path, "authorization": authorization is not None,
                                  "granted": granted}) + "\n")
        if status != 200:
            self.send_response(401)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        now = int(time.time())
        claims = {"iss": issuer, "sub": "anonymous" if not granted else login, "aud": service, "exp": now + 300,
                  "nbf": now - 10, "iat": now, "jti": b64url(os.urandom(12)), "access": access}
        token = sign(claims)
        body = json.dumps({"token": token, "access_token": token, "expires_in": 300}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


serve_tls(Handler, cert, key)
