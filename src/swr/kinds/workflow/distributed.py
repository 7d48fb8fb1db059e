"""`swr build --executor dask`: each workflow is built on a Dask worker, in the worker's own sandbox, against
its own execution cache and into a staging directory of its own; the worker hands back the task files and
only the client writes the release, so a worker killed mid-build loses nothing but its in-flight workflow,
which Dask runs again elsewhere (the work is pure: workflow directory and options in, files out)."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from swr.core.cachedir import default_cache_dir
from swr.core.errors import SwrError
from swr.core.executors import open_executor
from swr.core.layout import ReleasePaths
from swr.kinds.workflow.build import BuildOptions, WorkflowResult, build_workflow
from swr.kinds.workflow.cache import ExecutionCache
from swr.kinds.workflow.spec import WorkflowSpec, load_spec
from swr.sandbox import get_sandbox


@dataclass(frozen=True)
class Shared:
    """What every workflow's build on a worker shares: the options, and where the worker's cache lives
    (None: the worker's own default, ~/.cache/swr or its $SWR_CACHE)."""

    opts: BuildOptions
    cache_root: Path | None
    cache_enabled: bool


@dataclass(frozen=True)
class Planned:
    """One workflow to build: its directory (the same path on every worker) and the content hash the
    client read there, so a worker that sees another tree there says so instead of building it."""

    directory: Path
    content_hash: str


@dataclass
class Built:
    """A workflow built on a worker: its result and its task files (path under tasks/, bytes, mode), or why
    the worker could not read the workflow the client read."""

    result: WorkflowResult | None
    files: list[tuple[str, bytes, int]] = field(default_factory=list)
    unreadable: str | None = None


def shared_for(opts: BuildOptions) -> Shared:
    """The client's cache travels as a path only when it is not the default (a test's). On the local cluster
    (`jobs` workers on this machine) each worker runs one execution at a time, so `jobs` are in flight as in
    a local build; a user's workers each run `jobs` at a time (size them by their cores)."""
    root = opts.cache.root.parent
    explicit = None if root == default_cache_dir() else root
    jobs = opts.jobs if opts.scheduler else 1
    return Shared(replace(opts, jobs=jobs, cache=ExecutionCache(enabled=False)), explicit, opts.cache.enabled)


def build_on_worker(shared: Shared, job: Planned) -> Built:
    """Runs on a Dask worker (module-level, so it travels by reference): the workflow built into a fresh
    temporary staging directory, returned as bytes; nothing outside that directory and the cache is written."""
    try:
        spec = load_spec(job.directory)
    except SwrError as e:
        return Built(
            None,
            unreadable=f"the Dask worker on {os.uname().nodename} cannot read it: {e.message}"
            " (the workers need the workflows at the same paths)",
        )
    if spec.content_hash != job.content_hash:
        return Built(
            None,
            unreadable=f"the Dask worker on {os.uname().nodename} sees other files in "
            f"{job.directory} than the client (a shared filesystem is needed)",
        )
    opts = replace(shared.opts, cache=ExecutionCache(shared.cache_root, enabled=shared.cache_enabled))
    with tempfile.TemporaryDirectory(prefix="swr-build-") as tmp, ThreadPoolExecutor(opts.jobs) as runs:
        t0 = time.monotonic()
        res = build_workflow(spec, Path(tmp), opts, get_sandbox(opts.sandbox), runs, lambda a, t: None)
        res.wall_s = time.monotonic() - t0
        return Built(res, pack(ReleasePaths(Path(tmp)).tasks))


def pack(root: Path) -> list[tuple[str, bytes, int]]:
    """Every regular file under root, sorted, with its permission bits (a reference's scripts keep theirs)."""
    if not root.is_dir():
        return []
    return [
        (p.relative_to(root).as_posix(), p.read_bytes(), p.stat().st_mode & 0o777)
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink()
    ]


def unpack(files: list[tuple[str, bytes, int]], root: Path) -> None:
    """The client's half of pack: the files written under root (the staging release's tasks/)."""
    for rel, data, mode in files:
        dst = root / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(data)
        os.chmod(dst, mode)


def build_on_dask(
    specs: list[WorkflowSpec], staging: Path, opts: BuildOptions, done: Callable[[WorkflowResult], None]
) -> list[WorkflowResult]:
    """The workflows built on Dask workers, written into staging here as each returns; results in the
    order of `specs` (the release does not depend on which worker finished first)."""
    if not specs:
        return []
    shared = shared_for(opts)
    by_dir = {s.directory: s for s in specs}
    results: dict[Path, WorkflowResult] = {}
    with open_executor("dask", opts.jobs, opts.scheduler) as ex:
        planned = [Planned(s.directory, s.content_hash) for s in specs]
        for job, built in ex.map(build_on_worker, shared, planned, retries=1):
            unpack(built.files, ReleasePaths(staging).tasks)
            res = built.result or WorkflowResult(by_dir[job.directory], failure=built.unreadable)
            res.spec = by_dir[job.directory]  # the client's, naming the client's path in messages
            results[job.directory] = res
            done(res)
    return [results[s.directory] for s in specs]
