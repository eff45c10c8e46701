"""A GitHub App's installations and their access tokens, as GitHub's REST documentation describes
them ("Get a repository installation for the authenticated app", "Get an organization
installation ...", "Get a user installation ...", "Create an installation access token for an
app", "Revoke an installation access token"):

  GET    /repos/{owner}/{repo}/installation   the installation that covers the repository
  GET    /orgs/{org}/installation             an organisation's installation (404 for a user)
  GET    /users/{username}/installation       a user's (or organisation's) installation
  POST   /app/installations/{id}/access_tokens  201 {token, expires_at, permissions,
                                             repository_selection, repositories}
  DELETE /installation/token                  204: revokes the installation token sent

The first four need `Authorization: Bearer JWT`, the app's JWT: RS256 verified here in pure
Python (`pow(signature, e, n)` compared with the PKCS#1 v1.5 encoding of the SHA-256
DigestInfo of the signing input), with `n` and `e` given by the test in the `installations`
script section (read with `openssl rsa -in KEY -noout -text`); `iat`, `exp` (at most 600 s
after `iat`, not past) and `iss` (the app's client ID or its numeric app ID) checked. A bad
JWT gets 401 as GitHub answers it. Asked permissions above the installation's, or a repository
it does not cover, get 422. Tokens minted are recorded with kind "installation", their
repositories and permissions, so the git server (git_http_server.py) serves them as it serves
scoped tokens. The section's test hooks: `widen` (permissions merged over the grant) and
`extra_repositories` (repositories added to the answer's list)."""

import base64
import hashlib
import json
import secrets
import time

from .api import BAD_CREDENTIALS, NOT_FOUND, _user_agent_problem, bearer_token
from .response import DOCS, Response, generic_directive, json_response, with_mods
from .state import now

RANK = {"read": 1, "write": 2, "admin": 3}
# DER of DigestInfo's AlgorithmIdentifier for SHA-256 (RFC 8017 §9.2, note 1).
SHA256_PREFIX = bytes.fromhex("3031300d060960864801650304020105000420")


def _b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def jwt_problem(token, options, clock=None):
    """Why `token` is not a valid JWT of the configured app, or None."""
    key = options.get("public_key")
    if not key:
        return "no public key configured"
    parts = token.split(".")
    if len(parts) != 3 or any("=" in p for p in parts):
        return "not three base64url parts"
    try:
        header = json.loads(_b64url(parts[0]))
        claims = json.loads(_b64url(parts[1]))
        signature = _b64url(parts[2])
    except ValueError:
        return "undecodable"
    if header.get("alg") != "RS256":
        return "alg is not RS256"
    n, e = int(key["n"], 16), int(key["e"])
    size = (n.bit_length() + 7) // 8
    if len(signature) != size:
        return "signature length"
    digest = hashlib.sha256((parts[0] + "." + parts[1]).encode("ascii")).digest()
    expected = b"\x00\x01" + b"\xff" * (size - 3 - len(SHA256_PREFIX) - len(digest)) + b"\x00" + SHA256_PREFIX + digest
    if pow(int.from_bytes(signature, "big"), e, n).to_bytes(size, "big") != expected:
        return "bad signature"
    if not isinstance(claims, dict):
        return "claims"
    iat, exp, iss = claims.get("iat"), claims.get("exp"), claims.get("iss")
    if not isinstance(iat, int) or not isinstance(exp, int):
        return "iat/exp not integers"
    current = clock if clock is not None else time.time()
    if exp - iat > 600:
        return "exp more than 600 s after iat"
    if exp <= current:
        return "expired"
    if iat > current + 60:
        return "iat in the future"
    if str(iss) not in (str(options["app_id"]), options["client_id"]):
        return "iss is neither the app ID nor its client ID"
    return None


def _jwt_checked(request, state):
    """None when the request carries a valid JWT of the app, else the 401 to answer."""
    problem = _user_agent_problem(request)
    if problem:
        return problem
    options = state.section("installations")
    token = bearer_token(request)
    reason = jwt_problem(token, options) if token else "no bearer token"
    if reason:
        request.note("installations: JWT refused: " + reason)
        state.count("installation_jwt_refused")
        return json_response(401, {"message": "A JSON web token could not be decoded", "documentation_url": DOCS})
    return None


def _installation_json(installation, options):
    return {
        "id": installation["id"], "app_id": options["app_id"], "client_id": options["client_id"],
        "app_slug": "ghlogin-test-app", "target_type": installation.get("type", "Organization"),
        "account": {"login": installation["account"], "type": installation.get("type", "Organization")},
        "permissions": installation["permissions"],
        "repository_selection": installation.get("repository_selection", "selected"),
        "access_tokens_url": "https://api.github.com/app/installations/%d/access_tokens" % installation["id"],
        "events": [], "single_file_name": None,
    }


def find(request, state, kind, name):
    """GET /repos/O/R/installation (kind "repo", name "O/R"), /orgs/O/installation, /users/U/installation."""
    state.count("installation_lookups")
    refused = _jwt_checked(request, state)
    if refused:
        return refused
    options = state.section("installations")
    for installation in options["list"]:
        account = installation["account"].lower()
        if kind == "repo":
            covered = [r.lower() for r in installation["repositories"]]
            if name.lower() in covered or (installation.get("repository_selection") == "all"
                                           and name.split("/")[0].lower() == account):
                return json_response(200, _installation_json(installation, options))
        elif kind == "orgs":
            if account == name.lower() and installation.get("type", "Organization") == "Organization":
                return json_response(200, _installation_json(installation, options))
        elif account == name.lower():
            return json_response(200, _installation_json(installation, options))
    return json_response(404, NOT_FOUND)


def access_tokens(request, state, installation_id):
    """POST /app/installations/{id}/access_tokens."""
    state.count("installation_token_requests")
    directive = state.next_directive("installation_token") or {"kind": "normal"}
    if directive["kind"] != "normal":
        return generic_directive(directive, request.server_port, request.accept)
    refused = _jwt_checked(request, state)
    if refused:
        return with_mods(refused, directive)
    options = state.section("installations")
    installation = next((i for i in options["list"] if str(i["id"]) == installation_id), None)
    if installation is None:
        return with_mods(json_response(404, NOT_FOUND), directive)
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        body = None
    if not isinstance(body, dict):
        return with_mods(json_response(400, {"message": "Problems parsing JSON", "documentation_url": DOCS}), directive)
    account = installation["account"]
    covered = [r.lower() for r in installation["repositories"]]
    names = body.get("repositories")
    if names is not None:
        if not isinstance(names, list) or not all(isinstance(n, str) and "/" not in n for n in names):
            return with_mods(json_response(422, {"message": "Invalid request.", "documentation_url": DOCS}), directive)
        full = ["%s/%s" % (account, n) for n in names]
        if any(f.lower() not in covered for f in full):
            request.note("installations: a repository the installation does not cover")
            return with_mods(json_response(422, {
                "message": "There is at least one repository that does not exist or is not accessible to the parent "
                           "installation.", "documentation_url": DOCS}), directive)
        selection = "selected"
    else:
        full = list(installation["repositories"])
        selection = installation.get("repository_selection", "selected")
    ceiling = installation["permissions"]
    asked = body.get("permissions")
    if asked is None:
        granted = dict(ceiling)
    elif not isinstance(asked, dict):
        return with_mods(json_response(422, {"message": "Invalid request.", "documentation_url": DOCS}), directive)
    else:
        for name, level in asked.items():
            if RANK.get(level, 99) > RANK.get(ceiling.get(name), 0):
                request.note("installations: %s:%s above the installation's" % (name, level))
                return with_mods(json_response(422, {
                    "message": "The permissions requested are not granted to this installation.",
                    "documentation_url": DOCS}), directive)
        granted = dict(asked)
        granted.setdefault("metadata", "read")
    granted.update(options["widen"] or {})
    listed = full + list(options["extra_repositories"] or [])
    token = "ghs_" + secrets.token_hex(18)
    lifetime = options["expires_in"]
    with state.lock:
        state.tokens[token] = {
            "access_token": token, "login": "ghlogin-test-app[bot]", "client_id": options["client_id"], "scope": "",
            "kind": "installation", "origin": "installation", "expires_at": now() + lifetime, "revoked": False,
            "code": None, "expiration_header": None, "parent": None, "installation_id": installation["id"],
            "permissions": dict(granted), "repositories": listed}
    state.count("installation_tokens")
    repos = [{"id": 1000 + i, "name": f.split("/", 1)[1], "full_name": f, "owner": {"login": f.split("/", 1)[0]},
              "private": True} for i, f in enumerate(listed)]
    answer = {
        "token": token,
        "expires_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + lifetime)),
        "permissions": granted, "repository_selection": selection, "repositories": repos,
    }
    return with_mods(json_response(201, answer), directive)


def revoke(request, state):
    """DELETE /installation/token with the installation token: 204, then it no longer works."""
    state.count("installation_revocations")
    token = bearer_token(request)
    record = state.valid_token(token) if token else None
    if record is None or record.get("kind") != "installation":
        return json_response(401, BAD_CREDENTIALS)
    state.revoke(token)
    return Response(204, [], b"")
