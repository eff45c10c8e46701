"""Self-tests of the fake's GitHub App installations (fakegh/installations.py): its JWT check
against a JWT signed by the real `openssl` command, and the endpoints."""

import base64
import json
import os
import subprocess
import tempfile
import time
import unittest

from fakegh.installations import jwt_problem
from selftest_web import Base


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class Key:
    """An RSA key made with openssl, its public numbers, and JWTs signed with `openssl dgst`."""

    def __init__(self):
        self.directory = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.directory.name, "app.pem")
        subprocess.run(["openssl", "genrsa", "-out", self.path, "2048"], check=True, capture_output=True)
        text = subprocess.run(["openssl", "rsa", "-in", self.path, "-noout", "-text"], check=True,
                              capture_output=True, text=True).stdout.splitlines()
        start, end = text.index("modulus:"), next(i for i, l in enumerate(text) if l.startswith("publicExponent:"))
        self.public = {"n": "".join(text[start + 1:end]).replace(":", "").replace(" ", ""),
                       "e": int(text[end].split()[1])}

    def jwt(self, claims, header=None):
        head = b64url(json.dumps(header or {"alg": "RS256", "typ": "JWT"}).encode())
        body = b64url(json.dumps(claims).encode())
        signed = subprocess.run(["openssl", "dgst", "-sha256", "-sign", self.path],
                                input=(head + "." + body).encode(), check=True, capture_output=True).stdout
        return head + "." + body + "." + b64url(signed)


class JWTCheckTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.key = Key()
        cls.other = Key()

    @classmethod
    def tearDownClass(cls):
        cls.key.directory.cleanup()
        cls.other.directory.cleanup()

    def options(self, key=None):
        return {"public_key": (key or self.key).public, "app_id": 4242, "client_id": "Iv23liTestAppKey"}

    def test_a_valid_jwt_passes_and_anything_else_is_refused(self):
        now = int(time.time())
        good = {"iat": now - 60, "exp": now + 540, "iss": "Iv23liTestAppKey"}
        self.assertIsNone(jwt_problem(self.key.jwt(good), self.options()))
        self.assertIsNone(jwt_problem(self.key.jwt(dict(good, iss=4242)), self.options()))
        self.assertEqual(jwt_problem(self.key.jwt(good), self.options(self.other)), "bad signature")
        self.assertEqual(jwt_problem(self.key.jwt(dict(good, iss="Iv1.other")), self.options()),
                         "iss is neither the app ID nor its client ID")
        self.assertEqual(jwt_problem(self.key.jwt(dict(good, exp=now + 601, iat=now)), self.options()),
                         "exp more than 600 s after iat")
        self.assertEqual(jwt_problem(self.key.jwt(dict(good, iat=now - 700, exp=now - 100)), self.options()),
                         "expired")
        self.assertEqual(jwt_problem(self.key.jwt(good, {"alg": "none"}), self.options()), "alg is not RS256")
        token = self.key.jwt(good)
        tampered = token.split(".")
        tampered[1] = b64url(json.dumps(dict(good, iss=4242)).encode())
        self.assertEqual(jwt_problem(".".join(tampered), self.options()), "bad signature")


class InstallationEndpointTests(Base):
    def test_lookup_mint_and_revoke(self):
        key = Key()
        self.addCleanup(key.directory.cleanup)
        self.f.script({"installations": {"public_key": key.public, "list": [
            {"id": 7, "account": "acme", "permissions": {"contents": "write", "metadata": "read"},
             "repositories": ["acme/api", "acme/web"]}]}})
        now = int(time.time())
        jwt = key.jwt({"iat": now - 60, "exp": now + 540, "iss": 4242})
        auth = {"Authorization": "Bearer " + jwt, "Accept": "application/vnd.github+json"}
        status, _, data = self.f.request("GET", "api.github.test", "/orgs/acme/installation", auth)
        self.assertEqual((status, json.loads(data)["id"]), (200, 7))
        self.assertEqual(self.f.request("GET", "api.github.test", "/users/nobody/installation", auth)[0], 404)
        self.assertEqual(self.f.request("GET", "api.github.test", "/repos/acme/web/installation", auth)[0], 200)
        self.assertEqual(self.f.request("GET", "api.github.test", "/orgs/acme/installation", {})[0], 401)
        status, _, data = self.f.request("POST", "api.github.test", "/app/installations/7/access_tokens", auth,
                                         json.dumps({"repositories": ["api"], "permissions": {"contents": "read"}}))
        answer = json.loads(data)
        self.assertEqual(status, 201)
        self.assertEqual(answer["permissions"], {"contents": "read", "metadata": "read"})
        self.assertEqual([r["full_name"] for r in answer["repositories"]], ["acme/api"])
        status = self.f.request("POST", "api.github.test", "/app/installations/7/access_tokens", auth,
                                json.dumps({"permissions": {"issues": "read"}}))[0]
        self.assertEqual(status, 422)
        token = answer["token"]
        self.assertEqual(self.f.request("DELETE", "api.github.test", "/installation/token",
                                        {"Authorization": "Bearer " + token})[0], 204)
        self.assertEqual(self.f.request("DELETE", "api.github.test", "/installation/token",
                                        {"Authorization": "Bearer " + token})[0], 401)
