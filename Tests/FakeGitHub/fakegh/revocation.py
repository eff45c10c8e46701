"""An RFC 7009 token revocation endpoint, POST /login/oauth/revoke (GitHub has none: this stands for
the standard servers ghlogin's revocation_url is for).

RFC 7009 §2.1: form body `token` and optional `token_type_hint`; the client authenticates as at the
token endpoint (RFC 6749 §2.3.1): HTTP Basic (form-encoded id and secret), or `client_id` (and
`client_secret`) in the body; a public app sends only `client_id`. §2.2: 200 whether or not the
token was valid (never disclosing which); a refresh token's revocation also revokes its access token.
Errors (§2.2.1): 400 invalid_request, 401 invalid_client. The log records every request (form,
headers) as for any endpoint; `counters.rfc7009_revocations` counts tokens actually revoked."""

import base64
import binascii
import hmac
import urllib.parse

from . import wire
from .response import generic_directive, json_response


def _client(request, state, params):
    """(client_id, None) when the client authenticated, else (None, reason)."""
    values = request.headers.get_all("Authorization") or []
    if len(values) > 1:
        return None, "several Authorization headers"
    if values:
        scheme, _, encoded = values[0].partition(" ")
        if scheme.lower() != "basic":
            return None, "Authorization is not Basic"
        try:
            decoded = base64.b64decode(encoded.strip(), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            return None, "Basic credentials do not decode"
        user, sep, password = decoded.partition(":")
        if not sep:
            return None, "Basic credentials without ':'"
        client_id, secret = urllib.parse.unquote_plus(user), urllib.parse.unquote_plus(password)
        if "client_secret" in params:
            return None, "client credentials both in Basic and in the body"
    else:
        client_id, secret = params.get("client_id"), params.get("client_secret")
    with state.lock:
        app = state.apps.get(client_id or "")
    if app is None:
        return None, "unknown client_id"
    if app["client_secret"] is None:
        return (client_id, None) if secret is None else (None, "a secret was sent for a public app")
    if secret is None or not hmac.compare_digest(secret.encode(), app["client_secret"].encode()):
        return None, "wrong or missing client_secret"
    return client_id, None


def revoke(request, state):
    if request.method != "POST":
        return json_response(404, {"error": "not_found"})
    directive = state.next_directive("revoke7009") or {"kind": "normal"}
    if directive["kind"] != "normal":
        return generic_directive(directive, request.server_port, request.accept)
    if request.query:
        request.note("revoke7009: parameters in the URL query")
        return json_response(400, {"error": "invalid_request"})
    if not (request.header("Content-Type") or "").lower().startswith("application/x-www-form-urlencoded"):
        request.note("revoke7009: not a form body")
        return json_response(400, {"error": "invalid_request"})
    try:
        params = wire.single_valued(wire.parse_pairs(request.body.decode("latin-1")))
    except wire.WireError as error:
        request.note("revoke7009: %s" % error)
        return json_response(400, {"error": "invalid_request"})
    client_id, problem = _client(request, state, params)
    if problem:
        request.note("revoke7009: " + problem)
        return json_response(401, {"error": "invalid_client"}, [("WWW-Authenticate", 'Basic realm="fake"')])
    token = params.get("token")
    if not token:
        request.note("revoke7009: no token")
        return json_response(400, {"error": "invalid_request"})
    hint = params.get("token_type_hint")
    order = ("refresh", "access") if hint == "refresh_token" else ("access", "refresh")
    revoked = False
    with state.lock:
        for kind in order:
            if kind == "refresh":
                record = state.refresh_tokens.get(token)
                if record is not None and record["client_id"] == client_id and not record["used"]:
                    record["used"] = True
                    if record.get("access_token") in state.tokens:
                        state.tokens[record["access_token"]]["revoked"] = True
                    revoked = True
                    break
            else:
                record = state.tokens.get(token)
                if record is not None and record["client_id"] == client_id and not record["revoked"]:
                    record["revoked"] = True
                    revoked = True
                    break
    if revoked:
        state.count("rfc7009_revocations")
    else:
        request.note("revoke7009: token unknown, already dead or of another client (answered 200)")
    return json_response(200, {})
