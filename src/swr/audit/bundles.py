"""`swr audit bundles`: blinded human-audit bundles (SWR Tables 13–14). Per sampled task, one expected-valid
and one expected-invalid candidate output, shuffled into cases A and B beside the reference; which is which,
the mutant class and the verifier's decision go to a key file kept outside the bundle directory."""

from __future__ import annotations

import csv
import html
import io
import json
import random
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swr.core.errors import SwrError
from swr.core.jsonfile import dump_json
from swr.core.layout import TaskPaths
from swr.core.outputs import BUNDLES, claim, scratch_beside, swap_in
from swr.core.release_dir import list_tasks
from swr.judge import Execution, judge_scenario
from swr.judge.artifacts import artifact_kind
from swr.judge.artifacts.fields import RESERVED, Reference, artifact_leaves, safe_file
from swr.kinds import covered
from swr.kinds.workflow.task import Example, Task, load_workflow_task

from .mutants import Mutant
from .mutation import designed_valid, task_mutants

LABEL_COLUMNS = ("bundle_id", "case", "label", "note")
LABELS_CSV = "labels.csv"
CASES = ("A", "B")
REFERENCE_DIR = "reference"
PAGE = "index.html"
INLINE_TABLE_LINES = 40
HOW_TO_LABEL = (
    "For every case, write one of valid, invalid or unsure in the label column of labels.csv: "
    "valid when the case gives the same answer as the reference for this scenario, up to the comparison "
    "rules, invalid when it does not."
)


@dataclass
class Case:
    """One candidate output shown to annotators, and what only the key may know about it."""

    mutant: Mutant
    designed_valid: bool


def key_path_for(out: Path, key: Path | None) -> Path:
    """DIR.key.json beside the bundle directory unless given; never inside it, where annotators would see it."""
    path = (key or out.with_name(out.name + ".key.json")).resolve()
    if path == out.resolve() or out.resolve() in path.parents:
        raise SwrError("the key must be written outside the bundle directory", file=path, field="--key")
    return path


def write_bundles(
    release: Path, out: Path, *, tasks: int | None = None, seed: int = 0, key: Path | None = None
) -> dict[str, Any]:
    """Write the bundles, labels.csv and the key; return a summary that reveals no case's label."""
    key_file = key_path_for(out, key)
    claim(out, BUNDLES)  # a new or empty directory: nothing of the user's is replaced
    roots = list_tasks(release)
    order, not_applicable = covered(roots, "bundles")
    random.Random(f"swr-bundles:{seed}").shuffle(order)
    staging = scratch_beside(out, "partial")  # a fresh name: no user's file is removed to make room
    keyed: list[dict[str, Any]] = []
    try:
        for root in order:
            if tasks is not None and len(keyed) >= tasks:
                break
            entry = _bundle(load_workflow_task(root), staging, f"bundle-{len(keyed) + 1:03d}", seed)
            (not_applicable if "why" in entry else keyed).append(entry)
        (staging / LABELS_CSV).write_text(_label_sheet([b["bundle_id"] for b in keyed]))
        (staging / PAGE).write_text(_index_page([b["bundle_id"] for b in keyed]))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    swap_in(staging, out)  # replaces only the empty directory claimed above
    doc = {
        "release": str(release),
        "seed": seed,
        "bundle_dir": str(out),
        "bundles": keyed,
        "not_applicable": sorted(not_applicable, key=lambda n: n["task"]),
    }
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_text(dump_json(doc))
    return {
        "out": str(out),
        "labels": str(out / LABELS_CSV),
        "key": str(key_file),
        "bundles": len(keyed),
        "tasks": [{"bundle_id": b["bundle_id"], "task": b["task"]} for b in keyed],
        "not_applicable": doc["not_applicable"],
    }


def _has_mesh(ref: Reference, task: Task) -> bool:
    return any(artifact_kind(Path(name)) == "mesh" for _, name in artifact_leaves(ref, task.tolerances))


def _pick(pool: list[Mutant], geometry: bool, rng: random.Random) -> Mutant | None:
    """A geometry task's case comes from the mesh classes when there are any."""
    preferred = [m for m in pool if m.klass.startswith("mesh_")] if geometry else []
    choices = preferred or pool
    return rng.choice(choices) if choices else None


def _designed(m: Mutant) -> bool:
    """The validity a class is built to have (for task-dependent classes, the oracle's own decision)."""
    designed = designed_valid(m.klass)
    return m.valid if designed is None else designed


def _cases(task: Task, index: int, scratch: Path, seed: int, rng: random.Random) -> tuple[Case, Case] | None:
    """(expected valid, expected invalid): mutants whose designed validity the audit's oracle confirms."""
    h = task.hidden[index]
    ref = Reference(h.output, h.files)
    mutants = [m for i, m in task_mutants(task, 1, scratch, seed) if i == index]
    valid = [m for m in mutants if m.valid and _designed(m)]
    invalid = [m for m in mutants if not m.valid and not _designed(m)]
    geometry = _has_mesh(ref, task)
    good = _pick(valid, geometry, rng) or Mutant("reference_output", True, json.dumps(h.output).encode(), h.files)
    bad = _pick(invalid, geometry, rng)
    return None if bad is None else (Case(good, True), Case(bad, False))


def _bundle(task: Task, out: Path, bundle_id: str, seed: int) -> dict[str, Any]:
    """Write one bundle directory; return its key entry (or a not-applicable entry with a reason)."""
    if not task.hidden:
        return {"task": task.id, "kind": "workflow", "why": "no hidden scenarios (a public-only copy?)"}
    rng = random.Random(f"swr-bundles:{seed}:{task.id}")
    index = rng.randrange(len(task.hidden))
    h = task.hidden[index]
    with tempfile.TemporaryDirectory(prefix="swr-bundle-") as scratch:
        picked = _cases(task, index, Path(scratch), seed, rng)
        if picked is None:
            return {"task": task.id, "kind": "workflow", "why": "no mutant of its outputs must be rejected"}
        shown = list(picked) if rng.random() < 0.5 else [picked[1], picked[0]]
        ref = Reference(h.output, h.files)
        geometry = _has_mesh(ref, task)
        d = out / bundle_id
        ref_links = _copy_artifacts(h.output, h.files, d / REFERENCE_DIR)
        panels = [_panel("Reference", dump_json(h.output), REFERENCE_DIR, ref_links, d)]
        cases: dict[str, Any] = {}
        for name, case in zip(CASES, shown):
            text = case.mutant.stdout.decode("utf-8", "replace")
            links = _copy_artifacts(_parsed(text), case.mutant.files, d / name)
            (d / name).mkdir(parents=True, exist_ok=True)
            (d / name / "stdout.txt").write_text(text)
            panels.append(_panel(f"Case {name}", text, name, links, d))
            cases[name] = _key_case(task, index, ref, case, geometry)
    (d / PAGE).write_text(_page(bundle_id, task, h, panels))
    return {
        "bundle_id": bundle_id,
        "task": task.id,
        "kind": "workflow",
        "hidden_index": index,
        "stratum": "geometry" if geometry else "structured",
        "cases": cases,
    }


def _key_case(task: Task, index: int, ref: Reference, case: Case, geometry: bool) -> dict[str, Any]:
    """What the key records about one case: its origin, designed validity, stratum and the verifier's decision."""
    m = case.mutant
    res = judge_scenario(
        ref, Execution(0, m.stdout, artifacts=m.files, trusted=True), task.tolerances, split="hidden", index=index
    )
    kind = "geometry" if geometry else "structured"
    return {
        "class": m.klass,
        "designed_valid": case.designed_valid,
        "stratum": f"{kind} {'valid' if case.designed_valid else 'invalid'}",
        "verifier_accepts": bool(res["pass"]),
        "verifier_labels": res["labels"],
    }


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _strings(doc: Any) -> list[str]:
    if isinstance(doc, dict):
        return [s for v in doc.values() for s in _strings(v)]
    if isinstance(doc, list):
        return [s for v in doc for s in _strings(v)]
    return [doc] if isinstance(doc, str) else []


def _copy_artifacts(doc: Any, files: Path | None, dest: Path) -> list[str]:
    """Copy the artifact files the output names (regular files only) next to the page; their names, in order."""
    names: list[str] = []
    for s in _strings(doc):
        src = safe_file(files, s)
        if src is None or s in RESERVED or s in names:
            continue
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dest / s)
        names.append(s)
    return names


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _artifact_html(folder: str, name: str, d: Path) -> str:
    """A link to the copied file; images inline, small text tables inline too."""
    href = f"{folder}/{name}"
    link = f'<a href="{_esc(href)}">{_esc(name)}</a>'
    kind = artifact_kind(Path(name))
    if kind == "image":
        return f'{link}<br><img src="{_esc(href)}" alt="{_esc(name)}">'
    if kind == "mesh":
        return f'{link}<pre class="data">{_esc(_mesh_summary(d / folder / name))}</pre>'
    if kind == "table" and Path(name).suffix.lower() in (".csv", ".tsv"):
        lines = (d / folder / name).read_text(errors="replace").splitlines()
        more = "\n…" if len(lines) > INLINE_TABLE_LINES else ""
        return f'{link}<pre class="data">{_esc(chr(10).join(lines[:INLINE_TABLE_LINES]) + more)}</pre>'
    return link


def _vector(v: Any) -> str:
    return "[" + ", ".join(f"{x:.6g}" for x in v) + "]"


def _mesh_summary(path: Path) -> str:
    """Size, extent, area and volume of a mesh, so that annotators can compare meshes without a viewer."""
    import trimesh

    try:
        m: Any = trimesh.load(path, force="mesh", process=False)
        lo, hi = m.bounds
    except Exception as e:  # noqa: BLE001 - any unreadable file is shown as such, the bundle is still written
        return f"not readable as a mesh: {type(e).__name__}"
    return (
        f"{len(m.vertices)} vertices, {len(m.faces)} faces\nextent {_vector(lo)} to {_vector(hi)}\n"
        f"area {m.area:.6g}, volume {m.volume:.6g}"
    )


def _panel(title: str, text: str, folder: str, links: list[str], d: Path) -> str:
    files = "".join(f"<li>{_artifact_html(folder, n, d)}</li>" for n in links)
    return (
        f'<section class="panel"><h2>{_esc(title)}</h2><h3>Output</h3><pre class="data">{_esc(text)}</pre>'
        + (f"<h3>Files</h3><ul>{files}</ul>" if files else "")
        + "</section>"
    )


STYLE = (
    "body{font-family:sans-serif;margin:1.5em}pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;"
    "padding:.5em;max-height:40em;overflow:auto}.panels{display:grid;grid-template-columns:repeat(3,1fr);"
    "gap:1em}img{max-width:100%}"
)


def _rules(task: Task) -> str:
    """The task's comparison rules (tolerances), the same for both cases."""
    return dump_json(task.meta.tolerances.model_dump(mode="json", exclude_none=True))


def _page(bundle_id: str, task: Task, h: Example, panels: list[str]) -> str:
    instruction = TaskPaths(task.root).instruction.read_text()
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{_esc(bundle_id)}</title>'
        f"<style>{STYLE}</style></head><body>\n<h1>{_esc(bundle_id)}: {_esc(task.id)}</h1>\n"
        f'<p><a href="../{PAGE}">All bundles</a> · label sheet: ../{LABELS_CSV}</p>\n'
        f'<h2>Instruction</h2><pre class="data">{_esc(instruction)}</pre>\n'
        f'<h2>Scenario</h2><pre class="data">{_esc(dump_json(h.scenario))}</pre>\n'
        f'<h2>Comparison rules</h2><pre class="data">{_esc(_rules(task))}</pre>\n'
        f'<div class="panels">{"".join(panels)}</div>\n</body></html>\n'
    )


def _index_page(ids: list[str]) -> str:
    items = "".join(f'<li><a href="{_esc(i)}/{PAGE}">{_esc(i)}</a></li>' for i in ids)
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>audit bundles</title>'
        f"<style>{STYLE}</style></head><body>\n<h1>Audit bundles</h1>\n"
        f'<p id="how-to-label">{_esc(HOW_TO_LABEL)}</p>\n'
        f"<ul>{items}</ul>\n</body></html>\n"
    )


def _label_sheet(ids: list[str]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(LABEL_COLUMNS)
    for i in ids:
        for c in CASES:
            w.writerow((i, c, "", ""))
    return buf.getvalue()
