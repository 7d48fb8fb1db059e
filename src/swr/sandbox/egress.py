"""A networked agent's only way out: a host-side proxy, one per run, listening on a Unix socket that is
mounted into the sandbox (whose network namespace is its own; relay.py forwards 127.0.0.1 there).

Every connection goes to one (host, port), the agent's model endpoint, whatever it asks: `CONNECT
host:port` and absolute-form `GET http://host:port/...` are tunnelled when they name it, and a plain
request (`POST /v1/...` to the relay, for an http endpoint whose base URL was rewritten to the relay) is
relayed to it as is. Anything else is answered 403 and logged. The relay is not the boundary, this is."""

from __future__ import annotations

import os
import selectors
import shutil
import socket
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from swr.sandbox.base import EGRESS
from swr.sandbox.relay import RELAY_PORT, pump

DEFAULT_PORTS = {"http": 80, "https": 443}
RELAY_FAILED = 126  # the exit status of a job whose relay could not start, with this on stderr:
RELAY_FAILED_MSG = "swr: the egress relay did not start"
HEAD_MAX = 64 * 1024  # a request head longer than this is refused
LOGGED = 20  # denials kept verbatim; the rest are counted


@dataclass(frozen=True)
class Endpoint:
    """Where an agent's model lives: the one destination its proxy allows."""

    scheme: str  # http | https
    host: str
    port: int
    url: str  # the base URL as configured

    def sandbox_url(self) -> str:
        """The base URL to give the agent: an http endpoint is reached through the relay directly."""
        if self.scheme == "https":
            return self.url
        parts = urlsplit(self.url)
        return urlunsplit(("http", f"127.0.0.1:{RELAY_PORT}", parts.path, parts.query, parts.fragment))

    def agent_env(self) -> dict[str, str]:
        """Proxy variables (both cases) for an https endpoint; none for http (its URL is rewritten)."""
        if self.scheme != "https":
            return {}
        proxy = f"http://127.0.0.1:{RELAY_PORT}"
        return {k: proxy for k in ("HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy")}


def through_relay(argv: list[str]) -> list[str]:
    """argv for a job with egress: the in-sandbox relay starts (and is listening) first."""
    start = f"python3 -m swr.sandbox.relay {RELAY_PORT} {EGRESS}"
    fail = f'{{ echo "{RELAY_FAILED_MSG}" >&2; exit {RELAY_FAILED}; }}'
    return ["/bin/sh", "-c", f'{start} || {fail}; exec "$@"', "swr-egress", *argv]


def endpoint(base_url: str | None, default: str | None = None) -> Endpoint | None:
    """The endpoint of --base-url, else of the preset's default API; None when neither is given.
    Raises ValueError for a URL that is not http(s)://host[:port][/path]."""
    url = base_url or default
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"not an http(s) URL: {url!r}")
    return Endpoint(parts.scheme, parts.hostname.lower(), parts.port or DEFAULT_PORTS[parts.scheme], url)


@dataclass
class Denials:
    """What the agent tried to reach and was refused: the first LOGGED verbatim, then a count."""

    seen: list[str] = field(default_factory=list)
    total: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, what: str) -> None:
        with self.lock:
            self.total += 1
            if len(self.seen) < LOGGED:
                self.seen.append("".join(c if c.isprintable() else "?" for c in what[:200]))

    def notes(self) -> list[dict[str, object]]:
        """Anti-cheat notes for the run's record (none when nothing was refused)."""
        if not self.total:
            return []
        return [{"kind": "egress_denied", "count": self.total, "requests": list(self.seen)}]


def _target(target: str, default_port: int) -> tuple[str, int] | None:
    """`host:port` (CONNECT) as (host, port); None when malformed."""
    parts = urlsplit("//" + target)
    try:
        port = parts.port or default_port
    except ValueError:
        return None
    return (parts.hostname.lower(), port) if parts.hostname else None


def route(head: bytes, ep: Endpoint) -> tuple[bytes, bytes] | None:
    """For one request head: (the reply to the client, or b"", the head to send upstream), or None
    when it is refused. Only the endpoint is ever a destination."""
    line, _, rest = head.partition(b"\r\n")
    words = line.decode("latin-1").split(" ")
    if len(words) != 3 or not words[2].startswith("HTTP/1."):
        return None
    method, target, version = words
    if method.upper() == "CONNECT":
        if _target(target, 443) != (ep.host, ep.port):
            return None
        return f"{version} 200 Connection established\r\n\r\n".encode(), head.partition(b"\r\n\r\n")[2]
    if target.startswith("/"):  # origin form: what the relay receives for a rewritten http base URL
        return (b"", head) if ep.scheme == "http" else None
    parts = urlsplit(target)
    if parts.scheme != "http" or ep.scheme != "http" or _target(parts.netloc, 80) != (ep.host, ep.port):
        return None
    path = urlunsplit(("", "", parts.path or "/", parts.query, ""))
    fields, _, body = rest.partition(b"\r\n\r\n")
    kept = [
        f"{method} {path} {version}".encode(),
        *(h for h in fields.split(b"\r\n") if not h.lower().startswith(b"proxy-")),
    ]
    return b"", b"\r\n".join(kept) + b"\r\n\r\n" + body


def _read_head(conn: socket.socket) -> tuple[bytes, bool]:
    """What the client sent up to its head's blank line (and whatever followed it), and whether that
    is a whole head (False: it closed, went quiet or sent more than HEAD_MAX first)."""
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            if len(data) > HEAD_MAX:
                return data, False
            chunk = conn.recv(8192)
            if not chunk:
                return data, False
            data += chunk
    except OSError:
        return data, False
    return data, True


class EgressProxy:
    """The per-run proxy: a private directory holding its socket, an accept thread and one thread per
    connection (at most `max_connections`), idle connections closed; `close()` ends them all."""

    def __init__(self, ep: Endpoint, *, max_connections: int = 32, idle_s: float = 600.0, head_s: float = 30.0):
        self.endpoint, self.max_connections, self.idle_s, self.head_s = ep, max_connections, idle_s, head_s
        self.denials = Denials()
        base = tempfile.gettempdir()  # a socket's path has at most 107 bytes
        self.dir = Path(tempfile.mkdtemp(prefix=f"swr-egress-{os.getpid()}-", dir=base if len(base) < 64 else "/tmp"))
        self.dir.chmod(0o711)  # the sandbox user (unprivileged on the host) reaches the socket, lists nothing
        self.socket = self.dir / "proxy.sock"
        self._srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._srv.bind(str(self.socket))
        self.socket.chmod(0o666)
        self._srv.listen(64)
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._threads: set[threading.Thread] = set()
        self._wake_r, self._wake_w = socket.socketpair()
        self._closed = False
        self._acceptor = threading.Thread(target=self._accept, name="swr-egress", daemon=True)
        self._acceptor.start()

    def __enter__(self) -> EgressProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _accept(self) -> None:
        with selectors.DefaultSelector() as sel:
            sel.register(self._srv, selectors.EVENT_READ)
            sel.register(self._wake_r, selectors.EVENT_READ)
            while not self._closed:
                if any(key.fileobj is self._wake_r for key, _ in sel.select()):
                    return
                try:
                    conn, _ = self._srv.accept()
                except OSError:  # (out of descriptors) closed, not open: the agent loses its network
                    return
                with self._lock:
                    if self._closed or len(self._threads) >= self.max_connections:
                        conn.close()
                        continue
                    self._open.add(conn)
                    t = threading.Thread(target=self._serve, args=(conn,), name="swr-egress-conn", daemon=True)
                    self._threads.add(t)
                t.start()

    def _serve(self, conn: socket.socket) -> None:
        up: socket.socket | None = None
        try:
            conn.settimeout(self.head_s)
            head, whole = _read_head(conn)
            routed = route(head, self.endpoint) if whole else None
            if routed is None:
                if head:  # a client that connects and says nothing is not an attempt
                    self._deny(conn, head)
                return
            try:
                up = socket.create_connection((self.endpoint.host, self.endpoint.port), timeout=self.head_s)
            except OSError:
                _reply(conn, 502, "swr egress: the model endpoint cannot be reached\n")
                return
            with self._lock:
                if self._closed:
                    return
                self._open.add(up)
            conn.sendall(routed[0])
            up.sendall(routed[1])
            pump(conn, up, self.idle_s)
        except OSError:
            pass
        finally:
            with self._lock:
                for s in (conn, up):
                    if s is not None:
                        self._open.discard(s)
                        s.close()
                self._threads.discard(threading.current_thread())

    def _deny(self, conn: socket.socket, head: bytes) -> None:
        first = head.partition(b"\r\n")[0].decode("latin-1") or "(no request)"
        self.denials.add(first)
        _reply(conn, 403, f"swr egress: only {self.endpoint.host}:{self.endpoint.port} is reachable\n")

    def notes(self) -> list[dict[str, object]]:
        return self.denials.notes()

    def close(self) -> None:
        """Stop accepting, cut every open connection, wait for the threads, remove the socket."""
        with self._lock:
            self._closed = True
            for s in self._open:
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            threads = list(self._threads)
        self._wake_w.send(b"x")
        self._acceptor.join()
        for t in threads:
            t.join(timeout=5)
        for s in (self._srv, self._wake_r, self._wake_w):
            s.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def _reply(conn: socket.socket, status: int, text: str) -> None:
    reason = {403: "Forbidden", 502: "Bad Gateway"}[status]
    body = text.encode()
    try:
        conn.sendall(
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
            f"Connection: close\r\n\r\n".encode()
            + body
        )
    except OSError:
        pass
