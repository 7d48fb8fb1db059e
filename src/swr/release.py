"""The on-disk layout of a release — the only module that knows where files live."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from swr.errors import SwrError
from swr.judge import Tolerances
from swr.judge.tolerance import artifact_options
from swr.sandbox import Limits, MiB
from swr.sandbox.images import pin
from swr.spec import SPEC_FILE, WorkflowSpec, load_spec

RELEASE_JSON = "release.json"
TASKS = "tasks"
TASK_TOML = "task.toml"
INSTRUCTION = "instruction.md"


@dataclass
class Example:
    index: int
    scenario: dict[str, Any]
    output: Any
    files: Path | None = None  # where its artifact files are (the example's own directory once written)
    artifacts: tuple[str, ...] = ()  # the names among `files` that the output refers to


class Forbidden:
    """task.toml's `[anticheat]` lists, whatever the task's kind (a mixin over `meta`)."""

    meta: dict[str, Any]

    @property
    def forbidden_packages(self) -> tuple[str, ...]:
        """Packages a candidate must not use: unimportable in its sandbox, and named by anti-cheat."""
        return tuple(self.meta.get("anticheat", {}).get("forbidden_packages", ()))

    @property
    def forbidden_binaries(self) -> tuple[str, ...]:
        """Programs a candidate must not run: absent from its sandbox's PATH."""
        return tuple(self.meta.get("anticheat", {}).get("forbidden_binaries", ()))


@dataclass
class Task(Forbidden):
    """A task as graders, agents and audits see it; `hidden` is empty in a public-only workspace."""

    id: str
    root: Path
    meta: dict[str, Any]
    tolerances: Tolerances
    limits: Limits
    public: list[Example]
    hidden: list[Example] = field(default_factory=list)

    @property
    def pass_threshold(self) -> float:
        """Share of hidden scenarios a pass needs: 1 unless a task.toml `[grading]` table lowers it
        (imported verifiers sometimes do; `swr audit lint` flags it)."""
        return float(self.meta.get("grading", {}).get("pass_threshold", 1.0))

    @property
    def files_dir(self) -> Path | None:
        d = self.root / "public" / "files"
        return d if d.is_dir() else None

    @property
    def reference_dir(self) -> Path:
        return self.root / "private" / "reference"

    @property
    def gates(self) -> dict[str, Any]:
        """Every gate's result as the build recorded it ({} in a public-only copy)."""
        path = gates_path(self.root)
        return _read_json(path).get("gates", {}) if path.is_file() else {}

    @property
    def environment(self) -> dict[str, Any]:
        """What the task runs in: pinned `pip` and `apt` packages, or a named `image` (task.toml)."""
        return dict(self.meta.get("environment", {}))

    def reference_spec(self) -> WorkflowSpec:
        if not (self.reference_dir / SPEC_FILE).is_file():
            raise SwrError("this task has no private reference (a public-only copy?)", file=self.root)
        return load_spec(self.reference_dir)


def dump_json(obj: Any) -> str:
    """The release's one JSON style: sorted keys, 2-space indent, trailing newline."""
    return json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def task_dir(release: Path, task_id: str) -> Path:
    return release / TASKS / task_id


def gates_path(root: Path) -> Path:
    return root / "private" / "gates.json"


def write_gates(root: Path, gates: dict[str, Any]) -> None:
    _write(gates_path(root), dump_json({"gates": gates}))


PUBLIC_EXAMPLES = Path("public", "examples")
HIDDEN_EXAMPLES = Path("private", "hidden")


def write_task(root: Path, meta: dict[str, Any], instruction: str, schema: dict[str, Any],
               public: list[Example], hidden: list[Example], reference_src: Path, files: list[str]) -> Task:
    """Write one task directory (gates.json comes after the final gates); `files` travel with the task.
    Returns the task as written, for the build's final gates, without reading it back."""
    _write(root / TASK_TOML, tomli_w.dumps(meta))
    _write(root / INSTRUCTION, instruction)
    _write(root / "public" / "schema.json", dump_json(schema))
    for split, examples in ((PUBLIC_EXAMPLES, public), (HIDDEN_EXAMPLES, hidden)):
        for ex in examples:
            d = root / split / str(ex.index)
            _write(d / "scenario.json", dump_json(ex.scenario))
            _write(d / "output.json", dump_json(ex.output))
            for name in ex.artifacts:
                shutil.copyfile(ex.files / name, d / name)  # type: ignore[operator]
    for rel in files:
        dst = root / "public" / "files" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(reference_src / rel, dst)
    shutil.copytree(reference_src, root / "private" / "reference",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return _task(root, root / TASK_TOML, meta, [_as_written(ex, root / PUBLIC_EXAMPLES) for ex in public],
                 [_as_written(ex, root / HIDDEN_EXAMPLES) for ex in hidden])


def _as_written(ex: Example, split_dir: Path) -> Example:
    """An example as load_task reads it from its directory: values as the JSON files hold them (sorted keys,
    which the oracle then receives on stdin like every later candidate), files in the example's directory."""
    return Example(ex.index, json.loads(dump_json(ex.scenario)), json.loads(dump_json(ex.output)),
                   split_dir / str(ex.index))


def _examples(d: Path) -> list[Example]:
    if not d.is_dir():
        return []
    out = []
    for sub in sorted((p for p in d.iterdir() if p.name.isdigit()), key=lambda p: int(p.name)):
        out.append(Example(int(sub.name), _read_json(sub / "scenario.json"), _read_json(sub / "output.json"), sub))
    return out


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SwrError(f"unreadable JSON: {e}", file=path) from None


def load_task(root: str | Path) -> Task:
    """Load a task directory (full, or a public-only workspace copy)."""
    root = Path(root)
    path = root / TASK_TOML
    try:
        meta = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise SwrError(f"not a task directory (no {TASK_TOML})", file=root) from None
    except tomllib.TOMLDecodeError as e:
        raise SwrError(f"invalid TOML: {e}", file=path) from None
    return _task(root, path, meta, _examples(root / PUBLIC_EXAMPLES), _examples(root / HIDDEN_EXAMPLES))


def _task(root: Path, path: Path, meta: dict[str, Any], public: list[Example], hidden: list[Example]) -> Task:
    """A Task from task.toml's table (`path` names the file in errors) and its examples."""
    try:
        tol, lim = meta["tolerances"], meta["limits"]
        fields = tol.get("fields", {})
        tolerances = Tolerances(atol=tol["atol"], rtol=tol["rtol"], ignore=tuple(tol.get("ignore", ())),
                                fields=tuple((p, f.get("atol"), f.get("rtol")) for p, f in fields.items()),
                                artifacts=artifact_options({p: f["artifact"] for p, f in fields.items() if "artifact" in f}))
        limits = Limits(time_s=lim["time_s"], memory_bytes=lim["memory_mb"] * MiB, pids=lim["pids"],
                        stdout_bytes=lim["stdout_mb"] * MiB)
        task_id = meta["id"]
    except KeyError as e:
        raise SwrError("is required but missing", file=path, field=str(e.args[0])) from None
    return Task(task_id, root, meta, tolerances, limits, public, hidden)


def task_meta(spec: WorkflowSpec, task_id: str, variant: int, limits: Limits) -> dict[str, Any]:
    tol = spec.tolerances
    fields = {p: {k: v for k, v in (("atol", a), ("rtol", r)) if v is not None} for p, a, r in tol.fields}
    for p, opts in tol.artifacts:
        fields.setdefault(p, {})["artifact"] = json.loads(opts)
    return {
        "id": task_id, "workflow": spec.name, "family": spec.family, "domain": spec.domain, "variant": variant,
        "workflow_hash": spec.content_hash,
        "limits": {"time_s": limits.time_s, "memory_mb": limits.memory_bytes // MiB, "pids": limits.pids,
                   "stdout_mb": limits.stdout_bytes // MiB},
        "tolerances": {"atol": tol.atol, "rtol": tol.rtol, "ignore": list(tol.ignore), "fields": fields},
        "environment": environment(spec),
        **({"anticheat": {"forbidden_packages": list(spec.forbidden_packages)}} if spec.forbidden_packages else {}),
    }


def environment(spec: WorkflowSpec) -> dict[str, Any]:
    """The workflow's `[requires]`, pip packages pinned to the versions the references ran with."""
    env: dict[str, Any] = {"python": "{}.{}".format(*sys.version_info[:2]), "pip": [pin(r) for r in spec.requires.pip],
                           "apt": sorted(spec.requires.apt)}
    if spec.requires.image:
        env["image"] = spec.requires.image
    return env


def list_tasks(release: str | Path) -> list[Path]:
    d = Path(release) / TASKS
    if not d.is_dir():
        raise SwrError(f"not a release (no {TASKS}/ directory)", file=release)
    return sorted(p for p in d.iterdir() if (p / TASK_TOML).is_file())


def load_release(release: str | Path) -> dict[str, Any]:
    return _read_json(Path(release) / RELEASE_JSON)


def tree_hash(root: Path) -> str:
    """Content hash over every file under root: what `release.json` certifies."""
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for fn in sorted(filenames):
            p = Path(dirpath, fn)
            h.update(p.relative_to(root).as_posix().encode() + b"\0")
            h.update(hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()


def finish_release(staging: Path, final: Path, summary: dict[str, Any]) -> None:
    """Seal: hash the tasks, write release.json, then swap the staging dir in atomically."""
    summary = {**summary, "content_hash": tree_hash(staging / TASKS) if (staging / TASKS).is_dir() else None}
    _write(staging / RELEASE_JSON, dump_json(summary))
    if final.exists():
        old = final.with_name(final.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        final.rename(old)
        staging.rename(final)
        shutil.rmtree(old, ignore_errors=True)
    else:
        staging.rename(final)


def staging_dir(final: Path) -> Path:
    d = final.with_name(final.name + ".partial")
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    return d
