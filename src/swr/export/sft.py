"""`swr export sft`: verified trajectories of recorded jobs as a chat SFT corpus, built as the SWR paper's
appendix E builds its corpus: passing runs only, held-out tasks and their siblings left out, each
conversation cut after its final passing solution, rows over the token limit dropped, then oversampled to
N entries favouring tasks with a single verified success (docs/export.md)."""

from __future__ import annotations

import hashlib
import json
import os
import random
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swr import kinds
from swr.core.errors import SwrError
from swr.core.layout import JobPaths, ReleasePaths
from swr.core.release_dir import list_tasks, load_release
from swr.harness.store import RunRecord, Store
from swr.harness.trajectory import RECORDED_BY, SWR_RECORD, validate_atif
from swr.kinds.verdict import ANTI_CHEAT

from .chat import Message, to_messages, tool_schemas
from .tokens import DEFAULT_TOKENIZER, token_counter

COPIED = "copied_original"  # swr.kinds.revival.copied's finding


@dataclass(frozen=True)
class Row:
    """One verified run made into a conversation, with what a corpus entry records about it."""

    task: str
    key: str
    messages: list[Message]
    tools: list[dict[str, Any]]
    provenance: dict[str, Any]


@dataclass
class ReleaseInfo:
    """What the rows of one release share: its content hash, audit summary, and each task's kind and group."""

    content_hash: str | None
    audit: str
    kinds: dict[str, str]
    groups: dict[str, str]
    deleted_module: frozenset[str] = frozenset()  # revival tasks whose rebuild is measured against the original


def verified(r: RunRecord) -> bool:
    """A run the corpus may hold: recorded, its verdict passed, and no anti-cheat finding (under either
    cheat policy: `record` keeps a cheating run's pass but names `anti_cheat` among its labels), the
    verdict's own included (a copied_original fails its verdict; a record saying otherwise is not trusted)."""
    return (
        r.status == "done"
        and bool(r.passed)
        and ANTI_CHEAT not in r.labels
        and not copied(r)
        and r.verdict is not None
        and r.verdict.passed is True
    )


def copied(r: RunRecord) -> bool:
    """The run's verdict names a copied_original (its label or an anti-cheat finding)."""
    found = r.verdict.findings() if r.verdict else []
    return COPIED in r.labels or any(f.get("kind") == COPIED for f in found)


def unmeasured(r: RunRecord, info: ReleaseInfo) -> bool:
    """A deleted-module run graded before rebuilds were measured against the original: it may be a copy
    (`swr regrade` measures it)."""
    return r.task in info.deleted_module and not (r.verdict and r.verdict.measured_similarity())


def audit_summary(release: Path) -> str:
    """The release's saved audits as compact JSON: per file, its sha256 and top-level numbers, flags and short
    strings; "none" when the release has no audit."""
    rel = ReleasePaths(release)
    names = sorted(f.stem for f in rel.audit.glob("*.json") if not f.name.startswith(".")) if rel.audit.is_dir() else []
    out: dict[str, Any] = {}
    for name in names:  # what `swr audit NAME` saved (swr.audit.save_result)
        data = rel.audit_result(name).read_bytes()
        try:
            doc = json.loads(data)
        except ValueError:
            doc = None
        scalars = (
            {k: v for k, v in doc.items() if isinstance(v, (bool, int, float)) or (isinstance(v, str) and len(v) <= 80)}
            if isinstance(doc, dict)
            else {}
        )
        out[name] = {"sha256": hashlib.sha256(data).hexdigest(), **scalars}
    return json.dumps(out, sort_keys=True, separators=(",", ":")) if out else "none"


def release_info(release: Path) -> ReleaseInfo:
    """A job's release as the export needs it (a release that has moved is a one-line error)."""
    summary = load_release(release)
    roots = list_tasks(release)
    tasks = {r.name: kinds.load(r) for r in roots}
    return ReleaseInfo(
        summary.content_hash,
        audit_summary(release),
        {n: t.kind.name for n, t in tasks.items()},
        {n: t.sibling_group() for n, t in tasks.items()},
        frozenset(n for n, t in tasks.items() if t.copy_checked()),
    )


def compact_verdict(r: RunRecord) -> dict[str, Any]:
    """The verdict's decision with the same keys and types for every kind of task."""
    v = r.verdict

    def num(x: Any) -> float | None:
        return None if x is None else float(x)

    return {
        "pass": bool(v and v.passed),
        "label": r.label or "",
        "labels": list(r.labels),
        "r_hid": num(v and v.r_hid),
        "r_pub": num(v and v.r_pub),
        "score": v.score if v else None,
    }


def provenance(r: RunRecord, info: ReleaseInfo) -> dict[str, Any]:
    return {
        "task": r.task,
        "kind": info.kinds.get(r.task, "unknown"),
        "family": r.family,
        "domain": r.domain,
        "group": info.groups.get(r.task, ""),
        "agent": r.agent,
        "model": r.model or "",
        "job": r.job,
        "run": r.key,
        "attempt": r.attempt,
        "verdict": compact_verdict(r),
        "verifier_hash": r.task_hash,
        "public_hash": r.public_hash or "",
        "release": info.content_hash or "",
        "audit": info.audit,
    }


def load_jobs(jobs_dir: Path, jobs: list[str]) -> list[tuple[RunRecord, Path]]:
    """Every run of the named jobs with its job's release, in job then store order."""
    store = Store(jobs_dir, create=False)
    try:
        out = []
        for job in jobs:
            cfg = store.job(job)
            if cfg is None:
                raise SwrError(f"no job named {job!r}", file=store.path, field="JOB")
            out += [(r, Path(cfg["release"])) for r in store.runs(job)]
        return out
    finally:
        store.close()


def make_row(jobs_dir: Path, r: RunRecord, info: ReleaseInfo) -> Row | str:
    """The run's conversation as a row, or why it has none (no trajectory, unreadable, not swr's own record, no
    solution step). Only a trajectory the harness built from what it saw is training data: one a command agent
    wrote itself (kept as the record before swr stopped trusting those) could claim any work it never did. The
    tool-calling agents' trajectories were always swr's, marked (`extra.recorded_by`) or from before the mark."""
    path = JobPaths(jobs_dir, r.job).run(r.key).trajectory
    if not path.is_file():
        return "no_trajectory"
    try:
        traj = validate_atif(json.loads(path.read_text()))
    except (ValueError, RecursionError):  # JSONDecodeError too
        return "bad_trajectory"
    if (traj.extra or {}).get(RECORDED_BY) != SWR_RECORD and r.agent in command_agents():
        return "untrusted_trajectory"  # a command agent's, from before swr marked its own: maybe the agent's file
    messages = to_messages(traj)
    if messages is None:
        return "no_solution_step"
    return Row(r.task, r.key, messages, tool_schemas(traj, messages), provenance(r, info))


def command_agents() -> frozenset[str]:
    """The agents whose CLI runs in the sandbox: anything in their logs, a trajectory too, is the agent's."""
    from swr.harness.agents.command import PRESETS

    return frozenset({*PRESETS, "command"})


def sample(runs_by_task: dict[str, list[str]], n: int, seed: int) -> list[str]:
    """n run keys as a multiset, in a seeded order. First uses come in rounds: round r takes the r-th run of
    every task that has one (tasks in a seeded order), so n below the pool's size keeps one run of each task
    while n allows. Repeats (n above it) come in rounds over every task, tasks with fewer verified runs first,
    each task cycling through its own runs: every task gets the same number of repeats, give or take one, so
    one run of a single-success task is repeated c times as often as one of a task with c successes."""
    rng = random.Random(f"swr-sft:{seed}")
    tasks = sorted(runs_by_task)
    rng.shuffle(tasks)
    cycle = {}
    for t in tasks:
        cycle[t] = sorted(runs_by_task[t])
        rng.shuffle(cycle[t])
    out: list[str] = []
    for r in range(max((len(c) for c in cycle.values()), default=0)):
        out += [cycle[t][r] for t in tasks if r < len(cycle[t])]
    out = out[:n]
    by_count = sorted(tasks, key=lambda t: len(cycle[t]))  # stable: the seeded order among equals
    turn = dict.fromkeys(tasks, 0)
    while len(out) < n:
        for t in by_count[: n - len(out)]:
            out.append(cycle[t][turn[t] % len(cycle[t])])
            turn[t] += 1
    rng.shuffle(out)
    return out


def select(jobs_dir: Path, jobs: list[str], exclude: list[str]) -> tuple[list[Row], Counter[str], list[str]]:
    """The rows of every verified run not held out; why other runs were left out; the held-out groups."""
    runs = load_jobs(jobs_dir, jobs)
    infos = {rel: release_info(rel) for rel in sorted({rel for _, rel in runs})}
    held = set(exclude)
    groups = sorted({i.groups[t] for i in infos.values() for t in held if t in i.groups})
    skipped: Counter[str] = Counter()
    rows = []
    for r, rel in runs:
        info = infos[rel]
        if not verified(r):
            skipped[COPIED if copied(r) else "anti_cheat" if ANTI_CHEAT in r.labels else "not_passed"] += 1
        elif unmeasured(r, info):
            skipped["similarity_not_measured"] += 1
        elif r.task in held or info.groups.get(r.task) in groups:
            skipped["held_out"] += 1
        elif isinstance(row := make_row(jobs_dir, r, info), str):
            skipped[row] += 1
        else:
            rows.append(row)
    return rows, skipped, groups


def export_sft(
    jobs_dir: Path,
    jobs: list[str],
    out: Path,
    *,
    entries: int | None = None,
    exclude: tuple[str, ...] = (),
    seed: int = 0,
    max_tokens: int | None = None,
    tokenizer: str | None = None,
) -> dict[str, Any]:
    """Write the corpus (one JSON object a line, sorted keys) and return what went in and what was left out.
    `entries` None: every verified run once."""
    if entries is not None and entries < 1:
        raise SwrError("at least 1 entry", field="--entries")
    if out.is_dir() or out.is_symlink():
        raise SwrError("is a directory or a link: --out names the corpus file to write", file=out)
    count = token_counter(tokenizer)
    rows, skipped, groups = select(jobs_dir, jobs, list(exclude))
    kept = []
    for row in rows:
        n = count(row.messages, row.tools)
        if max_tokens is not None and n > max_tokens:
            skipped["over_token_limit"] += 1
        else:
            kept.append((row, n))
    if not kept:
        raise SwrError(
            "no verified trajectory to export ("
            + (", ".join(f"{k}: {v}" for k, v in sorted(skipped.items())) or "no runs")
            + ")",
            field="JOB",
        )
    by_key = {row.key: (row, n) for row, n in kept}
    by_task: dict[str, list[str]] = {}
    for row, _ in kept:
        by_task.setdefault(row.task, []).append(row.key)
    keys = sample(by_task, entries or len(kept), seed)
    write_rows(out, [by_key[k] for k in keys])
    return {
        "out": str(out),
        "entries": len(keys),
        "runs": len(kept),
        "tasks": len(by_task),
        "single_success_tasks": sum(len(v) == 1 for v in by_task.values()),
        "skipped": dict(sorted(skipped.items())),
        "held_out_groups": groups,
        "tokenizer": tokenizer or DEFAULT_TOKENIZER,
        "max_tokens": max_tokens,
        "seed": seed,
    }


def write_rows(out: Path, picked: list[tuple[Row, int]]) -> None:
    """The corpus file, written whole then renamed into place; each copy of a run numbered in `copy`."""
    copies: Counter[str] = Counter()
    lines = []
    for row, n in picked:
        prov = {**row.provenance, "tokens": n, "copy": copies[row.key]}
        copies[row.key] += 1
        doc = {"messages": row.messages, "tools": json.dumps(row.tools, sort_keys=True), "provenance": prov}
        lines.append(json.dumps(doc, sort_keys=True, ensure_ascii=False, allow_nan=False))
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".partial", dir=out.parent)  # no user's file
    with os.fdopen(fd, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, out)
