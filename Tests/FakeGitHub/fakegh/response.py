"""Responses and the generic response directives (those that do not depend on the endpoint)."""

import html
import json
import time

from . import wire
from .directives import error_fields

DOCS = "https://docs.github.com/rest"


class Response:
    """What a handler wants written: status, headers, body, plus wire modifiers from a directive.

    action is "send" (normal), "drop" (close without replying) or "raw" (write `raw` bytes, close)."""

    def __init__(self, status=200, headers=None, body=b"", action="send", raw=None, mods=None):
        self.status = status
        self.headers = list(headers or [])
        self.body = body
        self.action = action
        self.raw = raw
        self.mods = dict(mods or {})

    def header(self, name):
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None


def with_mods(response, directive):
    """Attaches a directive's wire modifiers (delay, framing, headers, pad_to...) to a response."""
    if directive:
        response.mods = dict(directive)
    return response


def json_response(status, obj, headers=None, ensure_ascii=True):
    return Response(status, [("Content-Type", "application/json; charset=utf-8")] + list(headers or []),
                    json.dumps(obj, separators=(",", ":"), ensure_ascii=ensure_ascii).encode("utf-8"))


def html_response(status, text):
    page = "<!DOCTYPE html><html><head><title>%s</title></head><body><p>%s</p></body></html>" % (
        status, html.escape(text))
    return Response(status, [("Content-Type", "text/html; charset=utf-8")], page.encode("utf-8"))


def redirect_response(location, status=302):
    page = '<html><body>You are being <a href="%s">redirected</a>.</body></html>' % html.escape(location)
    return Response(status, [("Location", location), ("Content-Type", "text/html; charset=utf-8")],
                    page.encode("utf-8"))


def oauth_fields_response(fields, accept, status=200, fmt=None):
    """A token-endpoint style body in the format chosen by Accept (or forced by `fmt`)."""
    content_type, body = wire.render_fields(fields, fmt or wire.choose_format(accept))
    return Response(status, [("Content-Type", content_type), ("Cache-Control", "no-store")], body)


def oauth_error_response(directive, accept):
    return oauth_fields_response(error_fields(directive), accept, directive.get("status", 200),
                                 directive.get("format"))


def generic_directive(directive, port, accept):
    """Renders kinds that need no endpoint logic; returns None for normal/oauth_error."""
    kind = directive["kind"]
    if kind == "drop":
        return Response(action="drop", mods=directive)
    if kind == "raw":
        return Response(action="raw", raw=directive["data"].encode("latin-1", errors="replace"), mods=directive)
    if kind == "status":
        status = directive["status"]
        if "json" in directive:
            resp = json_response(status, directive["json"])
        else:
            text = directive.get("body", "Internal Server Error" if status >= 500 else "fake status %d" % status)
            resp = Response(status, [("Content-Type", directive.get("content_type", "text/plain; charset=utf-8"))],
                            text.encode("utf-8"))
    elif kind == "redirect":
        resp = redirect_response(directive["location"].replace("{port}", str(port)),
                                 directive.get("status", 302))
    elif kind == "html":
        resp = Response(directive.get("status", 200), [("Content-Type", "text/html; charset=utf-8")],
                        b"<html><head><title>Sign in to GitHub</title></head><body><form>"
                        b"<input name=login></form>&lt;garbage&gt; access_token=not_a_token</body></html>")
    elif kind == "rate_limited":
        reset = int(time.time()) + int(directive.get("reset_in", 2))
        resp = json_response(directive.get("status", 403), {
            "message": "API rate limit exceeded for user ID 1.",
            "documentation_url": DOCS + "/overview/resources-in-the-rest-api#rate-limiting"}, [
            ("x-ratelimit-limit", "5000"), ("x-ratelimit-remaining", "0"), ("x-ratelimit-used", "5000"),
            ("x-ratelimit-reset", str(reset)), ("x-ratelimit-resource", "core")])
    elif kind == "secondary_rate_limit":
        resp = json_response(directive.get("status", 403), {
            "message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
            "documentation_url": DOCS + "/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"},
            [("retry-after", str(directive.get("retry_after", 3)))])
    elif kind == "oauth_error":
        resp = oauth_error_response(directive, accept)
    else:
        return None
    resp.mods = directive
    return resp
