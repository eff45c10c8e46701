"""Self-test of the fake: device flow, refresh, API, log."""

import base64
import http.client
import json
import urllib.parse
import threading
import time

from selftest_web import DEVICE, VERIFIER, Base


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

    def test_control_revoke(self):
        token = self.token()
        self.assertEqual(self.f.user(token)[0], 200)
        self.f.control("POST", "/control/revoke", {"access_token": token})
        status, _, body = self.f.user(token)
        self.assertEqual((status, json.loads(body)["message"]), (401, "Bad credentials"))
        with self.assertRaises(AssertionError):  # already dead: 400
            self.f.control("POST", "/control/revoke", {"access_token": token})

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

    def revoke7009(self, token, hint=None, auth=("Iv1.testclient", "testsecret-s3cr3t"), body_client=None):
        params = [("token", token)] + ([("token_type_hint", hint)] if hint else [])
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}
        if auth:
            headers["Authorization"] = "Basic " + base64.b64encode(("%s:%s" % auth).encode()).decode()
        if body_client:
            params.append(("client_id", body_client))
        return self.f.request("POST", "github.test", "/login/oauth/revoke", headers,
                              urllib.parse.urlencode(params))[0]

    def test_rfc7009_revocation(self):
        token = self.token()
        self.assertEqual(self.revoke7009(token, auth=("Iv1.testclient", "wrong")), 401)
        self.assertEqual(self.revoke7009(token, auth=None, body_client="Iv1.testclient"), 401)  # has a secret
        self.assertEqual(self.f.user(token)[0], 200)
        self.assertEqual(self.revoke7009(token, hint="access_token"), 200)
        self.assertEqual(self.f.user(token)[0], 401)
        self.assertEqual(self.revoke7009(token, hint="access_token"), 200)  # already dead: still 200
        self.assertEqual(self.revoke7009("gho_unknown"), 200)
        self.f.script({"token": {"expiring": True}})
        pair = self.f.exchange(self.f.code())[2]
        self.assertEqual(self.revoke7009(pair["refresh_token"], hint="refresh_token"), 200)
        self.assertEqual(self.f.user(pair["access_token"])[0], 401)  # the refresh token took its access token along
        self.assertEqual(self.f.state()["counters"]["rfc7009_revocations"], 2)
        self.f.script({"responses": {"revoke7009": [503]}})
        self.assertEqual(self.revoke7009(self.token()), 503)

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
        connections = self.f.connections()
        self.assertTrue(all(c["tls"] == "ok" and c["requests"] == 1 for c in connections))

    def test_wait_answers_when_the_request_arrives_not_before(self):
        # Nothing yet: a short wait ends in 408 after its timeout, not at once.
        started = time.monotonic()
        conn = http.client.HTTPConnection("127.0.0.1", self.f.control_port, timeout=10)
        conn.request("GET", "/control/wait?path=/user&timeout=0.3")
        resp = conn.getresponse()
        self.assertEqual(resp.status, 408)
        self.assertIn("no request for /user", json.loads(resp.read())["error"])
        conn.close()
        self.assertGreaterEqual(time.monotonic() - started, 0.3)
        # A wait started first is answered by the request that arrives later, with its entry,
        # while the scripted delay still holds the answer back.
        self.f.script({"responses": {"user": [{"kind": "normal", "delay": 3}]}})
        token = self.f.exchange(self.f.code())[2]["access_token"]
        waited = {}

        def wait():
            waited["entry"] = self.f.control("GET", "/control/wait?path=/user&timeout=10")
            waited["at"] = time.monotonic()

        waiter = threading.Thread(target=wait)
        waiter.start()
        asked = time.monotonic()
        self.assertEqual(self.f.user(token)[0], 200)
        answered = time.monotonic()
        waiter.join(10)
        self.assertEqual(waited["entry"]["path"], "/user")
        self.assertEqual(waited["entry"]["method"], "GET")
        self.assertLess(waited["at"] - asked, 2, "the wait ended when the request arrived, before its delay")
        self.assertGreaterEqual(answered - asked, 3)
        for bad in ["/control/wait", "/control/wait?path=/user&timeout=x", "/control/wait?path=/user&timeout=601"]:
            conn = http.client.HTTPConnection("127.0.0.1", self.f.control_port, timeout=10)
            conn.request("GET", bad)
            self.assertEqual(conn.getresponse().status, 400, bad)
            conn.close()
