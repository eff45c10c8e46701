"""Test-side helpers shared by test_fake.py: start the fake, talk to its control port, and make
HTTPS requests to it with real names (github.test, api.github.test) routed to 127.0.0.1."""

import http.client
import json
import os
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
_CERTS = None


def certs_dir():
    """Makes the test certificates once per process."""
    global _CERTS
    if _CERTS is None:
        path = tempfile.mkdtemp(prefix="fakegh-certs-")
        subprocess.run(["bash", os.path.join(HERE, "make_certs.sh"), path], check=True)
        _CERTS = path
    return _CERTS


class Fake:
    """A running fake_github.py process."""

    def __init__(self, *extra):
        self.certs = certs_dir()
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "fake_github.py"), "--certs", self.certs]
                                     + list(extra), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        info = json.loads(self.proc.stdout.readline())
        self.port, self.control_port = info["port"], info["control_port"]
        self.ca = os.path.join(self.certs, "ca.pem")

    def stop(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.wait(5)
        self.proc.stdout.close()

    # control
    def control(self, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.control_port, timeout=10)
        data = None if body is None else json.dumps(body)
        conn.request(method, path, body=data, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        payload = json.loads(resp.read() or b"null")
        conn.close()
        if resp.status != 200:
            raise AssertionError("control %s %s -> %d %s" % (method, path, resp.status, payload))
        return payload

    def script(self, update):
        return self.control("POST", "/control/script", update)

    def reset(self):
        return self.control("POST", "/control/reset", {})

    def log(self):
        return self.control("GET", "/control/log")

    def connections(self, settle=2.0):
        """Connection entries, after waiting up to `settle` seconds for pending handshakes to end
        (a client gives up on a certificate before the server has read its alert)."""
        deadline = time.monotonic() + settle
        while True:
            conns = [e for e in self.log() if e["type"] == "connection"]
            if all(c["tls"] != "pending" for c in conns) or time.monotonic() > deadline:
                return conns
            time.sleep(0.02)

    def requests(self, path=None):
        return [e for e in self.log() if e["type"] == "request" and (path is None or e.get("path") == path)]

    def state(self):
        return self.control("GET", "/control/state")

    # TLS side
    def context(self, cafile=None):
        return ssl.create_default_context(cafile=cafile or self.ca)

    def request(self, method, host, path, headers=None, body=None, context=None, host_header=None):
        """One HTTPS request to 127.0.0.1:port with SNI and certificate checks for `host`.
        Returns (status, headers dict lowercased, body bytes)."""
        ctx = context or self.context()
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # headers and body go separately
        tls = ctx.wrap_socket(raw, server_hostname=host)  # no SNI is sent for an IP literal
        conn = http.client.HTTPConnection(host, self.port, timeout=10)
        conn.sock = tls
        hdrs = {"User-Agent": "fake-test/1.0"}
        hdrs.update(headers or {})
        if isinstance(body, dict):
            body = urllib.parse.urlencode(body)
            hdrs.setdefault("Content-Type", "application/x-www-form-urlencoded")
        if host_header is not None:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            conn.putheader("Host", host_header)
            for k, v in hdrs.items():
                conn.putheader(k, v)
            payload = (body or "").encode() if isinstance(body, str) else (body or b"")
            if payload:
                conn.putheader("Content-Length", str(len(payload)))
            conn.endheaders(payload or None)
        else:
            conn.request(method, path, body=body, headers=hdrs)
        resp = conn.getresponse()
        data = resp.read()
        out = (resp.status, {k.lower(): v for k, v in resp.getheaders()}, data)
        conn.close()
        return out

    def raw(self, host, data, context=None, read_timeout=5):
        """Sends raw bytes over TLS and returns everything read until EOF (or timeout)."""
        ctx = context or self.context()
        raw = socket.create_connection(("127.0.0.1", self.port), timeout=read_timeout)
        tls = ctx.wrap_socket(raw, server_hostname=host)
        tls.sendall(data)
        out = b""
        try:
            while True:
                chunk = tls.recv(65536)
                if not chunk:
                    break
                out += chunk
        except (ssl.SSLError, OSError) as error:
            out += b"<<" + type(error).__name__.encode() + b">>"
        tls.close()
        return out

    # flows
    def web(self, path):
        return "https://github.test:%d%s" % (self.port, path)

    def authorize(self, **params):
        query = {"response_type": "code", "client_id": "Iv1.testclient",
                 "redirect_uri": "http://127.0.0.1:5555/callback",
                 "scope": "repo gist", "state": "st4te",
                 "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "code_challenge_method": "S256"}
        query.update(params)
        query = {k: v for k, v in query.items() if v is not None}
        status, headers, body = self.request("GET", "github.test",
                                             "/login/oauth/authorize?" + urllib.parse.urlencode(query))
        return status, headers.get("location"), body

    def code(self, **params):
        status, location, _ = self.authorize(**params)
        assert status == 302, status
        return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))["code"]

    def token(self, fields, accept="application/json"):
        headers = {"Accept": accept} if accept else {}
        status, hdrs, body = self.request("POST", "github.test", "/login/oauth/access_token", headers, fields)
        if hdrs.get("content-type", "").startswith("application/json"):
            return status, hdrs, json.loads(body)
        return status, hdrs, body.decode()

    def exchange(self, code, **overrides):
        fields = {"client_id": "Iv1.testclient", "client_secret": "testsecret-s3cr3t", "code": code,
                  "redirect_uri": "http://127.0.0.1:5555/callback",
                  "code_verifier": "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"}
        fields.update(overrides)
        return self.token({k: v for k, v in fields.items() if v is not None})

    def user(self, token, scheme="Bearer", host="api.github.test", path="/user", extra=None):
        headers = {"Authorization": "%s %s" % (scheme, token), "Accept": "application/vnd.github+json"}
        headers.update(extra or {})
        return self.request("GET", host, path, headers)


_SHARED = None


def shared():
    """One fake for the whole self-test run, started on first use."""
    global _SHARED
    if _SHARED is None:
        _SHARED = Fake()
    return _SHARED


def stop_shared():
    global _SHARED
    if _SHARED is not None:
        _SHARED.stop()
        _SHARED = None
