"""`swr audit freeze`: the first half of the post-freeze audit (SWR §4.3). The mutation generator is validated
on a seeded pilot set, its source hashed as frozen, and a disjoint held-out set drawn (two tasks per family
plus named high-risk ones) for `swr audit held-out`, which refuses to run once the generator has changed."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError, load_json
from swr.core.hashing import tree_hash
from swr.core.jsonfile import dump_json
from swr.core.layout import ReleasePaths
from swr.core.release_dir import list_tasks, task_dir
from swr.kinds import covered
from swr.kinds.engine.kind import NOT_APPLICABLE as ENGINE_NA
from swr.kinds.taskfile import read_task_file

from .mutation import audit_task, designed_valid, summarise

# The generator: the mutation and held-out audits and every swr.audit module they import (the classes, the
# oracle that labels them), found by reading their imports, so that a new class module is covered too.
GENERATOR_ROOTS = ("swr.audit.mutation", "swr.audit.heldout")
PACKAGE = "swr.audit"
PER_FAMILY = 2
ENGINE_WHY = ENGINE_NA["freeze"]  # why an engine task takes no part
RECORD_FIELDS = ("generator_hash", "seed", "pilot", "held_out", "high_risk", "trials_per_class")


def freeze_path(release: Path) -> Path:
    return ReleasePaths(release).freeze


def module_source(name: str) -> bytes:
    """The source of one generator module, as the interpreter would load it."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise SwrError(f"generator module {name} not found")
    return Path(spec.origin).read_bytes()


def _imported(name: str) -> set[str]:
    """The swr.audit modules one module imports (relative or absolute)."""
    found = set()
    for node in ast.walk(ast.parse(module_source(name))):
        if isinstance(node, ast.ImportFrom):
            base = f"{PACKAGE}.{node.module}" if node.level == 1 and node.module else node.module or PACKAGE
            found |= {f"{base}.{a.name}" if base == PACKAGE else base for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {m for m in found if m.startswith(PACKAGE + ".") and importlib.util.find_spec(m) is not None}


def generator_modules() -> list[str]:
    """GENERATOR_ROOTS and every swr.audit module they reach through imports."""
    seen: set[str] = set()
    todo = list(GENERATOR_ROOTS)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += sorted(_imported(name) - seen)
    return sorted(seen)


def generator_hash() -> str:
    """A content hash of the generator's source: any edit to any of its modules changes it."""
    h = hashlib.sha256()
    for name in generator_modules():
        h.update(name.encode() + b"\0" + hashlib.sha256(module_source(name)).digest())
    return h.hexdigest()


def parse_ids(values: list[str]) -> list[str]:
    """Task ids given as repeated options and/or comma-separated lists, in order, without repeats."""
    return list(dict.fromkeys(x.strip() for v in values for x in v.split(",") if x.strip()))


def families(release: Path) -> tuple[dict[str, list[str]], list[dict[str, str]]]:
    """Workflow task ids by family, and the tasks the audit does not apply to (with the reason)."""
    by_family: dict[str, list[str]] = {}
    not_applicable: list[dict[str, str]] = []
    roots, not_applicable = covered(list_tasks(release), "freeze")
    for root in roots:
        meta = read_task_file(root)
        by_family.setdefault(meta.family, []).append(meta.id)
    return {f: sorted(ids) for f, ids in sorted(by_family.items())}, not_applicable


def draw(
    by_family: dict[str, list[str]], pilot: int, held_out: int, high_risk: list[str], seed: int
) -> tuple[list[str], list[str]]:
    """(pilot, held-out), disjoint and seeded. The held-out set's core is reserved first (the high-risk
    tasks and two more from each family), the pilot drawn from the rest, and the held-out set topped up
    to its size from what is left."""
    rng = random.Random(f"swr-freeze:{seed}")
    held = list(high_risk)
    for ids in by_family.values():
        pool = [t for t in ids if t not in held]
        held += rng.sample(pool, min(PER_FAMILY, len(pool)))
    if len(held) > held_out:
        raise SwrError(
            f"{held_out} tasks cannot hold {PER_FAMILY} from each of {len(by_family)} families plus "
            f"{len(high_risk)} high-risk ones ({len(held)})",
            field="--held-out",
        )
    rest = sorted({t for ids in by_family.values() for t in ids} - set(held))
    chosen = rng.sample(rest, min(pilot, len(rest)))
    left = sorted(set(rest) - set(chosen))
    held += rng.sample(left, min(held_out - len(held), len(left)))
    return sorted(chosen), sorted(held)


def validate_pilot(release: Path, pilot: list[str], per_class: int, jobs: int, seed: int) -> dict[str, Any]:
    """The mutation generator on the pilot set: every designed class should be decided correctly, and
    every mutant should land on the side of the tolerance its class intends."""
    roots = [task_dir(release, t) for t in pilot]
    parts = []
    if roots:
        with ProcessPoolExecutor(max(1, min(jobs, len(roots)))) as pool:
            parts = list(pool.map(audit_task, roots, [per_class] * len(roots), [seed] * len(roots), chunksize=2))
    s = summarise(parts)
    designed = {c["name"]: designed_valid(c["name"].split(" (")[0]) for c in s["classes"]}
    off_design = [c["name"] for c in s["classes"] if designed[c["name"]] not in (None, c["valid"])]
    return {
        "tasks": len(roots),
        "trials": s["trials"],
        "false_accepts": s["false_accepts"],
        "false_rejects": s["false_rejects"],
        "off_design_classes": off_design,
        "wrong_decisions": s["wrong_decisions"],
        "classes": s["classes"],
    }


def freeze_audit(
    release: Path,
    *,
    pilot: int = 100,
    held_out: int = 100,
    high_risk: list[str] | None = None,
    seed: int = 0,
    per_class: int = 3,
    trials_per_class: int = 2,
    jobs: int = 2,
) -> dict[str, Any]:
    """Draw the sets, validate the generator on the pilot, and write the freeze record."""
    by_family, not_applicable = families(release)
    known = {t for ids in by_family.values() for t in ids}
    risky = parse_ids(high_risk or [])
    for t in risky:
        if t not in known:
            why = "an engine task" if t in {n["task"] for n in not_applicable} else "no workflow task of the release"
            raise SwrError(f"{t} is {why}", field="--high-risk")
    chosen, held = draw(by_family, pilot, held_out, risky, seed)
    record = {
        "generator_hash": generator_hash(),
        "generator_modules": generator_modules(),
        "seed": seed,
        "pilot": chosen,
        "held_out": held,
        "high_risk": risky,
        "trials_per_class": trials_per_class,
        "pilot_requested": pilot,
        "held_out_requested": held_out,
        "families": len(by_family),
        "not_applicable": not_applicable,
        "release_hash": tree_hash(ReleasePaths(release).tasks),
        "pilot_validation": validate_pilot(release, chosen, per_class, jobs, seed),
    }
    path = freeze_path(release)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump_json(record))
    return {"release": str(release), "path": str(path), **record}


def load_freeze(release: Path) -> dict[str, Any]:
    """The freeze record, refused when missing, malformed, or when the generator changed since."""
    path = freeze_path(release)
    if not path.is_file():
        raise SwrError("no freeze record: run `swr audit freeze` on this release first", file=path)
    record = load_json(path)
    for name in RECORD_FIELDS:
        if not isinstance(record, dict) or name not in record:
            raise SwrError("is required but missing", file=path, field=name)
    now = generator_hash()
    if record["generator_hash"] != now:
        raise SwrError(
            f"the mutation generator changed after freezing (frozen {str(record['generator_hash'])[:12]}, "
            f"now {now[:12]}): freeze again on a new pilot set",
            file=path,
            field="generator_hash",
        )
    for t in record["held_out"]:
        if not (task_dir(release, t)).is_dir():
            raise SwrError(f"held-out task {t} is not in the release", file=path, field="held_out")
    return record
