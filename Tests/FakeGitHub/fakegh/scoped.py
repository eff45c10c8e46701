"""POST /applications/{client_id}/token/scoped ("Create a scoped access token", apps/scope-token)
and GET /installation/repositories for the tokens it mints.

As GitHub documents it: HTTP Basic with the GitHub App's client ID and secret; a JSON body of
`access_token` (a user token of that app), `target` (the owner), `repositories` (names) and an
optional `permissions` object; 404 for a token the app did not issue (or an OAuth app token);
422 for permissions above what the user token may do or repositories it cannot see. The answer
is an authorization object whose `installation` holds the granted `permissions` (plus
`metadata: read`), `repository_selection: "selected"` and a `repositories_url`.

The `scoped` script section says what the user token may do (`user_permissions`, `repositories`)
and holds the test hooks: `widen` (permissions merged over the grant: an answer wider than asked)
and `repositories_url_origin` (an origin other than the API's for `repositories_url`)."""

import json
import secrets
import time

from .api import BAD_CREDENTIALS, NOT_FOUND, _basic_ok, _user_agent_problem, bearer_token
from .response import DOCS, generic_directive, json_response, with_mods
from .state import now

RANK = {"read": 1, "write": 2, "admin": 3}


def scoped_token(request, state, client_id, api_prefix):
    state.count("scoped_requests")
    problem = _user_agent_problem(request)
    if problem:
        return problem
    directive = state.next_directive("scoped") or {"kind": "normal"}
    if directive["kind"] != "normal":
        return generic_directive(directive, request.server_port, request.accept)
    with state.lock:
        app = state.apps.get(client_id)
        if app is None or app["client_secret"] is None or not _basic_ok(request, client_id, app["client_secret"]):
            request.note("scoped: bad or missing Basic client credentials")
            return with_mods(json_response(401, BAD_CREDENTIALS), directive)
    try:
        body = json.loads(request.body or b"null")
    except ValueError:
        body = None
    if not isinstance(body, dict) or not isinstance(body.get("access_token"), str):
        return with_mods(json_response(422, {"message": "Invalid request.\n\n\"access_token\" wasn't supplied.",
                                             "documentation_url": DOCS}), directive)
    options = state.section("scoped")
    with state.lock:
        parent = state.valid_token(body["access_token"])
        # Only a GitHub App's user token of this app can be narrowed (an OAuth app's cannot).
        if parent is None or parent["client_id"] != client_id or parent.get("kind") not in ("app", "user"):
            request.note("scoped: token unknown, revoked, expired, of another app, or not a user token")
            return with_mods(json_response(404, NOT_FOUND), directive)
    target = body.get("target")
    names = body.get("repositories") or []
    visible = {r.lower() for r in options["repositories"]}
    if not isinstance(target, str) or not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return with_mods(json_response(422, {"message": "Invalid request.", "documentation_url": DOCS}), directive)
    full = ["%s/%s" % (target, n) for n in names]
    if any(f.lower() not in visible for f in full):
        request.note("scoped: a repository the user token cannot see")
        return with_mods(json_response(422, {
            "message": "There is at least one repository that does not exist or is not accessible to the parent "
                       "installation.", "documentation_url": DOCS}), directive)
    ceiling = options["user_permissions"]
    asked = body.get("permissions")
    if asked is None:
        granted = dict(ceiling)
    elif not isinstance(asked, dict):
        return with_mods(json_response(422, {"message": "Invalid request.", "documentation_url": DOCS}), directive)
    else:
        for name, level in asked.items():
            if RANK.get(level, 99) > RANK.get(ceiling.get(name), 0):
                request.note("scoped: %s:%s above what the user token may do" % (name, level))
                return with_mods(json_response(422, {
                    "message": "The permissions requested are not granted to this installation.",
                    "documentation_url": DOCS}), directive)
        granted = dict(asked)
    granted.setdefault("metadata", "read")
    granted.update(options["widen"] or {})
    token = "ghu_" + secrets.token_hex(18)
    lifetime = options["expires_in"]
    with state.lock:
        state.tokens[token] = {
            "access_token": token, "login": parent["login"], "client_id": client_id, "scope": "",
            "kind": "scoped", "origin": "scoped", "expires_at": now() + lifetime, "revoked": False,
            "code": None, "expiration_header": None, "parent": parent["access_token"],
            "permissions": dict(granted), "repositories": full}
    state.count("scoped_tokens")
    origin = options["repositories_url_origin"] or ("https://" + (request.header("Host") or ""))
    user = state.users.get(parent["login"], {})
    answer = {
        "id": 1, "url": "https://api.github.com/authorizations/1", "scopes": [], "token": token,
        "token_last_eight": token[-8:], "hashed_token": None,
        "app": {"client_id": client_id, "name": "ghlogin test app", "url": "https://github.test/apps/test"},
        "note": None, "note_url": None, "fingerprint": None,
        "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "updated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "expires_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + lifetime)),
        "user": {"login": user.get("login"), "id": user.get("id"), "type": "User"},
        "installation": {
            "permissions": granted, "repository_selection": "selected",
            "single_file_name": None, "has_multiple_single_files": False, "single_file_paths": [],
            "repositories_url": origin + api_prefix + "/installation/repositories",
            "account": {"login": target, "type": "User"},
        },
    }
    return with_mods(json_response(200, answer), directive)


def installation_repositories(request, state, api_prefix):
    """GET /installation/repositories with a scoped token: its repositories, `per_page` (30) a page,
    with a Link header to the next page."""
    token = bearer_token(request)
    record = state.valid_token(token) if token else None
    if record is None or record.get("kind") != "scoped":
        return json_response(401, BAD_CREDENTIALS)
    params = dict(p.split("=", 1) for p in (request.query or "").split("&") if "=" in p)
    try:
        per_page = max(1, min(100, int(params.get("per_page", "30"))))
        page = max(1, int(params.get("page", "1")))
    except ValueError:
        return json_response(422, {"message": "Invalid request.", "documentation_url": DOCS})
    full = record["repositories"]
    chunk = full[(page - 1) * per_page:page * per_page]
    headers = []
    if page * per_page < len(full):
        base = "https://" + (request.header("Host") or "") + api_prefix + "/installation/repositories"
        headers.append(("Link", '<%s?per_page=%d&page=%d>; rel="next"' % (base, per_page, page + 1)))
    repos = [{"name": f.split("/", 1)[1], "full_name": f, "owner": {"login": f.split("/", 1)[0]}} for f in chunk]
    return json_response(200, {"total_count": len(full), "repositories": repos}, headers)
