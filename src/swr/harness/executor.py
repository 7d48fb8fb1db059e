"""Where runs execute: swr.core.executors (a local thread pool, or a Dask cluster), shared with the release
build. Either way results come back to this process, the only writer of the store. The work itself
(run.execute) is handed in, so this module never imports the one that uses it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from swr.core.executors import DaskExecutor, LocalExecutor, open_executor

if TYPE_CHECKING:
    from .run import JobConfig

__all__ = ["DaskExecutor", "LocalExecutor", "executor_for"]


@contextmanager
def executor_for(cfg: JobConfig) -> Iterator[LocalExecutor | DaskExecutor]:
    """The job's executor (`pool.map(execute, cfg, planned)` yields each run's record as it finishes)."""
    with open_executor(cfg.executor, cfg.concurrency, cfg.scheduler) as ex:
        yield ex
