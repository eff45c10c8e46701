#!/usr/bin/env python3
"""A fake GitHub (OAuth web and device flows, refresh, GET /user, revocation) over TLS, for tests.

Usage: fake_github.py --certs DIR [--cert-name server|wronghost|expired|selfsigned] [--tls-max 1.1]

Listens on 127.0.0.1 only: the TLS side on an ephemeral port and a plain-HTTP control side on
another, and prints one JSON line {"port": N, "control_port": M} on stdout. Exits on SIGTERM,
SIGINT, or when stdin reaches EOF (so it never outlives the test process that holds the pipe).
Python 3 standard library only. The control protocol is described in README.md.
"""

import argparse
import json
import os
import signal
import ssl
import sys
import threading
import warnings

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fakegh.control import ControlServer  # noqa: E402
from fakegh.server import TLSServer  # noqa: E402
from fakegh.state import State  # noqa: E402

CERT_NAMES = ("server", "wronghost", "expired", "selfsigned")


def tls_context(certs, name, tls_max):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(certs, name + ".pem"), os.path.join(certs, name + ".key"))
    if tls_max is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            context.minimum_version = ssl.TLSVersion.TLSv1
            context.maximum_version = {"1.0": ssl.TLSVersion.TLSv1, "1.1": ssl.TLSVersion.TLSv1_1,
                                       "1.2": ssl.TLSVersion.TLSv1_2}[tls_max]
        context.set_ciphers("DEFAULT:@SECLEVEL=0")

    def remember_sni(sock, server_name, _context):
        sock.fake_sni = server_name

    context.sni_callback = remember_sni
    return context


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--certs", required=True, help="directory made by make_certs.sh")
    parser.add_argument("--cert-name", default="server", choices=CERT_NAMES)
    parser.add_argument("--tls-max", choices=("1.0", "1.1", "1.2"), default=None,
                        help="highest TLS version the server speaks (for downgrade tests)")
    parser.add_argument("--no-stdin-watch", action="store_true", help="do not exit when stdin closes")
    args = parser.parse_args()

    state = State()
    tls_server = TLSServer(("127.0.0.1", 0), state, tls_context(args.certs, args.cert_name, args.tls_max))
    control = ControlServer(("127.0.0.1", 0), state)
    for server in (tls_server, control):
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True).start()

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    if not args.no_stdin_watch:
        def watch_stdin():
            try:
                while sys.stdin.buffer.read1(4096):
                    pass
            except (OSError, ValueError):
                pass
            stop.set()
        threading.Thread(target=watch_stdin, daemon=True).start()

    sys.stdout.write(json.dumps({"port": tls_server.server_port, "control_port": control.server_port}) + "\n")
    sys.stdout.flush()
    while not stop.wait(0.5):
        pass
    tls_server.shutdown()
    control.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
