#!/usr/bin/env python3
"""A Go module proxy (GOPROXY protocol) over HTTPS on 127.0.0.1, for the GOAUTH tests.

  module_proxy.py CERT KEY LOG [--basic LOGIN:TOKEN] [--module PATH@VERSION]

Prints the port it listens on as the first line of stdout, then serves until stdin closes.
With --basic, every request without exactly that Basic credential gets 401 with a
WWW-Authenticate challenge; without it, every request gets 401 (a proxy of another host that
must never see ghlogin's credential). Each request is appended to LOG as one JSON line:
{"path": ..., "authorization": <the header or null>}. The module is served from memory: a
go.mod and one Go file, zipped in the module zip layout (PATH@VERSION/...).
"""
import base64, io, json, sys, threading, zipfile
from http.server import BaseHTTPRequestHandler

from tls_serve import serve_tls

cert, key, log_path = sys.argv[1:4]
args = sys.argv[4:]
basic = None
module, version = "example.test/private", "v1.0.0"
while args:
    flag, value, args = args[0], args[1], args[2:]
    if flag == "--basic":
        basic = "Basic " + base64.b64encode(value.encode()).decode()
    elif flag == "--module":
        module, version = value.split("@")

gomod = f"module {module}\n\ngo 1.22\n".encode()
buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w") as archive:
    archive.writestr(f"{module}@{version}/go.mod", gomod)
    archive.writestr(f"{module}@{version}/private.go", b"package private\n\nconst Answer = 42\n")
files = {
    f"/{module}/@v/list": f"{version}\n".encode(),
    f"/{module}/@v/{version}.info": json.dumps({"Version": version, "Time": "2026-01-01T00:00:00Z"}).encode(),
    f"/{module}/@v/{version}.mod": gomod,
    f"/{module}/@v/{version}.zip": buffer.getvalue(),
    f"/{module}/@latest": json.dumps({"Version": version, "Time": "2026-01-01T00:00:00Z"}).encode(),
}
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        authorization = self.headers.get("Authorization")
        with lock, open(log_path, "a") as log:
            log.write(json.dumps({"path": self.path, "authorization": authorization}) + "\n")
        if basic is None or authorization != basic:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="modules"')
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = files.get(self.path)
        if body is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


serve_tls(Handler, cert, key)
