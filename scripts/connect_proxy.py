#!/usr/bin/env python3
"""A CONNECT proxy on loopback, for tests: it tunnels to the host and port asked for and logs
what it saw, one JSON line per event, so that a test can check that a client went through it,
and that nothing but CONNECT reached it (a request sent through it in the clear is logged with
its headers and refused with 502).

Usage: scripts/connect_proxy.py LOG [READY_FILE]
Prints "READY <port>" on stdout once listening (and writes the port to READY_FILE); stops when
its standard input closes or on SIGTERM. Standard library only; listens on 127.0.0.1 only.
"""

import json
import select
import socket
import sys
import threading
import http.server

LOG = sys.argv[1]
lock = threading.Lock()


def log(event):
    with lock, open(LOG, "a") as f:
        f.write(json.dumps(event) + "\n")


class Proxy(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_CONNECT(self):
        host, _, port = self.path.rpartition(":")
        log({"event": "connect", "target": self.path,
             "headers": [[k, v] for k, v in self.headers.items()]})
        try:
            upstream = socket.create_connection((host, int(port)), timeout=10)
        except OSError as error:
            self.send_error(502, "cannot reach %s: %s" % (self.path, error))
            return
        self.send_response(200, "Connection established")
        self.end_headers()
        sockets = [self.connection, upstream]
        try:
            while True:
                readable, _, _ = select.select(sockets, [], [], 30)
                if not readable:
                    break
                for sock in readable:
                    data = sock.recv(65536)
                    if not data:
                        return
                    (upstream if sock is self.connection else self.connection).sendall(data)
        finally:
            upstream.close()

    def refuse(self):
        log({"event": "plain", "method": self.command, "path": self.path,
             "headers": [[k, v] for k, v in self.headers.items()]})
        self.send_error(502, "this proxy only tunnels")

    do_GET = do_POST = do_PUT = do_HEAD = refuse


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Proxy)
port = server.server_address[1]
print("READY %d" % port, flush=True)
if len(sys.argv) > 2:
    with open(sys.argv[2], "w") as f:
        f.write(str(port))
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()  # until the test closes it
