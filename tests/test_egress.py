"""A networked command agent reaches its model endpoint and nothing else (issue 10, 2.2): its own network
namespace in the real bwrap sandbox, a relay to the run's egress proxy, the proxy allow-listing one
(host, port). And the Dask cluster the executor starts takes no client without its TLS credentials."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_agents import Scripted, job, only

from swr.core.errors import SwrError
from swr.harness.run import JobConfig, run_dir, run_job
from swr.sandbox.egress import EgressProxy, endpoint
from swr.sandbox.relay import RELAY_PORT


class Listener:
    """A plain TCP server on the host's loopback that counts who got through."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            conn.sendall(b"secret\n")
            conn.close()

    def close(self) -> None:
        self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    lst = Listener()
    yield lst
    lst.close()


@pytest.fixture
def scripted() -> Iterator[Scripted]:
    srv = Scripted([[("finish", {})]])
    yield srv
    srv.close()


# The agent: try the host's loopback listener directly and through the relay (CONNECT, absolute form),
# then call its model: at SWR_BASE_URL (http), or by CONNECT through $HTTPS_PROXY (https; the scripted
# server speaks plain HTTP inside the tunnel). Results as one JSON line on stdout.
PROBE = """python3 - <<'EOF'
import json, os, socket, urllib.parse, urllib.request
LPORT, RELAY = {lport}, ("127.0.0.1", {relay})
out = {{"proxy_env": sorted(k for k in os.environ if k.lower().endswith("_proxy"))}}

def attempt(f):
    try:
        return f()
    except OSError as e:
        return "error: " + str(e)

def ask(addr, head):
    with socket.create_connection(addr, timeout=10) as s:
        s.sendall(head)
        return s.recv(4096).decode(errors="replace").split("\\r\\n")[0]

out["direct"] = attempt(lambda: socket.create_connection(("127.0.0.1", LPORT), timeout=5) and "connected")
out["connect"] = attempt(lambda: ask(RELAY, b"CONNECT 127.0.0.1:%d HTTP/1.1\\r\\n\\r\\n" % LPORT))
out["absolute"] = attempt(lambda: ask(RELAY, b"GET http://127.0.0.1:%d/ HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n" % LPORT))
body = json.dumps({{"model": os.environ["SWR_MODEL"], "messages": []}}).encode()
url = urllib.parse.urlsplit(os.environ["SWR_BASE_URL"] + "/chat/completions")
if url.scheme == "https":
    proxy = urllib.parse.urlsplit(os.environ["HTTPS_PROXY"])
    with socket.create_connection((proxy.hostname, proxy.port), timeout=10) as s:
        s.sendall(b"CONNECT %s:%d HTTP/1.1\\r\\n\\r\\n" % (url.hostname.encode(), url.port))
        out["tunnel"] = s.recv(4096).decode().split("\\r\\n")[0]
        s.sendall(b"POST %s HTTP/1.1\\r\\nHost: x\\r\\nContent-Length: %d\\r\\nConnection: close\\r\\n\\r\\n"
                  % (url.path.encode(), len(body)) + body)
        out["model"] = s.makefile("rb").readline().decode().strip()
else:
    req = urllib.request.Request(url.geturl(), data=body, headers={{"Content-Type": "application/json"}})
    out["model"] = "HTTP %d" % urllib.request.urlopen(req, timeout=10).status
print(json.dumps(out))
EOF
"""


@pytest.mark.parametrize(("backend", "scheme"), [("bwrap", "http"), ("bwrap", "https"), ("podman", "http")])
def test_networked_command_agent_reaches_its_endpoint_and_not_the_host_loopback(
    linear_release: Path, tmp_path: Path, listener: Listener, scripted: Scripted, backend: str, scheme: str
) -> None:
    """http: the base URL is rewritten to the relay, no proxy variables; https: HTTPS_PROXY and CONNECT.
    Either way the loopback listener never sees a connection, and the refusals are in the record."""
    url = scripted.url.replace("http://", f"{scheme}://")
    script = PROBE.format(lport=listener.port, relay=RELAY_PORT)
    cfg = job(linear_release, tmp_path, "command", url, options={"command": script}, sandbox=backend, image="host")
    rec = only(run_job(cfg))
    out = json.loads((run_dir(cfg, rec.key).logs / "stdout.txt").read_text())
    assert listener.accepted == 0, out
    assert out["direct"].startswith("error:"), out
    assert out["connect"] == out["absolute"] == "HTTP/1.1 403 Forbidden", out
    assert out["model"] == ("HTTP/1.0 200 OK" if scheme == "https" else "HTTP 200"), out
    assert len(scripted.requests) == 1 and scripted.requests[0]["model"] == "scripted-model"
    expected_env = ["HTTPS_PROXY", "HTTP_PROXY", "http_proxy", "https_proxy"] if scheme == "https" else []
    assert out["proxy_env"] == expected_env
    denied = [n for n in rec.cheats if n["kind"] == "egress_denied"]
    assert len(denied) == 1 and denied[0]["count"] == 2, rec.cheats
    assert all(f"127.0.0.1:{listener.port}" in r for r in denied[0]["requests"])


def test_command_agent_without_network_has_no_egress(
    linear_release: Path, tmp_path: Path, listener: Listener, scripted: Scripted
) -> None:
    """`network = false`: no proxy, no relay; neither the endpoint nor the loopback is reachable."""
    script = PROBE.format(lport=listener.port, relay=RELAY_PORT)
    cfg = job(linear_release, tmp_path, "command", scripted.url, options={"command": script, "network": False})
    rec = only(run_job(cfg))
    assert listener.accepted == 0 and scripted.requests == []
    assert [n["kind"] for n in rec.cheats] == ["agent_exit"]


def test_bad_base_url_is_named() -> None:
    from swr.harness.agents import make_agent

    with pytest.raises(SwrError, match="--base-url"):
        make_agent("claude-code", {"base_url": "ftp://example.org"})


# ------------------------------------------------------------------------------------- the proxy


def exchange(proxy: EgressProxy, data: bytes) -> bytes:
    """Send data over the proxy's socket (as the relay would) and read until it closes."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(30)
        s.connect(str(proxy.socket))
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        return b"".join(iter(lambda: s.recv(65536), b""))


def status(reply: bytes) -> str:
    return reply.split(b"\r\n")[0].decode()


GET = b"GET /v1/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def test_proxy_refuses_every_destination_but_the_endpoint(listener: Listener, scripted: Scripted) -> None:
    lp = listener.port
    refused = [
        b"CONNECT 127.0.0.1:%d HTTP/1.1\r\n\r\n" % lp,
        b"CONNECT api.anthropic.com:443 HTTP/1.1\r\n\r\n",
        b"CONNECT [::1]:%d HTTP/1.1\r\n\r\n" % lp,
        b"GET http://127.0.0.1:%d/ HTTP/1.1\r\n\r\n" % lp,
        b"GET http://localhost:%d/ HTTP/1.1\r\n\r\n" % lp,
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\r\n\r\n",
    ]
    with EgressProxy(endpoint(scripted.url)) as proxy:  # type: ignore[arg-type]
        for head in refused:
            assert status(exchange(proxy, head)) == "HTTP/1.1 403 Forbidden", head
    assert listener.accepted == 0
    [note] = proxy.notes()
    assert note["kind"] == "egress_denied" and note["count"] == len(refused)
    assert note["requests"][0] == f"CONNECT 127.0.0.1:{lp} HTTP/1.1"


def test_proxy_reaches_the_endpoint_by_connect_absolute_form_and_as_a_relay(scripted: Scripted) -> None:
    ep = endpoint(scripted.url)
    assert ep is not None
    host = f"{ep.host}:{ep.port}".encode()
    with EgressProxy(ep) as proxy:
        tunnel = exchange(proxy, b"CONNECT %s HTTP/1.1\r\n\r\n" % host + GET)
        assert tunnel.startswith(b"HTTP/1.1 200 Connection established\r\n\r\nHTTP/1.0 501"), tunnel[:80]
        absolute = exchange(
            proxy, b"GET http://%s/v1/models HTTP/1.1\r\nProxy-Connection: keep-alive\r\nHost: x\r\n\r\n" % host
        )
        assert status(absolute) == "HTTP/1.0 501 Unsupported method ('GET')"  # the server itself answered
        assert status(exchange(proxy, GET)) == "HTTP/1.0 501 Unsupported method ('GET')"
    assert proxy.notes() == []


def test_https_endpoint_only_by_connect(scripted: Scripted) -> None:
    """An https endpoint is reached through CONNECT; plain requests to it are refused, not relayed."""
    ep = endpoint(scripted.url.replace("http://", "https://"))
    assert ep is not None and ep.sandbox_url() == ep.url and "HTTPS_PROXY" in ep.agent_env()
    with EgressProxy(ep) as proxy:
        assert status(exchange(proxy, GET)) == "HTTP/1.1 403 Forbidden"
        assert (
            status(exchange(proxy, b"GET http://%s:%d/ HTTP/1.1\r\n\r\n" % (ep.host.encode(), ep.port)))
            == "HTTP/1.1 403 Forbidden"
        )
        assert (
            status(exchange(proxy, b"CONNECT %s:%d HTTP/1.1\r\n\r\n" % (ep.host.encode(), ep.port)))
            == "HTTP/1.1 200 Connection established"
        )
    assert proxy.notes()[0]["count"] == 2


def test_proxy_is_bounded_and_stops_with_the_run(scripted: Scripted) -> None:
    """Connections beyond the cap are closed at once; close() cuts open tunnels and removes the socket."""
    ep = endpoint(scripted.url)
    assert ep is not None
    proxy = EgressProxy(ep, max_connections=2)
    held = []
    for _ in range(3):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(30)
        s.connect(str(proxy.socket))
        held.append(s)
    held[0].sendall(b"CONNECT %s:%d HTTP/1.1\r\n\r\n" % (ep.host.encode(), ep.port))
    assert held[0].recv(4096).startswith(b"HTTP/1.1 200")
    assert held[2].recv(4096) == b""  # over the cap: closed without a word
    proxy.close()
    assert held[0].recv(4096) == b"" and held[1].recv(4096) == b""
    assert not proxy.socket.exists() and not proxy.dir.exists()
    for s in held:
        s.close()


# -------------------------------------------------------------------------------------- Dask


def test_local_dask_cluster_refuses_clients_without_its_credentials() -> None:
    """Plain TCP and TLS with other credentials are both turned away; the executor's own client works."""
    from dask.distributed import Client, Security

    from swr.harness.executor import DaskExecutor

    ex = DaskExecutor(1, None)
    try:
        address = ex.cluster.scheduler_address
        assert address.startswith("tls://")
        assert ex.client.submit(sum, [1, 2], pure=False).result(timeout=120) == 3
        hostport = address.removeprefix("tls://")
        for addr, security in ((f"tcp://{hostport}", None), (address, Security.temporary())):
            with pytest.raises((OSError, TimeoutError)):
                Client(addr, security=security, timeout=5)
    finally:
        ex.close()


def test_tls_scheduler_without_dask_tls_settings_is_a_usage_error() -> None:
    from swr.harness.executor import DaskExecutor

    with pytest.raises(SwrError, match="--scheduler"):
        DaskExecutor(1, "tls://127.0.0.1:1")


def test_dask_executor_runs_a_job_on_its_tls_cluster(linear_release: Path, tmp_path: Path) -> None:
    """The workers of the TLS-only local cluster still receive runs and send back their records."""
    cfg = JobConfig(
        release=linear_release,
        agent="oracle",
        include=("good-linear-v1",),
        jobs_dir=tmp_path,
        executor="dask",
        concurrency=1,
    )
    rec = only(run_job(cfg))
    assert rec.status == "done" and rec.passed, rec.error


def test_run_on_an_unreachable_scheduler_is_one_line_naming_it(linear_release: Path, tmp_path: Path) -> None:
    """`swr run` and `swr build` share one executor (swr.core.executors): a scheduler that does not answer is
    a usage error naming --scheduler for runs too, not a connection traceback."""
    cfg = JobConfig(
        release=linear_release,
        agent="oracle",
        include=("good-linear-v1",),
        jobs_dir=tmp_path,
        executor="dask",
        concurrency=1,
        scheduler="tcp://127.0.0.1:9",
    )
    with pytest.raises(SwrError) as e:
        run_job(cfg)
    assert e.value.field == "--scheduler" and "tcp://127.0.0.1:9" in e.value.message
