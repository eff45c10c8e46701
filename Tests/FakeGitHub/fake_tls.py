# A TLS test server for HTTPClientTLSTests (run by TLSFixture with python3): see TLSFixture.swift.
import json, signal, socket, ssl, sys, threading

signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])

cert, key, mode, log_path = sys.argv[1:5]
lock = threading.Lock()

def log(entry):
    with lock:
        with open(log_path, "a") as f:
            f.write(json.dumps(entry) + "\n")

def context(sni):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    if mode == "tls11":
        ctx.set_ciphers("DEFAULT:@SECLEVEL=0")
        ctx.minimum_version = ssl.TLSVersion.TLSv1
        ctx.maximum_version = ssl.TLSVersion.TLSv1_1
    ctx.sni_callback = lambda sock, name, c: sni.append(name) if name is not None else None
    return ctx

def read_head(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data.decode("latin-1")

def serve_tls(conn):
    sni = []
    try:
        tls = context(sni).wrap_socket(conn, server_side=True)
    except Exception as error:
        log({"event": "handshake_failed", "sni": sni, "error": str(error)})
        conn.close()
        return
    head = read_head(tls)
    log({"event": "request", "sni": sni, "head": head, "version": tls.version()})
    path = head.split(" ")[1] if head.count(" ") >= 2 else "/"
    if path == "/truncate":
        tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n" + b"x" * 100)
        tls.shutdown(socket.SHUT_RDWR)  # TCP FIN, no close_notify
    elif path == "/until-close":
        tls.sendall(b"HTTP/1.1 200 OK\r\n\r\nbody")
        tls.shutdown(socket.SHUT_RDWR)
    elif path == "/until-close-notify":
        tls.sendall(b"HTTP/1.1 200 OK\r\n\r\nbody")
        tls.unwrap()
    else:
        tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok")
    conn.close()

def pump(source, target):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            target.sendall(data)
    except OSError:
        pass
    for sock in (source, target):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

def serve_proxy(conn, tls_port):
    head = read_head(conn)
    log({"event": "connect", "head": head})
    upstream = socket.create_connection(("127.0.0.1", tls_port))
    conn.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
    threading.Thread(target=pump, args=(conn, upstream), daemon=True).start()
    pump(upstream, conn)

def listener():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    return sock

def accept_loop(sock, handler, *args):
    while True:
        conn, _ = sock.accept()
        threading.Thread(target=handler, args=(conn, *args), daemon=True).start()

tls_sock, proxy_sock = listener(), listener()
tls_port = tls_sock.getsockname()[1]
threading.Thread(target=accept_loop, args=(proxy_sock, serve_proxy, tls_port), daemon=True).start()
print(tls_port, proxy_sock.getsockname()[1], flush=True)
accept_loop(tls_sock, serve_tls)
