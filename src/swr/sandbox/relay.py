"""Inside a networked agent's sandbox (its own network namespace): 127.0.0.1:PORT forwarded to the run's
egress socket, where the host-side proxy (egress.py) decides what may leave. Standard library only, so
it runs in any image with swr inside; the agent may kill it, and then it simply has no network."""

from __future__ import annotations

import os
import selectors
import socket
import sys
import threading

RELAY_PORT = 3128  # in the sandbox's own network namespace: nothing else listens there
MAX_CONNECTIONS = 64
CHUNK = 1 << 16


def pump(a: socket.socket, b: socket.socket, idle_s: float) -> None:
    """Copy bytes both ways until both sides are done, one errs, or nothing moves for idle_s."""
    peer = {a: b, b: a}
    for s in (a, b):
        s.settimeout(idle_s)  # bounds a blocked sendall too
    with selectors.DefaultSelector() as sel:
        for s in (a, b):
            sel.register(s, selectors.EVENT_READ)
        while sel.get_map():
            ready = sel.select(idle_s)
            if not ready:
                return
            for key, _ in ready:
                src: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    data = src.recv(CHUNK)
                    if data:
                        peer[src].sendall(data)
                        continue
                    sel.unregister(src)
                    peer[src].shutdown(socket.SHUT_WR)  # half-close: the other way may still flow
                except OSError:
                    return


def _forward(conn: socket.socket, path: str, slots: threading.Semaphore) -> None:
    try:
        with conn, socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as up:
            up.connect(path)
            pump(conn, up, 600.0)
    except OSError:
        pass
    finally:
        slots.release()


def serve(srv: socket.socket, path: str) -> None:
    """Accept forever; each connection gets a thread, at most MAX_CONNECTIONS at once."""
    slots = threading.Semaphore(MAX_CONNECTIONS)
    while True:
        conn, _ = srv.accept()
        if not slots.acquire(blocking=False):
            conn.close()
            continue
        threading.Thread(target=_forward, args=(conn, path, slots), daemon=True).start()


def main(argv: list[str]) -> int:
    """`python3 -m swr.sandbox.relay PORT SOCKET`: returns once listening; the forked child serves."""
    port, path = int(argv[0]), argv[1]
    srv = socket.create_server(("127.0.0.1", port), backlog=64)
    if os.fork():
        return 0
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # holds none of the agent's pipes open
        os.dup2(null, fd)
    try:
        serve(srv, path)
    finally:
        os._exit(0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
