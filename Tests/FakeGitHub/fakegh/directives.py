"""Response directives: how one request to an endpoint is answered instead of normally.

A directive is a JSON object with a `kind` and optional modifiers, or a shorthand:
  "normal" / "success"          {"kind": "normal"}
  "drop"                        {"kind": "drop"}                 close the TCP connection, no reply
  "html"                        {"kind": "html"}                 200 text/html garbage
  "rate_limited"                {"kind": "rate_limited"}         403 + x-ratelimit-remaining: 0
  "secondary_rate_limit"        {"kind": "secondary_rate_limit"} 403 + retry-after
  "xml" / "json" / "form"       {"kind": "normal", "format": ...}
  "chunked", "truncated", "te_and_cl", "dup_content_length", "bare_cr_header"
                                {"kind": "normal", "framing": ...}
  "huge"                        {"kind": "normal", "pad_to": 2097152}
  an integer N                  {"kind": "status", "status": N}
  any other word                {"kind": "oauth_error", "error": word}
"""

KINDS = ("normal", "oauth_error", "status", "redirect", "drop", "raw", "html",
         "rate_limited", "secondary_rate_limit")
FRAMINGS = ("normal", "chunked", "truncated", "te_and_cl", "dup_content_length", "bare_cr_header")
FORMATS = ("json", "form", "xml")
FIELDS = {
    "kind", "sticky", "delay", "body_delay", "headers", "format", "framing", "pad_to",
    "declared", "send", "status", "body", "json", "content_type", "location", "error",
    "error_description", "error_uri", "interval", "omit_interval", "data", "reset_in",
    "retry_after", "rst", "extra",
}

ERROR_DESCRIPTIONS = {
    "incorrect_client_credentials": "The client_id and/or client_secret passed are incorrect.",
    "redirect_uri_mismatch": "The redirect_uri MUST match the registered callback URL for this application.",
    "bad_verification_code": "The code passed is incorrect or expired.",
    "unverified_user_email": "The user must have a verified primary email.",
    "bad_refresh_token": "The refresh token passed is incorrect or expired.",
    "authorization_pending": "The authorization request is still pending.",
    "slow_down": "Too many requests have been made in the same timeframe.",
    "expired_token": "The device code has expired.",
    "token_expired": "The device code has expired.",
    "unsupported_grant_type": "The grant type is not supported.",
    "incorrect_device_code": "The device_code provided is not valid.",
    "access_denied": "The user has denied your application access.",
    "device_flow_disabled": "Device flow must be explicitly enabled for this App",
    "application_suspended": "Your application has been suspended. Contact support@github.com.",
}
ERROR_URI = "https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors"


class DirectiveError(ValueError):
    """A directive that does not follow the schema."""


def normalize(value):
    """Turns a shorthand or object into a validated directive dict."""
    if isinstance(value, bool):
        raise DirectiveError("a directive cannot be a boolean")
    if isinstance(value, int):
        return {"kind": "status", "status": value}
    if isinstance(value, str):
        word = value
        if word in ("normal", "success"):
            return {"kind": "normal"}
        if word in KINDS:
            return {"kind": word}
        if word in FORMATS:
            return {"kind": "normal", "format": word}
        if word in FRAMINGS:
            return {"kind": "normal", "framing": word}
        if word == "huge":
            return {"kind": "normal", "pad_to": 2 * 1024 * 1024}
        if word and all(c.isalnum() or c == "_" for c in word):
            return {"kind": "oauth_error", "error": word}
        raise DirectiveError("unknown directive shorthand %r" % word)
    if not isinstance(value, dict):
        raise DirectiveError("a directive must be a string, an integer or an object")
    unknown = set(value) - FIELDS
    if unknown:
        raise DirectiveError("unknown directive fields %s (known: %s)"
                             % (sorted(unknown), ", ".join(sorted(FIELDS))))
    result = dict(value)
    result.setdefault("kind", "oauth_error" if "error" in value else "normal")
    if result["kind"] not in KINDS:
        raise DirectiveError("unknown directive kind %r (known: %s)" % (result["kind"], ", ".join(KINDS)))
    if result.get("framing", "normal") not in FRAMINGS:
        raise DirectiveError("unknown framing %r (known: %s)" % (result["framing"], ", ".join(FRAMINGS)))
    if result.get("format") is not None and result["format"] not in FORMATS:
        raise DirectiveError("unknown format %r (known: %s)" % (result["format"], ", ".join(FORMATS)))
    if result["kind"] == "oauth_error" and not isinstance(result.get("error"), str):
        raise DirectiveError("an oauth_error directive needs an `error` string")
    if result["kind"] == "status" and not isinstance(result.get("status"), int):
        raise DirectiveError("a status directive needs an integer `status`")
    if result["kind"] == "redirect" and not isinstance(result.get("location"), str):
        raise DirectiveError("a redirect directive needs a `location` string")
    if result["kind"] == "raw" and not isinstance(result.get("data"), str):
        raise DirectiveError("a raw directive needs a `data` string")
    return result


def error_fields(directive_or_code, description=None):
    """The ordered members of a GitHub OAuth error body."""
    if isinstance(directive_or_code, dict):
        code = directive_or_code["error"]
        description = directive_or_code.get("error_description", description)
        uri = directive_or_code.get("error_uri", ERROR_URI)
        extra = directive_or_code.get("extra") or {}
    else:
        code, uri, extra = directive_or_code, ERROR_URI, {}
    fields = {"error": code,
              "error_description": description if description is not None
              else ERROR_DESCRIPTIONS.get(code, "An error occurred (fake GitHub)."),
              "error_uri": uri}
    fields.update(extra)
    return fields
