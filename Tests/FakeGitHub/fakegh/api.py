"""The REST API: GET /user and the app-token revocation endpoints."""

import base64
import binascii
import hmac
import json
import time

from .response import DOCS, Response, generic_directive, json_response, with_mods

UA_MESSAGE = ("Request forbidden by administrative rules. Please make sure your request has a "
              "User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api"
              "#user-agent-required). Check https://developer.github.com for other possible causes.")
BAD_CREDENTIALS = {"message": "Bad credentials", "documentation_url": DOCS}
NOT_FOUND = {"message": "Not Found", "documentation_url": DOCS}


def _rate_headers():
    return [("x-ratelimit-limit", "5000"), ("x-ratelimit-remaining", "4999"), ("x-ratelimit-used", "1"),
            ("x-ratelimit-reset", str(int(time.time()) + 3600)), ("x-ratelimit-resource", "core"),
            ("X-GitHub-Media-Type", "github.v3; format=json")]


def _user_agent_problem(request):
    if not request.header("User-Agent"):
        request.note("api: no User-Agent")
        return Response(403, [("Content-Type", "text/plain; charset=utf-8")], UA_MESSAGE.encode("utf-8"))
    return None


def not_found(request):
    return _user_agent_problem(request) or json_response(404, NOT_FOUND)


def bearer_token(request):
    """The token from `Authorization: Bearer T` or `Authorization: token T`, else None."""
    values = request.headers.get_all("Authorization") or []
    if len(values) != 1:
        return None
    scheme, _, token = values[0].partition(" ")
    if scheme.lower() not in ("bearer", "token") or not token or " " in token:
        return None
    return token


def user(request, state):
    if request.method not in ("GET", "HEAD"):
        return json_response(404, NOT_FOUND)
    state.count("user_requests")
    problem = _user_agent_problem(request)
    if problem:
        return problem
    directive = state.next_directive("user") or {"kind": "normal"}
    if directive["kind"] != "normal":
        return generic_directive(directive, request.server_port, request.accept)
    if not request.header("Authorization"):
        return with_mods(json_response(401, {"message": "Requires authentication", "documentation_url": DOCS}),
                         directive)
    token = bearer_token(request)
    record = state.valid_token(token) if token else None
    if record is None:
        request.note("user: token unknown, revoked or expired")
        return with_mods(json_response(401, BAD_CREDENTIALS), directive)
    refused = _sso_required(state)
    if refused:
        return with_mods(refused, directive)
    with state.lock:
        account = dict(state.users[record["login"]])
        override = dict(state.script["user"]["override"])
        raw_utf8 = state.script["user"]["raw_utf8"]
    login = account["login"]
    body = {"login": login, "id": account["id"], "node_id": "MDQ6VXNlcj%d" % account["id"],
            "avatar_url": "https://avatars.github.test/u/%d?v=4" % account["id"],
            "url": "https://api.github.test/users/%s" % login, "html_url": "https://github.test/%s" % login,
            "type": "User", "site_admin": False, "name": account.get("name"), "email": account.get("email")}
    body.update({k: v for k, v in account.items() if k not in body})
    body.update(override)
    scopes = ", ".join(s for s in record["scope"].split(",") if s) if record["kind"] == "oauth" else ""
    headers = [("X-OAuth-Scopes", scopes), ("X-Accepted-OAuth-Scopes", "")] + _rate_headers()
    headers += _expiration_headers(record)
    return with_mods(json_response(200, body, headers, ensure_ascii=not raw_utf8), directive)


def _expiration_headers(record):
    """GitHub-Authentication-Token-Expiration, for a token registered with `expiration_header`."""
    value = record.get("expiration_header")
    return [("GitHub-Authentication-Token-Expiration", value)] if value else []


def _sso_required(state):
    """403 with X-GitHub-SSO: required; url=... when `orgs.sso_required_url` is set."""
    url = state.section("orgs")["sso_required_url"]
    if not url:
        return None
    return json_response(403, {"message": "Resource protected by organization SAML enforcement. You must grant "
                                          "your Personal Access token access to this organization.",
                               "documentation_url": DOCS}, [("X-GitHub-SSO", "required; url=" + url)])


def user_orgs(request, state):
    """GET /user/orgs: `orgs.list`; `orgs.unauthorized` ids are left out with X-GitHub-SSO: partial-results."""
    if request.method not in ("GET", "HEAD"):
        return json_response(404, NOT_FOUND)
    state.count("user_orgs_requests")
    problem = _user_agent_problem(request)
    if problem:
        return problem
    directive = state.next_directive("user_orgs") or {"kind": "normal"}
    if directive["kind"] != "normal":
        return generic_directive(directive, request.server_port, request.accept)
    token = bearer_token(request)
    record = state.valid_token(token) if token else None
    if record is None:
        return with_mods(json_response(401, BAD_CREDENTIALS), directive)
    refused = _sso_required(state)
    if refused:
        return with_mods(refused, directive)
    orgs = state.section("orgs")
    headers = _rate_headers() + _expiration_headers(record)
    if orgs["unauthorized"]:
        headers.append(("X-GitHub-SSO", "partial-results; organizations=" +
                        ",".join(str(i) for i in orgs["unauthorized"])))
    return with_mods(json_response(200, list(orgs["list"]), headers), directive)


def applications(request, state, path):
    """DELETE /applications/{client_id}/token and /applications/{client_id}/grant."""
    parts = path.split("/")
    if len(parts) != 4 or parts[3] not in ("token", "grant") or request.method != "DELETE":
        return not_found(request)
    client_id, what = parts[2], parts[3]
    state.count("revoke_requests")
    problem = _user_agent_problem(request)
    if problem:
        return problem
    directive = state.next_directive("revoke") or {"kind": "normal"}
    if directive["kind"] != "normal":
        return generic_directive(directive, request.server_port, request.accept)
    with state.lock:
        app = state.apps.get(client_id)
        if app is None or app["client_secret"] is None or not _basic_ok(request, client_id, app["client_secret"]):
            request.note("revoke: bad or missing Basic client credentials")
            return with_mods(json_response(401, BAD_CREDENTIALS), directive)
    try:
        body = json.loads(request.body or b"null")
    except ValueError:
        body = None
    if not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
        request.note("revoke: body is not {\"access_token\": ...}")
        return with_mods(json_response(422, {"message": "Invalid request.\n\n\"access_token\" wasn't supplied.",
                                             "documentation_url": DOCS}), directive)
    with state.lock:
        record = state.valid_token(body["access_token"])
        if record is None or record["client_id"] != client_id:
            request.note("revoke: token unknown, revoked, expired or of another app")
            return with_mods(json_response(404, NOT_FOUND), directive)
        if what == "token":
            state.revoke(record["access_token"])
        else:
            for other in state.tokens.values():
                if other["login"] == record["login"] and other["client_id"] == client_id:
                    other["revoked"] = True
        for rt in state.refresh_tokens.values():
            if rt["access_token"] == record["access_token"] or what == "grant" and rt["login"] == record["login"]:
                rt["used"] = True
    state.count("revocations")
    return with_mods(Response(204, []), directive)


def _basic_ok(request, client_id, secret):
    values = request.headers.get_all("Authorization") or []
    if len(values) != 1:
        return False
    scheme, _, encoded = values[0].partition(" ")
    if scheme.lower() != "basic":
        return False
    try:
        decoded = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return False
    user, sep, password = decoded.partition(":")
    return bool(sep) and user == client_id and hmac.compare_digest(password.encode(), secret.encode())
