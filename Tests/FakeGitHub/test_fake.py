#!/usr/bin/env python3
"""Self-test of the fake GitHub (python3 test_fake.py). Runs in a few seconds; unittest prints
OK or FAILED as its last line."""

import base64
import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import unittest
import urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fakeclient import HERE, Fake  # noqa: E402

FAKE = None
VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
DEVICE = "urn:ietf:params:oauth:grant-type:device_code"


def setUpModule():
    global FAKE
    FAKE = Fake()


def tearDownModule():
    FAKE.stop()


class Base(unittest.TestCase):
    def setUp(self):
        self.f = FAKE
        self.f.reset()


class WebFlowTests(Base):
    def test_rfc7636_appendix_b_pair(self):
        digest = hashlib.sha256(VERIFIER.encode()).digest()
        self.assertEqual(base64.urlsafe_b64encode(digest).rstrip(b"=").decode(), CHALLENGE)
        status, _, body = self.f.exchange(self.f.code())
        self.assertEqual(status, 200)
        self.assertTrue(body["access_token"].startswith("gho_"))
        self.assertEqual(len(body["access_token"]), 40)
        self.assertEqual(body["scope"], "repo,gist")
        self.assertEqual(body["token_type"], "bearer")
        status, headers, user = self.f.user(body["access_token"])
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(user)["login"], "octocat")
        self.assertEqual(json.loads(user)["id"], 1)
        self.assertEqual(headers["x-oauth-scopes"], "repo, gist")

    def test_wrong_verifier_rejected_with_http_200_and_code_burned(self):
        code = self.f.code()
        status, _, body = self.f.exchange(code, code_verifier="x" * 43)
        self.assertEqual((status, body["error"]), (200, "bad_verification_code"))
        self.assertNotIn("access_token", body)
        status, _, body = self.f.exchange(code)
        self.assertEqual(body["error"], "bad_verification_code")

    def test_missing_or_short_verifier_rejected(self):
        self.assertEqual(self.f.exchange(self.f.code(), code_verifier=None)[2]["error"], "bad_verification_code")
        self.assertEqual(self.f.exchange(self.f.code(), code_verifier=VERIFIER[:42])[2]["error"],
                         "bad_verification_code")

    def test_code_is_single_use_and_reuse_revokes_first_token(self):
        code = self.f.code()
        first = self.f.exchange(code)[2]["access_token"]
        self.assertEqual(self.f.exchange(code)[2]["error"], "bad_verification_code")
        self.assertEqual(self.f.user(first)[0], 401)

    def test_code_expires(self):
        self.f.script({"code_ttl": 0})
        self.assertEqual(self.f.exchange(self.f.code())[2]["error"], "bad_verification_code")

    def test_redirect_uri_must_match_the_authorize_request(self):
        body = self.f.exchange(self.f.code(), redirect_uri="http://127.0.0.1:5556/callback")[2]
        self.assertEqual(body["error"], "redirect_uri_mismatch")
        self.assertEqual(self.f.exchange(self.f.code(), redirect_uri=None)[2]["error"], "redirect_uri_mismatch")

    def test_client_credentials_checked(self):
        for secret in ("wrong", None):
            body = self.f.exchange(self.f.code(), client_secret=secret)[2]
            self.assertEqual(body["error"], "incorrect_client_credentials")
        self.assertEqual(self.f.exchange(self.f.code(), client_id="Iv1.other")[2]["error"],
                         "incorrect_client_credentials")

    def test_form_json_xml_by_accept(self):
        status, headers, body = self.f.exchange(self.f.code()) and self.f.token(
            self._fields(self.f.code()), accept=None)
        self.assertEqual(headers["content-type"], "application/x-www-form-urlencoded; charset=utf-8")
        pairs = urllib.parse.parse_qs(body)
        self.assertEqual(pairs["scope"], ["repo,gist"])
        self.assertIn("scope=repo%2Cgist", body)
        self.assertEqual(pairs["token_type"], ["bearer"])
        status, headers, body = self.f.token(self._fields(self.f.code()), accept="application/xml")
        self.assertTrue(headers["content-type"].startswith("application/xml"))
        self.assertIn("<access_token>gho_", body)
        status, headers, body = self.f.token({"client_id": "Iv1.testclient", "code": "nope"}, accept=None)
        self.assertIn("error=incorrect_client_credentials", body)

    def _fields(self, code):
        return {"client_id": "Iv1.testclient", "client_secret": "testsecret-s3cr3t", "code": code,
                "redirect_uri": "http://127.0.0.1:5555/callback", "code_verifier": VERIFIER}

    def test_params_in_query_or_json_body_refused(self):
        fields = urllib.parse.urlencode(self._fields(self.f.code()))
        status, _, _ = self.f.request("POST", "github.test", "/login/oauth/access_token?" + fields,
                                      {"Accept": "application/json"}, "")
        self.assertEqual(status, 400)
        status, _, body = self.f.request("POST", "github.test", "/login/oauth/access_token",
                                         {"Accept": "application/json", "Content-Type": "application/json"},
                                         json.dumps(self._fields(self.f.code())))
        self.assertEqual((status, json.loads(body)["error"]), (400, "invalid_request"))
        dup = urllib.parse.urlencode(self._fields(self.f.code())) + "&code=x"
        status, _, _ = self.f.request("POST", "github.test", "/login/oauth/access_token",
                                      {"Content-Type": "application/x-www-form-urlencoded"}, dup)
        self.assertEqual(status, 400)

    def test_authorize_redirect_escaping_and_loopback_rule(self):
        status, location, _ = self.f.authorize(state="a b&c=d/é", redirect_uri="http://127.0.0.1:40000/callback")
        self.assertEqual(status, 302)
        self.assertTrue(location.startswith("http://127.0.0.1:40000/callback?code="))
        self.assertIn("&state=a%20b%26c%3Dd%2F%C3%A9", location)
        self.assertEqual(self.f.authorize(redirect_uri="http://127.0.0.1:1/callback/github.test")[0], 302)
        for bad in ("http://localhost:5555/callback", "http://127.0.0.1:5555/other", "https://127.0.0.1:5555/callback",
                    "http://127.0.0.1:5555/callback/../x", "http://[::1]:5555/callback", "http://127.1:5555/callback"):
            status, location, _ = self.f.authorize(redirect_uri=bad)
            self.assertEqual(status, 302, bad)
            self.assertTrue(location.startswith("http://127.0.0.1/callback?error=redirect_uri_mismatch"), location)
            self.assertIn("state=st4te", location)

    def test_authorize_strictness(self):
        self.assertEqual(self.f.authorize(code_challenge_method="plain")[0], 400)
        self.assertEqual(self.f.authorize(code_challenge_method=None)[0], 400)
        self.assertEqual(self.f.authorize(code_challenge=None, code_challenge_method=None)[0], 400)
        self.assertEqual(self.f.authorize(state=None)[0], 400)
        self.assertEqual(self.f.authorize(client_id="Iv1.unknown")[0], 404)
        self.assertEqual(self.f.authorize(code_challenge="short")[0], 400)

    def test_deny_and_scripted_user(self):
        self.f.script({"authorize": {"deny": True}})
        status, location, _ = self.f.authorize()
        self.assertIn("?error=access_denied&error_description=", location)
        self.assertTrue(location.endswith("&state=st4te"))
        self.f.script({"authorize": {"deny": False, "user": "hubot"}})
        token = self.f.exchange(self.f.code())[2]["access_token"]
        self.assertEqual(json.loads(self.f.user(token)[2])["login"], "hubot")

    def test_token_shapes(self):
        self.f.script({"token": {"access_token_length": 600}})
        token = self.f.exchange(self.f.code())[2]["access_token"]
        self.assertEqual(len(token), 600)
        self.assertEqual(self.f.user(token)[0], 200)
        self.f.script({"token": {"access_token_length": None, "access_token": "gho_a\r\nb c=d", "token_type": "Bearer"}})
        body = self.f.exchange(self.f.code())[2]
        self.assertEqual((body["access_token"], body["token_type"]), ("gho_a\r\nb c=d", "Bearer"))
        self.f.script({"token": {"access_token": None, "omit": ["token_type"], "scope": "repo"}})
        body = self.f.exchange(self.f.code())[2]
        self.assertNotIn("token_type", body)
        self.assertEqual(body["scope"], "repo")
        self.f.script({"token": {"omit": [], "scope": None, "expiring": True, "numbers_as_strings": True}})
        body = self.f.exchange(self.f.code())[2]
        self.assertTrue(body["access_token"].startswith("ghu_") and body["refresh_token"].startswith("ghr_"))
        self.assertEqual((body["expires_in"], body["refresh_token_expires_in"], body["scope"]), ("28800", "15811200", ""))


class DirectiveTests(Base):
    def test_scripted_error_and_status(self):
        self.f.script({"responses": {"token": ["unverified_user_email", 500,
                                               {"error": "invalid_grant", "status": 400}]}})
        self.assertEqual(self.f.exchange(self.f.code())[2]["error"], "unverified_user_email")
        self.assertEqual(self.f.exchange(self.f.code())[0], 500)
        status, _, body = self.f.exchange(self.f.code())
        self.assertEqual((status, body["error"]), (400, "invalid_grant"))
        self.assertEqual(self.f.exchange(self.f.code())[0], 200)  # queue empty: normal again

    def test_framings_on_the_wire(self):
        fields = urllib.parse.urlencode({"client_id": "Iv1.testclient", "client_secret": "testsecret-s3cr3t",
                                         "code": self.f.code(), "redirect_uri": "http://127.0.0.1:5555/callback",
                                         "code_verifier": VERIFIER})

        def post():
            req = ("POST /login/oauth/access_token HTTP/1.1\r\nHost: github.test:%d\r\nUser-Agent: t\r\n"
                   "Accept: application/json\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                   "Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (self.f.port, len(fields), fields))
            return self.f.raw("github.test", req.encode())

        for framing, check in (
                ("truncated", lambda r: b"Content-Length: 500\r\n" in r and len(r.split(b"\r\n\r\n", 1)[1]) <= 100),
                ("chunked", lambda r: b"Transfer-Encoding: chunked" in r and r.endswith(b"0\r\n\r\n")),
                ("te_and_cl", lambda r: b"Transfer-Encoding: chunked" in r and b"Content-Length:" in r),
                ("dup_content_length", lambda r: r.count(b"Content-Length:") == 2),
                ("bare_cr_header", lambda r: b"first\rInjected" in r),
                ("drop", lambda r: r == b"" or r.startswith(b"<<")),
                ("html", lambda r: b"text/html" in r),
                ("xml", lambda r: b"application/xml" in r and b"<OAuth>" in r),
                ({"kind": "raw", "data": "HTTP/1.1 200 OK\r\nX: y\r\n\r\n"}, lambda r: r == b"HTTP/1.1 200 OK\r\nX: y\r\n\r\n"),
                ({"kind": "redirect", "location": "https://evil.test:{port}/x"},
                 lambda r: ("Location: https://evil.test:%d/x" % self.f.port).encode() in r)):
            self.f.script({"responses": {"token": [framing]}})
            self.assertTrue(check(post()), framing)

    def test_huge_delay_and_sticky(self):
        self.f.script({"responses": {"token": [{"kind": "normal", "pad_to": 2 * 1024 * 1024, "delay": 0.3}]}})
        started = time.monotonic()
        status, _, body = self.f.exchange(self.f.code())
        self.assertGreaterEqual(time.monotonic() - started, 0.3)
        self.assertEqual(len(body["padding"]) > 2_000_000, True)
        self.assertTrue(body["access_token"].startswith("gho_"))
        self.f.script({"responses": {"user": [{"kind": "status", "status": 503, "sticky": True}]}})
        self.assertEqual(self.f.user("whatever")[0], 503)
        self.assertEqual(self.f.user("whatever")[0], 503)

    def test_control_rejects_unknown_keys(self):
        for bad in ({"nope": 1}, {"device": {"intervall": 1}}, {"responses": {"tokens": []}},
                    {"responses": {"token": [{"kind": "teapot"}]}}, {"responses": {"token": [{"framing": "x"}]}}):
            with self.assertRaises(AssertionError):
                self.f.script(bad)


class DeviceFlowTests(Base):
    def start(self, **fields):
        body = {"client_id": "Iv1.testclient", "scope": "repo"}
        body.update(fields)
        status, headers, data = self.f.request("POST", "github.test", "/login/device/code",
                                               {"Accept": "application/json"}, body)
        return status, json.loads(data)

    def poll(self, device_code, **extra):
        fields = {"client_id": "Iv1.testclient", "device_code": device_code, "grant_type": DEVICE}
        fields.update(extra)
        return self.f.token(fields)[2]

    def test_code_response(self):
        self.f.script({"device": {"interval": None, "verification_uri": "https://evil.test/login/device"}})
        status, body = self.start()
        self.assertEqual(status, 200)
        self.assertEqual(len(body["device_code"]), 40)
        self.assertRegex(body["user_code"], r"^[A-Z0-9]{4}-[A-Z0-9]{4}$")
        self.assertEqual(body["verification_uri"], "https://evil.test/login/device")
        self.assertNotIn("interval", body)
        self.assertEqual(body["expires_in"], 900)
        _, _, form = self.f.request("POST", "github.test", "/login/device/code", {}, {"client_id": "Iv1.testclient"})
        self.assertIn(b"&user_code=", form)

    def test_pacing_and_scripted_sequence(self):
        self.f.script({"device": {"interval": 1}, "responses": {"device_poll": ["authorization_pending"]}})
        code = self.start()[1]["device_code"]
        early = self.poll(code)
        self.assertEqual((early["error"], early["interval"]), ("slow_down", 6))
        self.f.script({"device": {"interval": 1}})
        code = self.start()[1]["device_code"]
        time.sleep(1.05)
        self.assertEqual(self.poll(code, client_secret="testsecret-s3cr3t")["error"], "authorization_pending")
        time.sleep(1.05)
        token = self.poll(code)["access_token"]
        self.assertEqual(self.f.user(token)[0], 200)
        self.assertEqual(self.poll(code)["error"], "incorrect_device_code")
        sessions = {s["device_code"]: s for s in self.f.state()["device_sessions"]}
        polls = sessions[code]["polls"]
        self.assertEqual([p["answer"] for p in polls][:2], ["authorization_pending", "success"])
        self.assertEqual([p["client_secret_sent"] for p in polls][:2], [True, False])
        self.assertGreaterEqual(polls[1]["time"] - polls[0]["time"], 1.0)

    def test_scripted_slow_down_and_terminal_errors(self):
        self.f.script({"device": {"enforce_interval": False},
                       "responses": {"device_poll": [{"error": "slow_down", "interval": 10}, "slow_down",
                                                     {"error": "slow_down", "omit_interval": True}, "access_denied"]}})
        code = self.start()[1]["device_code"]
        self.assertEqual(self.poll(code)["interval"], 10)
        self.assertEqual(self.poll(code)["interval"], 15)
        self.assertNotIn("interval", self.poll(code))
        self.assertEqual(self.poll(code)["error"], "access_denied")
        self.assertEqual(self.poll(code)["error"], "access_denied")
        self.assertEqual(self.poll("unknown")["error"], "incorrect_device_code")

    def test_expiry_and_disabled(self):
        self.f.script({"device": {"expires_in": 0, "enforce_interval": False}})
        code = self.start()[1]["device_code"]
        self.assertEqual(self.poll(code)["error"], "expired_token")
        self.f.script({"responses": {"device_code": [404, {"error": "device_flow_disabled", "status": 400}]}})
        self.assertEqual(self.f.request("POST", "github.test", "/login/device/code", {}, {"client_id": "x"})[0], 404)
        status, body = self.start()
        self.assertEqual((status, body["error"]), (400, "device_flow_disabled"))


class RefreshTests(Base):
    def expiring_pair(self):
        self.f.script({"token": {"expiring": True}})
        body = self.f.exchange(self.f.code())[2]
        return body["access_token"], body["refresh_token"]

    def refresh(self, rt, secret="testsecret-s3cr3t"):
        fields = {"client_id": "Iv1.testclient", "grant_type": "refresh_token", "refresh_token": rt}
        if secret:
            fields["client_secret"] = secret
        return self.f.token(fields)[2]

    def test_rotation_and_reuse(self):
        access, rt = self.expiring_pair()
        new = self.refresh(rt)
        self.assertTrue(new["access_token"].startswith("ghu_") and new["refresh_token"].startswith("ghr_"))
        self.assertEqual(self.f.user(access)[0], 401)
        self.assertEqual(self.f.user(new["access_token"])[0], 200)
        self.assertEqual(self.refresh(rt)["error"], "bad_refresh_token")
        self.assertEqual(self.f.user(new["access_token"])[0], 401)  # reuse killed the family
        self.assertEqual(self.f.state()["counters"]["refresh_requests"], 2)

    def test_secret_rules(self):
        _, rt = self.expiring_pair()
        self.assertEqual(self.refresh(rt, secret=None)["error"], "incorrect_client_credentials")
        self.f.control("POST", "/control/users", {"refresh_tokens": [
            {"refresh_token": "ghr_device1", "login": "octocat", "origin": "device"}]})
        self.assertIn("access_token", self.refresh("ghr_device1", secret=None))

    def test_race_only_one_wins(self):
        _, rt = self.expiring_pair()
        results = []
        threads = [threading.Thread(target=lambda: results.append(self.refresh(rt))) for _ in range(5)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(sum("access_token" in r for r in results), 1)
        self.assertEqual(self.f.state()["counters"]["refresh_requests"], 5)


class ApiTests(Base):
    def token(self):
        return self.f.exchange(self.f.code())[2]["access_token"]

    def revoke(self, token, auth=("Iv1.testclient", "testsecret-s3cr3t"), host="api.github.test", prefix=""):
        headers = {"Content-Type": "application/json", "Accept": "application/vnd.github+json"}
        if auth:
            headers["Authorization"] = "Basic " + base64.b64encode(("%s:%s" % auth).encode()).decode()
        body = json.dumps({"access_token": token}) if token is not None else "{}"
        return self.f.request("DELETE", host, prefix + "/applications/Iv1.testclient/token", headers, body)[0]

    def test_user_auth_rules(self):
        token = self.token()
        self.assertEqual(self.f.user(token, scheme="token")[0], 200)
        self.assertEqual(self.f.user(token, extra={"User-Agent": ""})[0], 403)
        self.assertEqual(self.f.request("GET", "api.github.test", "/user")[0], 401)
        status, _, body = self.f.user("gho_bogus")
        self.assertEqual((status, json.loads(body)["message"]), (401, "Bad credentials"))
        self.assertEqual(self.f.user(token, host="ghe.test", path="/api/v3/user")[0], 200)
        self.f.script({"user": {"override": {"login": "oct\u001b[31mocat"}}})
        self.assertEqual(json.loads(self.f.user(token)[2])["login"], "oct\u001b[31mocat")

    def test_rate_limit_and_redirect(self):
        self.f.script({"responses": {"user": ["rate_limited", {"kind": "redirect", "location": "https://evil.test/user"}]}})
        status, headers, _ = self.f.user(self.token())
        self.assertEqual((status, headers["x-ratelimit-remaining"]), (403, "0"))
        status, headers, _ = self.f.user(self.token())
        self.assertEqual((status, headers["location"]), (302, "https://evil.test/user"))

    def test_revocation(self):
        token = self.token()
        self.assertEqual(self.revoke(token, auth=("Iv1.testclient", "wrong")), 401)
        self.assertEqual(self.revoke(token, auth=None), 401)
        self.assertEqual(self.revoke(None), 422)
        self.assertEqual(self.revoke(token), 204)
        self.assertEqual(self.f.user(token)[0], 401)
        self.assertEqual(self.revoke(token), 404)
        self.assertEqual(self.revoke(self.token(), host="ghe.test", prefix="/api/v3"), 204)
        self.f.script({"responses": {"revoke": [422]}})
        self.assertEqual(self.revoke(self.token()), 422)

    def test_strict_hosts(self):
        token = self.token()
        self.assertEqual(self.f.user(token, host="github.test")[0], 404)
        self.assertEqual(self.f.user(token, host="api.github.test", path="/api/v3/user")[0], 404)
        ctx = self.f.context()
        status = self.f.request("GET", "github.test", "/user", {"Authorization": "Bearer " + token},
                                context=ctx, host_header="api.github.test:%d" % self.f.port)[0]
        self.assertEqual(status, 421)
        status = self.f.request("GET", "api.github.test", "/user", {"Authorization": "Bearer " + token},
                                host_header="api.github.test")[0]
        self.assertEqual(status, 400)
        self.assertEqual(self.f.user(token, host="127.0.0.1", path="/api/v3/user")[0], 200)


class LogTests(Base):
    def test_log_records_requests_and_connections(self):
        before = time.monotonic()
        self.f.exchange(self.f.code())
        entries = self.f.requests("/login/oauth/access_token")
        self.assertEqual(len(entries), 1)
        entry = entries[0]
        self.assertEqual(entry["method"], "POST")
        self.assertEqual(entry["form"]["code_verifier"], [VERIFIER])
        self.assertEqual(entry["headers"]["accept"], ["application/json"])
        self.assertEqual(entry["sni"], "github.test")
        self.assertEqual(entry["status"], 200)
        self.assertGreaterEqual(entry["time"], before)
        self.assertIn("access_token", entry["response_body"])
        connections = [e for e in self.f.log() if e["type"] == "connection"]
        self.assertTrue(all(c["tls"] == "ok" and c["requests"] == 1 for c in connections))


class ProcessTests(unittest.TestCase):
    def test_tls_failures_are_logged(self):
        for name in ("wronghost", "expired", "selfsigned"):
            fake = Fake("--cert-name", name)
            try:
                with self.assertRaises(Exception):
                    fake.request("GET", "github.test", "/login/device")
                conns = [e for e in fake.log() if e["type"] == "connection"]
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
            query = urllib.parse.urlencode({"client_id": "Iv1.testclient", "redirect_uri": "http://127.0.0.1:%d/callback" % port,
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


if __name__ == "__main__":
    unittest.main(verbosity=1)
