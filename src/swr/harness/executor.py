"""Where runs execute: a local thread pool (runs mostly wait on sandboxed processes and endpoints), or
a Dask cluster. Either way results come back to this process, the only writer of the store. The work
itself (run.execute) is handed in, so this module never imports the one that uses it."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from swr.core.errors import SwrError

if TYPE_CHECKING:
    from .run import JobConfig, Planned
    from .store import RunRecord

    Work = Callable[[JobConfig, Planned], RunRecord]  # one planned run, executed wherever the pool puts it


class LocalExecutor:
    def __init__(self, concurrency: int):
        self.pool = ThreadPoolExecutor(max(1, concurrency))

    def map(self, work: Work, cfg: JobConfig, todo: list[Planned]) -> Iterator[tuple[Planned, RunRecord]]:
        """(planned, record) as each run finishes."""
        futures = {self.pool.submit(work, cfg, p): p for p in todo}
        for f in as_completed(futures):
            yield futures[f], f.result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor:
    """Runs go to Dask workers (an existing scheduler, or a LocalCluster); a run whose worker dies is
    rescheduled by Dask on another worker. A Dask client runs code on the workers, so the local cluster
    speaks only mutual TLS with credentials made for this run (sandboxes have no route to it either), and
    a user's scheduler is reached with dask's own TLS settings (`distributed.comm.tls.*`)."""

    def __init__(self, concurrency: int, scheduler: str | None):
        try:
            from dask.distributed import Client, LocalCluster, Security
        except ImportError:
            raise SwrError("--executor dask needs `pip install 'dask[distributed]'`", field="--executor") from None
        self.cluster: Any = None
        if scheduler:
            self.client = Client(scheduler, security=_user_security(scheduler, Security()))
        else:
            self.cluster = LocalCluster(n_workers=max(1, concurrency), threads_per_worker=1, processes=True,
                                        dashboard_address=None, security=_temporary_security())
            self.client = Client(self.cluster, security=self.cluster.security)

    def map(self, work: Work, cfg: JobConfig, todo: list[Planned]) -> Iterator[tuple[Planned, RunRecord]]:
        """(planned, record) as each run finishes; `work` goes to the workers by reference (module-level)."""
        from dask.distributed import as_completed as dask_completed

        futures = {self.client.submit(work, cfg, p, retries=2, pure=False): p
                   for p in todo}
        for f in dask_completed(list(futures)):
            yield futures[f], f.result()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _temporary_security() -> Any:
    """Mutual TLS with a certificate made now (distributed's `Security.temporary`, needs cryptography)."""
    from dask.distributed import Security

    try:
        return Security.temporary()
    except ImportError:
        raise SwrError("--executor dask needs `pip install cryptography` (the local cluster's TLS)",
                       field="--executor") from None


def _user_security(scheduler: str, security: Any) -> Any:
    """dask's configured TLS for a user's scheduler; a tls:// address without it is a usage error."""
    if scheduler.startswith("tls://") and not (security.tls_ca_file and security.tls_client_cert):
        raise SwrError(f"{scheduler} needs dask's TLS settings: distributed.comm.tls.ca-file and "
                       "distributed.comm.tls.client.cert (and .key), e.g. in ~/.config/dask/", field="--scheduler")
    return security


@contextmanager
def executor_for(cfg: JobConfig) -> Iterator[LocalExecutor | DaskExecutor]:
    if cfg.executor == "local":
        ex: LocalExecutor | DaskExecutor = LocalExecutor(cfg.concurrency)
    elif cfg.executor == "dask":
        ex = DaskExecutor(cfg.concurrency, cfg.scheduler)
    else:
        raise SwrError(f"unknown executor {cfg.executor!r}: local or dask", field="--executor")
    try:
        yield ex
    finally:
        ex.close()
