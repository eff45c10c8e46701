"""Self-test of the fake: TLS variants, process lifecycle, fake_browser.py."""

import json
import os
import signal
import subprocess
import sys
import threading
import unittest
import urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer

from fakeclient import HERE, Fake

from selftest_web import CHALLENGE, Base


class ProcessTests(unittest.TestCase):
    def test_tls_failures_are_logged(self):
        for name in ("wronghost", "expired", "selfsigned"):
            fake = Fake("--cert-name", name)
            try:
                with self.assertRaises(Exception):
                    fake.request("GET", "github.test", "/login/device")
                conns = fake.connections()
                self.assertEqual(len(conns), 1, name)
                self.assertEqual((conns[0]["tls"], conns[0]["requests"]), ("failed", 0))
                self.assertEqual([e for e in fake.log() if e["type"] == "request"], [])
            finally:
                fake.stop()

    def test_tls_max_1_1(self):
        import ssl
        fake = Fake("--tls-max", "1.1")
        try:
            with self.assertRaises(ssl.SSLError):
                fake.request("GET", "github.test", "/login/device")
            legacy = fake.context()
            legacy.minimum_version = ssl.TLSVersion.MINIMUM_SUPPORTED
            legacy.set_ciphers("DEFAULT:@SECLEVEL=0")
            self.assertEqual(fake.request("GET", "github.test", "/login/device", context=legacy)[0], 200)
        finally:
            fake.stop()

    def test_exits_on_sigterm_and_on_stdin_eof(self):
        fake = Fake()
        fake.proc.send_signal(signal.SIGTERM)
        self.assertEqual(fake.proc.wait(5), 0)
        fake.stop()
        fake = Fake()
        fake.proc.stdin.close()
        self.assertEqual(fake.proc.wait(5), 0)
        fake.stop()


class CallbackRecorder(BaseHTTPRequestHandler):
    seen = []

    def do_GET(self):
        CallbackRecorder.seen.append((self.path, self.headers.get("Host")))
        body = b"<html>done</html>"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class BrowserTests(Base):
    def run_browser(self, url, *extra):
        out = subprocess.run([sys.executable, os.path.join(HERE, "fake_browser.py"), url, "--ca", self.f.ca] + list(extra),
                             capture_output=True, timeout=20)
        return out.returncode, json.loads(out.stdout)

    def test_follows_to_loopback_and_tampers(self):
        server = HTTPServer(("127.0.0.1", 0), CallbackRecorder)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.server_address[1]
        try:
            query = urllib.parse.urlencode({"response_type": "code", "client_id": "Iv1.testclient", "redirect_uri": "http://127.0.0.1:%d/callback" % port,
                                            "scope": "repo", "state": "S1", "code_challenge": CHALLENGE,
                                            "code_challenge_method": "S256"})
            url = self.f.web("/login/oauth/authorize?" + query)
            CallbackRecorder.seen = []
            code, result = self.run_browser(url)
            self.assertEqual((code, result["callback"]["status"], result["callback"]["body"]), (0, 200, "<html>done</html>"))
            path, host = CallbackRecorder.seen[0]
            self.assertTrue(path.startswith("/callback?code=") and path.endswith("&state=S1"))
            self.assertEqual(host, "127.0.0.1:%d" % port)
            code, result = self.run_browser(url, "--state", "WRONG", "--host-header", "evil.test:%d" % port,
                                            "--add-param", "state=x", "--repeat", "2")
            self.assertEqual(len(result["callbacks"]), 2)
            path, host = CallbackRecorder.seen[-1]
            self.assertTrue(path.endswith("&state=WRONG&state=x"), path)
            self.assertEqual(host, "evil.test:%d" % port)
            code, result = self.run_browser(url.replace("redirect_uri=http%3A%2F%2F127.0.0.1", "redirect_uri=http%3A%2F%2Flocalhost"))
            self.assertEqual(code, 3)
            self.assertIn("error=redirect_uri_mismatch", result["authorize"]["location"])
        finally:
            server.shutdown()
            server.server_close()
