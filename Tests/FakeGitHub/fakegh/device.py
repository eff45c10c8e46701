"""The device flow (RFC 8628 as GitHub runs it): POST /login/device/code and device-grant polls."""

from . import wire
from .directives import error_fields
from .response import generic_directive, html_response, oauth_error_response, oauth_fields_response, with_mods
from .state import now

DEFAULT_INTERVAL = 5
TERMINAL = ("access_denied", "expired_token", "token_expired")


def device_code(request, state):
    if request.method != "POST":
        return html_response(404, "Not Found")
    accept = request.accept
    state.count("device_code_requests")
    if request.query:
        request.note("device_code: parameters in the URL query")
        return oauth_error_response({"error": "invalid_request", "status": 400,
                                     "error_description": "fake GitHub (strict): parameters must be in the POST body"},
                                    accept)
    if not (request.header("Content-Type") or "").lower().startswith("application/x-www-form-urlencoded"):
        request.note("device_code: Content-Type is not form-encoded")
        return oauth_error_response({"error": "invalid_request", "status": 400,
                                     "error_description": "fake GitHub (strict): form-encoded body required"},
                                    accept)
    try:
        params = wire.single_valued(wire.parse_pairs(request.body.decode("latin-1")))
    except wire.WireError as error:
        request.note("device_code: %s" % error)
        return oauth_error_response({"error": "invalid_request", "status": 400,
                                     "error_description": str(error)}, accept)
    directive = state.next_directive("device_code") or {"kind": "normal"}
    if directive["kind"] != "normal":
        return generic_directive(directive, request.server_port, accept)
    if "client_secret" in params:
        request.note("device_code: client_secret was sent (not needed for the device flow)")
    from .oauth import parse_scopes
    opts = state.section("device")
    with state.lock:
        if params.get("client_id", "") not in state.apps:
            request.note("device_code: unknown client_id")
            return with_mods(oauth_fields_response(error_fields("incorrect_client_credentials"), accept), directive)
        scopes, ignored = parse_scopes(params.get("scope"))
        code, user_code = state.new_device_code()
        interval = opts["interval"]
        t = now()
        state.device[code] = {
            "device_code": code, "user_code": user_code, "client_id": params["client_id"],
            "scopes": scopes, "ignored_scopes": ignored, "login": opts["user"],
            "issued_at": t, "expires_at": t + opts["expires_in"],
            "interval": interval if isinstance(interval, (int, float)) else DEFAULT_INTERVAL,
            "last_at": t, "status": "pending", "polls": []}
    fields = {"device_code": code, "user_code": user_code, "verification_uri": opts["verification_uri"],
              "expires_in": opts["expires_in"]}
    if interval is not None:
        fields["interval"] = interval
    return with_mods(oauth_fields_response(fields, accept, directive.get("status", 200), directive.get("format")),
                     directive)


def poll(request, state, params):
    """A device-grant poll on the token endpoint."""
    accept = request.accept
    arrived = now()
    state.count("device_polls")
    with state.lock:
        session = state.device.get(params.get("device_code", ""))
        record = {"time": arrived, "client_secret_sent": "client_secret" in params, "answer": None}
        if session is not None:
            session["polls"].append(record)
        if "client_secret" in params:
            request.note("device poll: client_secret was sent")
        answer = _precheck(state, params, session, arrived)
        directive = None
        if answer is None:
            directive = state.next_directive("device_poll") or {"kind": "normal"}
        if directive is not None and directive["kind"] == "oauth_error":
            answer = dict(directive)
        if answer is not None:
            record["answer"] = answer["error"]
            return _error(state, session, answer, accept, arrived)
        if directive["kind"] != "normal":
            record["answer"] = directive["kind"]
            if session is not None:
                session["last_at"] = arrived
            return generic_directive(directive, request.server_port, accept)
        session["status"] = "done"
        session["last_at"] = arrived
        record["answer"] = "success"
        fields = state.issue_token(session["client_id"], session["login"], session["scopes"], "device")
    state.count("tokens_issued")
    return with_mods(oauth_fields_response(fields, accept, directive.get("status", 200), directive.get("format")),
                     directive)


def _precheck(state, params, session, arrived):
    """GitHub's own answers, before any scripted one: identity, terminal states, expiry, pacing."""
    if params.get("client_id", "") not in state.apps:
        return {"error": "incorrect_client_credentials"}
    if session is None or session["client_id"] != params["client_id"]:
        return {"error": "incorrect_device_code"}
    if session["status"] == "done":
        return {"error": "incorrect_device_code", "error_description": "The device code was already used."}
    if session["status"] in TERMINAL:
        return {"error": session["status"]}
    if arrived >= session["expires_at"]:
        session["status"] = "expired_token"
        return {"error": "expired_token"}
    opts = state.script["device"]
    if opts["enforce_interval"] and arrived - session["last_at"] < session["interval"] - opts["pacing_tolerance"]:
        session["too_early"] = session.get("too_early", 0) + 1
        state.counters["device_polls_too_early"] = state.counters.get("device_polls_too_early", 0) + 1
        return {"error": "slow_down", "paced": True}
    return None


def _error(state, session, answer, accept, arrived):
    code = answer["error"]
    if session is not None:
        session["last_at"] = arrived
        if code == "slow_down":
            if isinstance(answer.get("interval"), (int, float)):
                session["interval"] = answer["interval"]
            else:
                session["interval"] = session["interval"] + 5
            if not answer.get("omit_interval"):
                answer = dict(answer, extra=dict(answer.get("extra") or {}, interval=session["interval"]))
        elif code in TERMINAL and not answer.get("paced"):
            session["status"] = code
    answer.pop("paced", None)
    return with_mods(oauth_error_response(dict(answer, kind="oauth_error"), accept), answer)

