"""The TLS side: a threading HTTP/1.1 server whose TLS handshake runs in the connection's own
thread (so a stalled or failing handshake never blocks accept, and is logged)."""

import email.utils
import http.client
import http.server
import ipaddress
import json
import socket
import ssl
import struct
import time
import urllib.parse

from . import routes, wire
from .response import json_response
from .state import now

MAX_BODY = 1024 * 1024
IO_TIMEOUT = 10


class TLSServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, address, state, context):
        self.state = state
        self.context = context
        super().__init__(address, Handler)

    def finish_request(self, request, client_address):
        conn = self.state.new_connection(client_address)
        request.settimeout(IO_TIMEOUT)
        request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        tls = None
        try:
            tls = self.context.wrap_socket(request, server_side=True, do_handshake_on_connect=False)
            tls.do_handshake()
        except (ssl.SSLError, OSError) as error:
            with self.state.lock:
                conn["tls"] = "failed"
                conn["tls_error"] = str(error)
                conn["sni"] = getattr(tls, "fake_sni", None)
            _close(tls or request, graceful=False)
            return
        with self.state.lock:
            conn["tls"] = "ok"
            conn["sni"] = getattr(tls, "fake_sni", None)
            conn["tls_version"] = tls.version()
        handler = None
        try:
            handler = Handler(tls, client_address, self, conn)
        except (OSError, ssl.SSLError):
            pass
        _close(tls, graceful=not (handler and handler.abrupt), rst=bool(handler and handler.rst))

    def shutdown_request(self, request):
        try:
            request.close()
        except OSError:
            pass

    def handle_error(self, request, client_address):
        pass


def _close(sock, graceful, rst=False):
    try:
        if rst:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        elif graceful and isinstance(sock, ssl.SSLSocket):
            sock.settimeout(1)
            sock.unwrap()  # sends close_notify
    except (OSError, ssl.SSLError, ValueError):
        pass
    try:
        sock.close()
    except OSError:
        pass


class Request:
    """One parsed request as the endpoint handlers see it."""

    def __init__(self, method, target, headers, body, entry, conn, server_port):
        self.method = method
        self.target = target
        split = urllib.parse.urlsplit(target)
        self.path = split.path
        self.query = split.query
        self.headers = headers
        self.body = body
        self.entry = entry
        self.sni = conn.get("sni")
        self.server_port = server_port
        self.host_name, self.host_port = _split_host(headers.get("Host"))

    def header(self, name):
        return self.headers.get(name)

    @property
    def accept(self):
        return ", ".join(self.headers.get_all("Accept") or [])

    def note(self, text):
        self.entry.setdefault("notes", []).append(text)


def _split_host(value):
    if value is None:
        return None, None
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        name, rest = value[1:end], value[end + 1:]
    else:
        name, _, port = value.rpartition(":")
        if not name:
            return value, None
        rest = ":" + port
    if rest.startswith(":") and rest[1:].isdigit():
        return name, int(rest[1:])
    return name, None if rest == "" else -1


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "GitHub.com"
    sys_version = ""
    timeout = IO_TIMEOUT

    def __init__(self, sock, address, server, conn):
        self.conn = conn
        self.abrupt = False
        self.rst = False
        super().__init__(sock, address, server)

    def log_message(self, *args):
        pass

    def handle_one_request(self):
        try:
            self.raw_requestline = self.rfile.readline(65537)
        except (TimeoutError, OSError, ssl.SSLError):
            self.close_connection = True
            return
        if not self.raw_requestline:
            self.close_connection = True
            return
        state = self.server.state
        with state.lock:
            self.conn["requests"] += 1
        if len(self.raw_requestline) > 65536 or not self.parse_request():
            state.add_log({"type": "request", "conn": self.conn["conn"], "time": now(),
                           "malformed": self.raw_requestline[:200].decode("latin-1"), "status": 400})
            self.close_connection = True
            return
        entry = {"type": "request", "conn": self.conn["conn"], "time": now(), "method": self.command,
                 "target": self.path, "headers": _header_map(self.headers),
                 "header_list": [[k, v] for k, v in self.headers.items()], "sni": self.conn.get("sni")}
        try:
            body, problem = self._read_body()
        except (TimeoutError, OSError, ssl.SSLError) as error:
            entry["notes"] = ["body read failed: %s" % error]
            state.add_log(entry)
            self.close_connection = True
            return
        entry["body"] = body.decode("utf-8", errors="replace")
        entry["body_bytes"] = len(body)
        request = Request(self.command, self.path, self.headers, body, entry, self.conn, self.server.server_port)
        entry.update({"path": request.path, "query": request.query, "host": self.headers.get("Host")})
        _add_parsed(entry, request)
        state.add_log(entry)
        if problem:
            request.note(problem)
            response = json_response(400, {"message": problem})
            self.close_connection = True
        else:
            response = self._checked_route(request)
        self._write(response, request)

    def _read_body(self):
        lengths = self.headers.get_all("Content-Length") or []
        chunked = "chunked" in (self.headers.get("Transfer-Encoding") or "").lower()
        if lengths and chunked:
            return b"", "request has both Content-Length and Transfer-Encoding"
        if len(lengths) > 1:
            return b"", "request has more than one Content-Length"
        if chunked:
            return self._read_chunked()
        if not lengths:
            return b"", None
        if not lengths[0].strip().isdigit():
            return b"", "invalid Content-Length"
        length = int(lengths[0])
        if length > MAX_BODY:
            return b"", "request body too large"
        return self.rfile.read(length), None

    def _read_chunked(self):
        body = b""
        while True:
            size_line = self.rfile.readline(1024).split(b";")[0].strip()
            try:
                size = int(size_line, 16)
            except ValueError:
                return body, "invalid chunk size"
            if size == 0:
                while self.rfile.readline(1024) not in (b"\r\n", b"\n", b""):
                    pass
                return body, None
            body += self.rfile.read(size)
            self.rfile.readline(8)
            if len(body) > MAX_BODY:
                return body, "request body too large"

    def _checked_route(self, request):
        state = self.server.state
        if state.setting("strict_hosts"):
            problem = _host_problem(request)
            if problem:
                request.note(problem)
                status = 421 if "SNI" in problem else 400
                return json_response(status, {"message": problem})
        return routes.dispatch(request, state)

    def _write(self, response, request):
        mods = response.mods
        entry = request.entry
        if response.action == "drop":
            entry.update({"status": None, "response": "dropped"})
            self.abrupt, self.rst, self.close_connection = True, bool(mods.get("rst")), True
            _sleep(mods.get("delay"))
            return
        if response.action == "raw":
            entry.update({"status": None, "response": "raw"})
            _sleep(mods.get("delay"))
            self._send(response.raw)
            self.abrupt, self.close_connection = True, True
            return
        for name, value in (mods.get("headers") or {}).items():
            response.headers.append((name, str(value)))
        body = response.body
        if mods.get("pad_to"):
            body = wire.pad_body(response.header("Content-Type") or "", body, int(mods["pad_to"]))
        framing = mods.get("framing", "normal")
        if request.header("Connection") and request.header("Connection").lower() == "close":
            self.close_connection = True
        if framing != "normal" and framing != "chunked":
            self.close_connection = True
        head = ["HTTP/1.1 %d %s" % (response.status, http.client.responses.get(response.status, "Status")),
                "Date: " + email.utils.formatdate(usegmt=True), "Server: GitHub.com"]
        head += ["%s: %s" % (k, v) for k, v in response.headers]
        send_body = b"" if self.command == "HEAD" or response.status in (204, 304) else body
        if framing == "chunked":
            head.append("Transfer-Encoding: chunked")
            send_body = _chunk(send_body)
        elif framing == "te_and_cl":
            head += ["Transfer-Encoding: chunked", "Content-Length: %d" % len(body)]
            send_body = _chunk(send_body)
        elif framing == "dup_content_length":
            head += ["Content-Length: %d" % len(body), "Content-Length: %d" % (len(body) + 10)]
        elif framing == "bare_cr_header":
            head += ["Content-Length: %d" % len(body), "X-Fake-Note: first\rInjected: second"]
        elif framing == "truncated":
            head.append("Content-Length: %d" % int(mods.get("declared", 500)))
            send_body = send_body[:int(mods.get("send", 100))]
            self.abrupt = True
        elif response.status != 204 and response.status != 304:
            head.append("Content-Length: %d" % len(body))
        if self.close_connection:
            head.append("Connection: close")
        entry.update({"status": response.status, "response_headers": [list(h) for h in response.headers],
                      "response_body": body[:65536].decode("utf-8", errors="replace"), "framing": framing})
        _sleep(mods.get("delay"))
        head_bytes = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1")
        if mods.get("body_delay"):
            self._send(head_bytes)
            _sleep(mods.get("body_delay"))
            self._send(send_body)
        else:
            self._send(head_bytes + send_body)  # one write: no Nagle/delayed-ACK stall

    def _send(self, data):
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except (OSError, ssl.SSLError):
            self.close_connection = True
            self.abrupt = True


def _sleep(seconds):
    if seconds:
        time.sleep(float(seconds))


def _chunk(body):
    out = b""
    for i in range(0, len(body), 16384):
        piece = body[i:i + 16384]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


def _header_map(headers):
    result = {}
    for key, value in headers.items():
        result.setdefault(key.lower(), []).append(value)
    return result


def _add_parsed(entry, request):
    try:
        entry["query_params"] = wire.multi_valued(wire.parse_pairs(request.query))
    except wire.WireError as error:
        entry["query_params"] = None
        entry.setdefault("notes", []).append("query: %s" % error)
    content_type = (request.header("Content-Type") or "").lower()
    entry["form"] = None
    entry["json"] = None
    if content_type.startswith("application/x-www-form-urlencoded"):
        try:
            entry["form"] = wire.multi_valued(wire.parse_pairs(request.body.decode("latin-1")))
        except wire.WireError as error:
            entry.setdefault("notes", []).append("form: %s" % error)
    elif content_type.startswith("application/json") and request.body:
        try:
            entry["json"] = json.loads(request.body)
        except ValueError as error:
            entry.setdefault("notes", []).append("json: %s" % error)


def _is_ip(name):
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def _host_problem(request):
    """Strict checks: one Host header naming our port, and SNI equal to the Host name (none for IPs)."""
    hosts = request.headers.get_all("Host") or []
    if len(hosts) != 1:
        return "exactly one Host header is required (got %d)" % len(hosts)
    name, port = request.host_name, request.host_port
    if port is None:
        return "Host header %r has no port, but the server listens on %d" % (hosts[0], request.server_port)
    if port != request.server_port:
        return "Host header %r names a port other than %d" % (hosts[0], request.server_port)
    if _is_ip(name):
        if request.sni is not None:
            return "SNI %r was sent for an IP-literal host (RFC 6066 forbids it)" % request.sni
    elif request.sni is None:
        return "no SNI was sent for host %r" % name
    elif request.sni.lower() != name:
        return "SNI %r differs from the Host header %r" % (request.sni, name)
    return None
