"""The web flow: GET /login/oauth/authorize and POST /login/oauth/access_token (code and refresh
grants; the device grant is in device.py)."""

import base64
import hashlib
import hmac
import urllib.parse

from . import device, wire
from .directives import error_fields
from .response import (generic_directive, html_response, oauth_error_response, oauth_fields_response,
                       redirect_response, with_mods)
from .state import now

DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
KNOWN_SCOPES = set("""repo repo:status repo_deployment public_repo repo:invite security_events
admin:repo_hook write:repo_hook read:repo_hook admin:org write:org read:org admin:public_key
write:public_key read:public_key admin:org_hook gist notifications user read:user user:email
user:follow project read:project delete_repo write:packages read:packages delete:packages
admin:gpg_key write:gpg_key read:gpg_key codespace workflow admin:enterprise
manage_runners:enterprise manage_billing:enterprise read:enterprise audit_log read:audit_log
admin:ssh_signing_key write:ssh_signing_key read:ssh_signing_key copilot write:discussion
read:discussion""".split())
UNRESERVED = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
B64URL = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def parse_scopes(text):
    """Space-delimited scopes as GitHub reads them; unknown names are dropped (and reported)."""
    granted, ignored = [], []
    for name in (text or "").split(" "):
        if name == "":
            continue
        target = granted if name in KNOWN_SCOPES else ignored
        if name not in target:
            target.append(name)
    return granted, ignored


def s256(verifier):
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def redirect_allowed(app, uri):
    """GitHub's OAuth-app rule: same scheme and host as the registered callback; the port may
    differ only for loopback hosts; the path is the callback path or below it."""
    try:
        reg = urllib.parse.urlsplit(app["callback_url"])
        got = urllib.parse.urlsplit(uri)
        got_port, reg_port = got.port, reg.port
    except ValueError:
        return False
    if "#" in uri or got.username is not None or got.password is not None:
        return False
    if got.scheme != reg.scheme or got.hostname != reg.hostname:
        return False
    if reg.hostname not in ("127.0.0.1", "::1") and got_port != reg_port:
        return False
    segments = got.path.split("/")
    if "." in segments or ".." in segments or "%" in got.path:
        return False
    base = reg.path.rstrip("/")
    return got.path == reg.path or got.path.startswith(base + "/")


def with_params(uri, pairs):
    query = urllib.parse.urlencode(pairs, quote_via=urllib.parse.quote)
    return uri + ("&" if "?" in uri else "?") + query


def authorize(request, state):
    if request.method not in ("GET", "HEAD"):
        return html_response(404, "Not Found")
    state.count("authorize_requests")
    try:
        params = wire.single_valued(wire.parse_pairs(request.query))
    except wire.WireError as error:
        request.note("authorize: %s" % error)
        return html_response(400, "Bad request: %s" % error)
    directive = state.next_directive("authorize") or {"kind": "normal"}
    if directive["kind"] not in ("normal", "oauth_error"):
        return generic_directive(directive, request.server_port, request.accept)
    opts = state.section("authorize")
    with state.lock:
        app = state.apps.get(params.get("client_id", ""))
    if app is None:
        request.note("authorize: unknown client_id")
        return html_response(404, "Not Found (unknown client_id)")
    sent_redirect = params.get("redirect_uri")
    if sent_redirect is not None and not redirect_allowed(app, sent_redirect):
        request.note("authorize: redirect_uri %r not allowed for %s" % (sent_redirect, app["callback_url"]))
        pairs = [(k, v) for k, v in error_fields("redirect_uri_mismatch").items()]
        if "state" in params:
            pairs.append(("state", params["state"]))
        return redirect_response(with_params(app["callback_url"], pairs))
    target = sent_redirect if sent_redirect is not None else app["callback_url"]
    refusal = _response_type_refusal(params.get("response_type"), opts["require_response_type"])
    if refusal is not None:
        request.note("authorize: " + refusal[1])
        pairs = [("error", refusal[0]), ("error_description", refusal[1])]
        if "state" in params:
            pairs.append(("state", params["state"]))
        return redirect_response(with_params(target, pairs))
    challenge = params.get("code_challenge")
    method = params.get("code_challenge_method")
    if challenge is None and method is not None:
        return _bad(request, "code_challenge_method without code_challenge")
    if challenge is not None:
        if method != "S256":
            return _bad(request, "code_challenge_method must be S256 (got %r)" % method)
        if len(challenge) != 43 or not set(challenge) <= B64URL:
            return _bad(request, "code_challenge is not a 43-character base64url SHA-256")
    elif opts["require_pkce"]:
        return _bad(request, "PKCE is required by this fake (script authorize.require_pkce)")
    if "state" not in params and opts["require_state"]:
        return _bad(request, "state is required by this fake (script authorize.require_state)")
    if directive["kind"] == "oauth_error" or opts["deny"]:
        if directive["kind"] != "oauth_error":
            directive = {"kind": "oauth_error", "error": "access_denied"}
        pairs = list(error_fields(directive).items())
        if "state" in params:
            pairs.append(("state", params["state"]))
        return with_mods(redirect_response(with_params(target, pairs)), directive)
    scopes, ignored = parse_scopes(params.get("scope"))
    if ignored:
        request.note("authorize: unknown scopes ignored: %s" % ignored)
    login = opts["user"] or params.get("login")
    with state.lock:
        if login not in state.users:
            login = "octocat" if opts["user"] is None else login
        if login not in state.users:
            return html_response(500, "script authorize.user names an unknown user %r" % login)
        code = state.new_code()
        state.codes[code] = {
            "code": code, "client_id": app["client_id"], "redirect_uri": sent_redirect,
            "challenge": challenge, "scopes": scopes, "ignored_scopes": ignored, "login": login,
            "state": params.get("state"), "issued_at": now(), "used": False, "access_token": None}
    pairs = [("code", code)]
    if "state" in params:
        pairs.append(("state", params["state"]))
    return with_mods(redirect_response(with_params(target, pairs)), directive)


def _response_type_refusal(response_type, required):
    """(error, description) for a response_type a standard server refuses (RFC 6749 4.1.2.1), or None.

    GitHub tolerates a missing response_type; a standard server (script
    authorize.require_response_type, on by default) answers invalid_request."""
    if response_type is None:
        return ("invalid_request", "Missing response_type parameter.") if required else None
    if response_type != "code":
        return ("unsupported_response_type", "Unsupported response_type %r." % response_type)
    return None


def _bad(request, text):
    request.note("authorize: " + text)
    return html_response(400, "Bad request: " + text)


def token_endpoint(request, state):
    if request.method != "POST":
        return html_response(404, "Not Found")
    state.count("token_endpoint_requests")
    accept = request.accept
    if request.query:
        return _invalid(request, accept, "parameters must be in the POST body, not in the URL query")
    content_type = (request.header("Content-Type") or "").lower()
    if not content_type.startswith("application/x-www-form-urlencoded"):
        return _invalid(request, accept, "Content-Type must be application/x-www-form-urlencoded")
    try:
        params = wire.single_valued(wire.parse_pairs(request.body.decode("latin-1")))
    except wire.WireError as error:
        return _invalid(request, accept, str(error))
    if request.header("Authorization"):
        request.note("token: an Authorization header was sent to the token endpoint")
    grant = params.get("grant_type")
    if grant in (None, "authorization_code"):
        return code_grant(request, state, params)
    if grant == DEVICE_GRANT:
        return device.poll(request, state, params)
    if grant == "refresh_token":
        return refresh_grant(request, state, params)
    request.note("token: unsupported grant_type %r" % grant)
    return oauth_error_response({"error": "unsupported_grant_type"}, accept)


def _invalid(request, accept, text):
    request.note("token: " + text)
    return oauth_error_response({"error": "invalid_request", "status": 400,
                                 "error_description": "fake GitHub (strict): " + text}, accept)


def client_problem(state, params, secret_required):
    """None when client_id (and the secret, when required and the app has one) are right."""
    app = state.apps.get(params.get("client_id", ""))
    if app is None:
        return "unknown client_id"
    sent = params.get("client_secret")
    if app["client_secret"] is None:
        return "client_secret sent, but the app has none" if sent is not None else None
    if sent is None:
        return "client_secret missing" if secret_required else None
    if not hmac.compare_digest(sent.encode("utf-8"), app["client_secret"].encode("utf-8")):
        return "client_secret wrong"
    return None


def _fail(request, accept, directive, code, why):
    request.note("token: %s -> %s" % (why, code))
    fmt = directive.get("format")
    return with_mods(oauth_fields_response(error_fields(code), accept, 200, fmt), directive)


def code_grant(request, state, params):
    accept = request.accept
    state.count("code_grant_requests")
    directive = state.next_directive("token") or {"kind": "normal"}
    if directive["kind"] != "normal":
        return generic_directive(directive, request.server_port, accept)
    with state.lock:
        problem = client_problem(state, params, True)
        if problem:
            return _fail(request, accept, directive, "incorrect_client_credentials", problem)
        record = state.codes.get(params.get("code", ""))
        if record is None or record["client_id"] != params["client_id"]:
            return _fail(request, accept, directive, "bad_verification_code", "unknown code")
        if record["used"]:
            if record["access_token"]:
                state.revoke(record["access_token"])
            return _fail(request, accept, directive, "bad_verification_code", "code already used")
        record["used"] = True
        if now() - record["issued_at"] >= state.script["code_ttl"]:
            return _fail(request, accept, directive, "bad_verification_code", "code expired")
        if record["redirect_uri"] is not None and params.get("redirect_uri") != record["redirect_uri"]:
            return _fail(request, accept, directive, "redirect_uri_mismatch",
                         "redirect_uri %r differs from %r" % (params.get("redirect_uri"), record["redirect_uri"]))
        if record["challenge"] is not None:
            verifier = params.get("code_verifier")
            if verifier is None:
                return _fail(request, accept, directive, "bad_verification_code", "code_verifier missing")
            if not 43 <= len(verifier) <= 128 or not set(verifier) <= UNRESERVED:
                return _fail(request, accept, directive, "bad_verification_code", "code_verifier malformed")
            if not hmac.compare_digest(s256(verifier), record["challenge"]):
                return _fail(request, accept, directive, "bad_verification_code", "PKCE verifier mismatch")
        fields = state.issue_token(record["client_id"], record["login"], record["scopes"], "web", record["code"])
        record["access_token"] = fields.get("access_token")
    state.count("tokens_issued")
    return with_mods(oauth_fields_response(fields, accept, directive.get("status", 200), directive.get("format")),
                     directive)


def refresh_grant(request, state, params):
    accept = request.accept
    state.count("refresh_requests")
    directive = state.next_directive("refresh") or {"kind": "normal"}
    if directive["kind"] != "normal":
        return generic_directive(directive, request.server_port, accept)
    with state.lock:
        if params.get("client_id", "") not in state.apps:
            return _fail(request, accept, directive, "incorrect_client_credentials", "unknown client_id")
        record = state.refresh_tokens.get(params.get("refresh_token", ""))
        if record is None or record["client_id"] != params["client_id"]:
            return _fail(request, accept, directive, "bad_refresh_token", "unknown refresh token")
        if record["used"]:
            if state.script["refresh_reuse_revokes"]:
                _revoke_chain(state, record)
            return _fail(request, accept, directive, "bad_refresh_token", "refresh token already used")
        if record["expires_at"] is not None and now() >= record["expires_at"]:
            return _fail(request, accept, directive, "bad_refresh_token", "refresh token expired")
        if record["origin"] == "device":
            if "client_secret" in params:
                request.note("refresh: client_secret sent for a device-flow token")
        else:
            problem = client_problem(state, params, True)
            if problem:
                return _fail(request, accept, directive, "incorrect_client_credentials", problem)
        record["used"] = True
        if record["access_token"]:
            state.revoke(record["access_token"])
        saved = state.script["token"]["expiring"]
        state.script["token"]["expiring"] = True
        try:
            fields = state.issue_token(record["client_id"], record["login"], [], "refresh:" + record["origin"])
        finally:
            state.script["token"]["expiring"] = saved
        record["successor"] = fields.get("refresh_token")
    state.count("refresh_successes")
    return with_mods(oauth_fields_response(fields, accept, directive.get("status", 200), directive.get("format")),
                     directive)


def _revoke_chain(state, record):
    """Refresh-token reuse: kill every pair that descends from the reused token (RFC 9700 4.14.2)."""
    successor = record.get("successor")
    while successor:
        nxt = state.refresh_tokens.get(successor)
        if nxt is None:
            break
        nxt["used"] = True
        if nxt["access_token"]:
            state.revoke(nxt["access_token"])
        successor = nxt.get("successor")
