"""Self-tests of POST /applications/{client_id}/token/scoped and GET /installation/repositories."""

import base64
import json

from selftest_web import Base

BASIC = "Basic " + base64.b64encode(b"Iv1.testclient:testsecret-s3cr3t").decode()


class ScopedTokenTests(Base):
    def app_token(self):
        self.f.script({"token": {"expiring": True}})
        return self.f.exchange(self.f.code())[2]["access_token"]

    def scoped(self, body, auth=BASIC):
        headers = {"Content-Type": "application/json", "Accept": "application/vnd.github+json"}
        if auth:
            headers["Authorization"] = auth
        status, headers, data = self.f.request(
            "POST", "api.github.test", "/applications/Iv1.testclient/token/scoped", headers, json.dumps(body))
        return status, json.loads(data or b"null")

    def test_mints_a_narrowed_token_listed_on_the_api_origin(self):
        parent = self.app_token()
        status, answer = self.scoped({"access_token": parent, "target": "acme", "repositories": ["api"],
                                      "permissions": {"contents": "read"}})
        self.assertEqual(status, 200)
        installation = answer["installation"]
        self.assertEqual(installation["permissions"], {"contents": "read", "metadata": "read"})
        self.assertEqual(installation["repository_selection"], "selected")
        self.assertTrue(installation["repositories_url"].startswith("https://api.github.test:"))
        token = answer["token"]
        status, _, data = self.f.request("GET", "api.github.test", "/installation/repositories",
                                         {"Authorization": "Bearer " + token})
        self.assertEqual(status, 200)
        self.assertEqual([r["full_name"] for r in json.loads(data)["repositories"]], ["acme/api"])
        self.assertEqual(self.f.user(token)[0], 200)

    def test_refusals(self):
        parent = self.app_token()
        body = {"access_token": parent, "target": "acme", "repositories": ["api"]}
        self.assertEqual(self.scoped(body, auth=None)[0], 401)
        self.assertEqual(self.scoped(dict(body, access_token="ghu_unknown"))[0], 404)
        self.assertEqual(self.scoped(dict(body, repositories=["nope"]))[0], 422)
        self.assertEqual(self.scoped(dict(body, permissions={"administration": "write"}))[0], 422)
        # An OAuth app's token (not a GitHub App user token) cannot be narrowed: 404, as GitHub answers.
        self.f.control("POST", "/control/users", {"tokens": [{"access_token": "gho_oauthTOKEN", "login": "octocat"}]})
        self.assertEqual(self.scoped(dict(body, access_token="gho_oauthTOKEN"))[0], 404)

    def test_hooks(self):
        parent = self.app_token()
        self.f.script({"scoped": {"widen": {"contents": "write"}, "repositories_url_origin": "https://evil.test"}})
        status, answer = self.scoped({"access_token": parent, "target": "acme", "repositories": ["api"],
                                      "permissions": {"contents": "read"}})
        self.assertEqual(status, 200)
        self.assertEqual(answer["installation"]["permissions"]["contents"], "write")
        self.assertEqual(answer["installation"]["repositories_url"], "https://evil.test/installation/repositories")
