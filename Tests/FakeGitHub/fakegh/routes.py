"""Routing: which endpoint a request reaches, by path and (in strict mode) by host.

Web endpoints (/login/...) live on every host except api.*; the API lives at the root of api.*
hosts and under /api/v3 on the others (GitHub Enterprise style)."""

from . import api, device, installations, oauth, revocation, scoped
from .response import html_response, json_response

NOT_FOUND = {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}


def dispatch(request, state):
    strict = state.setting("strict_hosts")
    host = request.host_name or ""
    api_host = host.startswith("api.")
    path = request.path
    web_allowed = not (strict and api_host)
    if path.startswith("/api/v3/") or path == "/api/v3":
        if strict and api_host:
            return json_response(404, NOT_FOUND)
        return _api(request, state, path[len("/api/v3"):], "/api/v3")
    if path.startswith("/login/"):
        if not web_allowed:
            return json_response(404, NOT_FOUND)
        return _web(request, state, path)
    if strict and not api_host:
        return html_response(404, "Not Found (fake GitHub: the REST API is at api.HOST or HOST/api/v3)")
    return _api(request, state, path)


def _web(request, state, path):
    if path == "/login/oauth/authorize":
        return oauth.authorize(request, state)
    if path == "/login/oauth/access_token":
        return oauth.token_endpoint(request, state)
    if path == "/login/oauth/revoke":
        return revocation.revoke(request, state)
    if path == "/login/device/code":
        return device.device_code(request, state)
    if path == "/login/device":
        return html_response(200, "Device activation (fake GitHub). Enter the code shown by your device.")
    return html_response(404, "Not Found")


def _api(request, state, path, prefix=""):
    parts = path.split("/")
    if len(parts) == 5 and parts[1] == "applications" and parts[3:] == ["token", "scoped"] \
            and request.method == "POST":
        return scoped.scoped_token(request, state, parts[2], prefix)
    if len(parts) == 5 and parts[1] == "repos" and parts[4] == "installation" and request.method == "GET":
        return installations.find(request, state, "repo", parts[2] + "/" + parts[3])
    if len(parts) == 4 and parts[1] in ("orgs", "users") and parts[3] == "installation" and request.method == "GET":
        return installations.find(request, state, parts[1], parts[2])
    if len(parts) == 5 and parts[1:3] == ["app", "installations"] and parts[4] == "access_tokens" \
            and request.method == "POST":
        return installations.access_tokens(request, state, parts[3])
    if path == "/installation/token" and request.method == "DELETE":
        return installations.revoke(request, state)
    if path == "/installation/repositories" and request.method == "GET":
        return scoped.installation_repositories(request, state, prefix)
    if path == "/user":
        return api.user(request, state)
    if path == "/user/orgs":
        return api.user_orgs(request, state)
    if path.startswith("/applications/"):
        return api.applications(request, state, path)
    return api.not_found(request)
