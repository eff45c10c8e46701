"""Self-test of the fake: the web flow and response directives."""

import base64
import hashlib
import json
import time
import unittest
import urllib.parse

from fakeclient import shared

VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
DEVICE = "urn:ietf:params:oauth:grant-type:device_code"


class Base(unittest.TestCase):
    """Every test starts from a reset fake (one process shared by the whole run)."""

    def setUp(self):
        self.f = shared()
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
        status, headers, body = self.f.token(self._fields(self.f.code()), accept=None)
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

    def test_response_type_like_a_standard_server(self):
        status, location, _ = self.f.authorize(response_type=None)
        self.assertEqual(status, 302)
        self.assertEqual(location, "http://127.0.0.1:5555/callback?error=invalid_request"
                         "&error_description=Missing%20response_type%20parameter.&state=st4te")
        status, location, _ = self.f.authorize(response_type="token")
        self.assertIn("?error=unsupported_response_type&", location)
        self.f.script({"authorize": {"require_response_type": False}})
        status, location, _ = self.f.authorize(response_type=None)
        self.assertIn("?code=", location)

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
