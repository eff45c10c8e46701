"""serve_tls(Handler, cert, key): the HTTPS test servers' one way to run (module_proxy.py,
registry_token_server.py): 127.0.0.1 on an ephemeral port, TLS with the tests' certificate, the
port printed on stdout as the readiness signal, served until stdin closes (the test ends)."""
import ssl, sys, threading
from http.server import ThreadingHTTPServer


def serve_tls(handler, cert, key):
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
