#!/usr/bin/env python3
"""A scripted browser for ghlogin's end-to-end tests (Python 3 standard library only).

Usage: fake_browser.py AUTHORIZE_URL [options]

1. GETs AUTHORIZE_URL over TLS, trusting only --ca (default: $SSL_CERT_FILE). The TCP connection
   goes to --connect (default 127.0.0.1) and the URL's port; SNI and certificate checks use the
   URL's host, as a real browser would.
2. Does not follow redirects by itself: takes the 302 Location, requires it to be
   http://127.0.0.1:PORT/..., optionally tampers with it, and GETs it with a raw HTTP/1.1 request.
3. Prints one JSON object on stdout:
   {"authorize": {"status", "location", "headers", "body"},
    "callback": {"url", "request", "status", "headers", "body"} | null,   (the last delivery)
    "callbacks": [...every delivery...], "error": str | null}

Exit status: 0 when every step got an HTTP answer (whatever its status; also when the authorize
step did not redirect), 1 on a harness failure (TLS, connection, timeout), 3 when the Location is
not http://127.0.0.1:PORT/... (not followed), 2 for bad usage.
"""

import argparse
import json
import os
import socket
import ssl
import sys
import urllib.parse

USER_AGENT = "Mozilla/5.0 (X11; Linux x86_64) fake-browser/1.0"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("url", help="the authorize URL printed by ghlogin")
    p.add_argument("--ca", default=os.environ.get("SSL_CERT_FILE"), help="CA bundle to trust")
    p.add_argument("--connect", default="127.0.0.1", help="address to connect to for the authorize URL")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per network step")
    p.add_argument("--no-follow", action="store_true", help="stop after the authorize step")
    g = p.add_argument_group("tampering with the callback request")
    g.add_argument("--state", help="replace the state value")
    g.add_argument("--drop-state", action="store_true", help="remove state")
    g.add_argument("--code", help="replace the code value")
    g.add_argument("--drop-code", action="store_true", help="remove code")
    g.add_argument("--add-param", action="append", default=[], metavar="K=V",
                   help="append a raw query parameter (repeatable; not re-encoded)")
    g.add_argument("--query", help="replace the whole query string (raw)")
    g.add_argument("--path", help="replace the path (raw, e.g. /favicon.ico)")
    g.add_argument("--method", default="GET", help="request method (default GET)")
    g.add_argument("--host-header", help="Host header value (default 127.0.0.1:PORT)")
    g.add_argument("--header", action="append", default=[], metavar="'K: V'", help="extra header")
    g.add_argument("--repeat", type=int, default=1, help="deliver the callback N times")
    return p.parse_args()


def read_response(sock, timeout, limit=1 << 20):
    """Reads a whole HTTP/1.1 response (until EOF, Content-Length or last chunk)."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
        if len(data) > limit:
            break
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        raise IOError("malformed status line %r" % lines[0][:80])
    headers = [line.split(":", 1) for line in lines[1:] if ":" in line]
    headers = [[k.strip(), v.strip()] for k, v in headers]
    lookup = {k.lower(): v for k, v in headers}
    if "content-length" in lookup:
        need = int(lookup["content-length"])
        while len(body) < need:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        body = body[:need]
    elif "chunked" in lookup.get("transfer-encoding", "").lower():
        while not body.endswith(b"0\r\n\r\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        body = dechunk(body)
    else:
        while len(body) < limit:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
    return int(parts[1]), headers, body.decode("utf-8", errors="replace")


def dechunk(raw):
    out = b""
    while raw:
        size_line, _, rest = raw.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += rest[:size]
        raw = rest[size + 2:]
    return out


def get_authorize(url, args):
    split = urllib.parse.urlsplit(url)
    if split.scheme != "https" or not split.hostname:
        raise IOError("authorize URL is not https://HOST/...: %r" % url[:200])
    port = split.port or 443
    context = ssl.create_default_context(cafile=args.ca) if args.ca else ssl.create_default_context()
    raw = socket.create_connection((args.connect, port), timeout=args.timeout)
    with context.wrap_socket(raw, server_hostname=split.hostname) as tls:
        target = split.path or "/"
        if split.query:
            target += "?" + split.query
        host = split.netloc.rpartition("@")[2]
        request = ("GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: %s\r\nAccept: text/html\r\n"
                   "Connection: close\r\n\r\n" % (target, host, USER_AGENT))
        tls.sendall(request.encode("latin-1"))
        return read_response(tls, args.timeout)


def tamper(location, args):
    split = urllib.parse.urlsplit(location)
    pairs = [part.split("=", 1) if "=" in part else [part, None]
             for part in split.query.split("&") if part != ""]
    out = []
    for key, value in pairs:
        if key == "state" and (args.drop_state or args.state is not None):
            if args.drop_state:
                continue
            value = urllib.parse.quote(args.state, safe="")
        if key == "code" and (args.drop_code or args.code is not None):
            if args.drop_code:
                continue
            value = urllib.parse.quote(args.code, safe="")
        out.append(key if value is None else key + "=" + value)
    out.extend(args.add_param)
    query = args.query if args.query is not None else "&".join(out)
    path = args.path if args.path is not None else (split.path or "/")
    return path + ("?" + query if query else "")


def deliver(port, target, args):
    host_header = args.host_header or "127.0.0.1:%d" % port
    lines = ["%s %s HTTP/1.1" % (args.method, target), "Host: " + host_header, "User-Agent: " + USER_AGENT,
             "Accept: text/html", "Connection: close"] + args.header
    request = "\r\n".join(lines) + "\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=args.timeout) as sock:
        sock.sendall(request.encode("latin-1"))
        status, headers, body = read_response(sock, args.timeout)
    return {"url": "http://127.0.0.1:%d%s" % (port, target), "request": lines[0], "status": status,
            "headers": headers, "body": body}


def main():
    args = parse_args()
    result = {"authorize": None, "callback": None, "callbacks": [], "error": None}
    code = 0
    try:
        status, headers, body = get_authorize(args.url, args)
        location = next((v for k, v in headers if k.lower() == "location"), None)
        result["authorize"] = {"status": status, "location": location, "headers": headers, "body": body}
        if location is not None and not args.no_follow:
            split = urllib.parse.urlsplit(location)
            try:
                port = split.port
            except ValueError:
                port = None
            if split.scheme != "http" or split.hostname != "127.0.0.1" or port is None:
                result["error"] = "Location is not http://127.0.0.1:PORT/...; not followed"
                code = 3
            else:
                target = tamper(location, args)
                for _ in range(max(1, args.repeat)):
                    result["callbacks"].append(deliver(port, target, args))
                result["callback"] = result["callbacks"][-1]
    except (OSError, ssl.SSLError, ValueError) as error:
        result["error"] = "%s: %s" % (type(error).__name__, error)
        code = 1
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
