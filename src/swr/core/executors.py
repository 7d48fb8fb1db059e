"""Where independent pieces of work execute, for the release build (`swr build --executor`) and for agent
runs (`swr run --executor`) alike: a local thread pool (the work mostly waits on sandboxed processes and
endpoints), or a Dask cluster. Either way results come back to this process, the only writer of what they
produce (the release, the results store). The work is handed in as a module-level function, so this module
never imports the ones that use it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any, TypeVar

from swr.core.errors import SwrError

C = TypeVar("C")  # what every piece of work shares (options, a job's configuration)
T = TypeVar("T")  # one piece of work
R = TypeVar("R")  # its result
EXECUTORS = ("local", "dask")
CONNECT_TIMEOUT = "10s"  # a user's scheduler that does not answer: one line after this, not dask's 30 s
NEEDS_DASK = "--executor dask needs `pip install 'dask[distributed]'`"


class LocalExecutor:
    def __init__(self, concurrency: int):
        self.pool = ThreadPoolExecutor(max(1, concurrency))

    def map(self, work: Callable[[C, T], R], common: C, items: list[T], retries: int = 2) -> Iterator[tuple[T, R]]:
        """(item, work(common, item)) as each finishes (`retries` is Dask's: a thread does not die)."""
        futures = {self.pool.submit(work, common, i): i for i in items}
        for f in as_completed(futures):
            yield futures[f], f.result()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor:
    """Work goes to Dask workers (an existing scheduler, or a LocalCluster); work whose worker dies is
    rescheduled by Dask on another worker, `retries` times. A Dask client runs code on the workers, so the
    local cluster speaks only mutual TLS with credentials made for this process (sandboxes have no route to
    it either), and a user's scheduler is reached with dask's own TLS settings (`distributed.comm.tls.*`)."""

    def __init__(self, concurrency: int, scheduler: str | None):
        try:
            from dask.distributed import Client, LocalCluster, Security
        except ImportError:
            raise SwrError(NEEDS_DASK, field="--executor") from None
        self.cluster: Any = None
        if scheduler:
            self.client = Client(scheduler, security=_user_security(scheduler, Security()))
        else:
            self.cluster = LocalCluster(
                n_workers=max(1, concurrency),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                security=_temporary_security(),
            )
            self.client = Client(self.cluster, security=self.cluster.security)

    def map(self, work: Callable[[C, T], R], common: C, items: list[T], retries: int = 2) -> Iterator[tuple[T, R]]:
        """(item, work(common, item)) as each finishes; `work` goes to the workers by reference (module-level),
        and each result leaves the workers' memory once it is here."""
        from dask.distributed import as_completed as dask_completed

        futures = {self.client.submit(work, common, i, retries=retries, pure=False): i for i in items}
        for f in dask_completed(list(futures)):
            result = f.result()
            f.release()
            yield futures[f], result

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
        raise SwrError(
            "--executor dask needs `pip install cryptography` (the local cluster's TLS)", field="--executor"
        ) from None


def _user_security(scheduler: str, security: Any) -> Any:
    """dask's configured TLS for a user's scheduler; a tls:// address without it is a usage error."""
    if scheduler.startswith("tls://") and not (security.tls_ca_file and security.tls_client_cert):
        raise SwrError(
            f"{scheduler} needs dask's TLS settings: distributed.comm.tls.ca-file and "
            "distributed.comm.tls.client.cert (and .key), e.g. in ~/.config/dask/",
            field="--scheduler",
        )
    return security


def _dask(concurrency: int, scheduler: str | None) -> DaskExecutor:
    """A Dask executor; a scheduler that cannot be reached is one line naming --scheduler, after
    CONNECT_TIMEOUT."""
    try:
        import dask.config
        import distributed  # noqa: F401 - its defaults load now, not inside (and undone with) the set below
    except ImportError:
        raise SwrError(NEEDS_DASK, field="--executor") from None
    if scheduler is None:
        return DaskExecutor(concurrency, None)
    try:
        with dask.config.set({"distributed.comm.timeouts.connect": CONNECT_TIMEOUT}):
            return DaskExecutor(concurrency, scheduler)
    except (OSError, ValueError) as e:  # TimeoutError is an OSError: nothing answered
        raise SwrError(f"cannot reach a Dask scheduler at {scheduler}: {e}", field="--scheduler") from None


@contextmanager
def open_executor(kind: str, concurrency: int, scheduler: str | None = None) -> Iterator[LocalExecutor | DaskExecutor]:
    """The executor named by --executor, closed (its cluster shut down) when the block ends."""
    if kind == "local":
        ex: LocalExecutor | DaskExecutor = LocalExecutor(concurrency)
    elif kind == "dask":
        ex = _dask(concurrency, scheduler)
    else:
        raise SwrError(f"unknown executor {kind!r}: local or dask", field="--executor")
    try:
        yield ex
    finally:
        ex.close()
