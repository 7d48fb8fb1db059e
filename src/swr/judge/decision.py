"""Per-scenario judging (exec -> parse -> compare) and the task verdict with anti-shortcut."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from .artifacts.fields import Reference, artifact_leaves, as_reference, judge_files, substitute
from .compare import LABEL_ORDER, compare, equal
from .shape import count_leaves, project
from .tolerance import Tolerances

if TYPE_CHECKING:
    from .artifacts.code import CodeRunner

STAGE_ORDER = (
    "missing_candidate",
    "execution_failure",
    "parse_failure",
    "schema_failure",
    "input_independent",
    "public_replay",
    "numeric_mismatch",
    "categorical_mismatch",
    "structural_mismatch",
    "artifact_mismatch",
)
STDERR_TAIL = 2000
_RANK = {lab: i for i, lab in enumerate(STAGE_ORDER)}


@dataclass
class Execution:
    """What the sandbox reports for one candidate run."""

    returncode: int | None
    stdout: bytes
    stderr: bytes = b""
    limit: str | None = None
    wall_s: float = 0.0
    artifacts: Path | None = None  # the directory it wrote its artifact files to
    # files swr made itself (the reference's runs, a mutant of them, a public output): decoded in this process;
    # a candidate's files (the default) only in the bounded child (artifacts/bounded.py)
    trusted: bool = False
    runner: CodeRunner | None = None  # runs a code artifact in the task's sandbox (artifacts/code.py)


def stage_sorted(labels: Any) -> list[str]:
    """Distinct labels in STAGE_ORDER (unknown labels last, alphabetically)."""
    return sorted(set(labels), key=lambda lab: (_RANK.get(lab, len(_RANK)), lab))


def parse_output(stdout: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """(object, None) when stdout is exactly one JSON object, else (None, reason)."""
    try:
        text = stdout.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, f"stdout is not UTF-8: {e}"
    try:
        doc = json.loads(text)
    except RecursionError:
        return None, "stdout JSON is nested too deeply"
    except ValueError as e:  # JSONDecodeError, and ints beyond the digit limit
        return None, f"stdout is not one JSON value: {e}"
    if type(doc) is not dict:
        return None, f"stdout is a JSON {type(doc).__name__}, not an object"
    return doc, None


def _tail(stderr: bytes) -> str:
    """The last STDERR_TAIL characters of stderr (decoding only the end of it)."""
    return stderr[-4 * STDERR_TAIL :].decode("utf-8", errors="replace")[-STDERR_TAIL:]


def _safe_float(x: float) -> float | str:
    """JSON-safe float (non-finite values become strings)."""
    if math.isfinite(x):
        return x
    return "NaN" if x != x else ("Infinity" if x > 0 else "-Infinity")


def judge_scenario(reference: Any, ex: Execution, tol: Tolerances, *, split: str, index: int) -> dict[str, Any]:
    """Grade one run; "_output" keeps the parsed output with artifact digests, projected onto the
    reference's structure, for anti-shortcut (stripped by to_json)."""
    ref = as_reference(reference)
    out: dict[str, Any] = {
        "split": split,
        "index": index,
        "pass": False,
        "label": None,
        "labels": [],
        "field_agreement": 0.0,
        "matched": 0,
        "total": 0,
        "mismatches": [],
        "extra_keys": [],
        "exit_code": ex.returncode,
        "limit": ex.limit,
        "wall_s": _safe_float(float(ex.wall_s)),
        "stderr_tail": _tail(ex.stderr),
        "detail": None,
        "_output": None,
    }
    if ex.limit is not None or ex.returncode != 0:
        failure = f"limit exceeded: {ex.limit}" if ex.limit else f"exit code {ex.returncode}"
        return _failed(out, "execution_failure", failure, ref.output, tol)
    doc, why = parse_output(ex.stdout)
    if doc is None:
        return _failed(out, "parse_failure", why, ref.output, tol)
    leaves = artifact_leaves(ref, tol)
    out["_output"] = project(substitute(doc, leaves, ex.artifacts, "digest") if leaves else doc, ref.output)
    cmp = compare(substitute(ref.output, leaves, ref.files, "mask"), substitute(doc, leaves, ex.artifacts, "mask"), tol)
    bad = judge_files(ref, leaves, doc, ex.artifacts, tol, ex.trusted, ex.runner) if leaves else []
    labels = stage_sorted([*cmp.labels, *(m.label for m in bad)])
    out.update(
        {
            "pass": cmp.ok and not bad,
            "label": labels[0] if labels else None,
            "labels": labels,
            "field_agreement": (cmp.matched - len(bad)) / cmp.total if cmp.total else 1.0,
            "matched": cmp.matched - len(bad),
            "total": cmp.total,
            "mismatches": [m.to_json() for m in [*cmp.mismatches, *bad]],
            "extra_keys": cmp.extra_keys,
        }
    )
    if cmp.extra_count > len(cmp.extra_keys):
        out["detail"] = f"{cmp.extra_count} extra keys, first {len(cmp.extra_keys)} listed"
    return out


def reference_view(ref: Any, tol: Tolerances) -> Any:
    """A reference output as equality checks see it: artifact names replaced by file digests."""
    r = as_reference(ref)
    leaves = artifact_leaves(r, tol)
    return substitute(r.output, leaves, r.files, "digest") if leaves else r.output


def _failed(out: dict[str, Any], label: str, why: str | None, reference: Any, tol: Tolerances) -> dict[str, Any]:
    """A scenario failing before comparison: every graded reference leaf is unmatched."""
    out.update({"label": label, "labels": [label], "detail": why, "total": count_leaves(reference, (), tol)})
    return out


def anti_shortcut(refs: list[Any], outputs: list[Any], public_refs: list[Any], tol: Tolerances) -> list[dict[str, Any]]:
    """Hidden-set shortcut findings: input-independent outputs and replayed public outputs."""
    found: list[dict[str, Any]] = []
    idx = [i for i, o in enumerate(outputs) if o is not None]
    for a, i in enumerate(idx):
        for j in idx[a + 1 :]:
            if equal(outputs[i], outputs[j], tol) and not equal(refs[i], refs[j], tol):
                found.append({"label": "input_independent", "hidden": [i, j]})
    for i in idx:
        for p, pref in enumerate(public_refs):
            if equal(pref, outputs[i], tol) and not equal(pref, refs[i], tol):
                found.append({"label": "public_replay", "hidden": i, "public": p})
                break
    return found


def _mean_j(scen: list[dict[str, Any]]) -> float | None:
    """Mean of J (1 if the scenario passed) over a split; None for an empty split."""
    return sum(1.0 for s in scen if s["pass"]) / len(scen) if scen else None


def _agreement(scen: list[dict[str, Any]]) -> float:
    """Matched over total graded leaves summed over scenarios (1.0 if nothing graded)."""
    total = sum(s["total"] for s in scen)
    return sum(s["matched"] for s in scen) / total if total else 1.0


def verdict(
    task: str,
    hidden: list[tuple[Any, Execution]],
    public: list[tuple[Any, Execution]],
    tol: Tolerances,
    *,
    public_refs: list[Any] | None = None,
    split_for_pass: str | None = None,
    threshold: float = 1.0,
) -> dict[str, Any]:
    """Task verdict; with no hidden runs (or split_for_pass="public") it is `swr feedback`."""
    hid = [judge_scenario(r, ex, tol, split="hidden", index=i) for i, (r, ex) in enumerate(hidden)]
    pub = [judge_scenario(r, ex, tol, split="public", index=i) for i, (r, ex) in enumerate(public)]
    prefs = [r for r, _ in public] if public_refs is None else list(public_refs)
    return decide(
        task, hid, pub, [r for r, _ in hidden], prefs, tol, split_for_pass=split_for_pass, threshold=threshold
    )


def decide(
    task: str,
    hid: list[dict[str, Any]],
    pub: list[dict[str, Any]],
    hidden_refs: list[Any],
    public_refs: list[Any],
    tol: Tolerances,
    *,
    split_for_pass: str | None = None,
    threshold: float = 1.0,
) -> dict[str, Any]:
    """The verdict from scenarios already judged (judge_scenario): anti-shortcut needs only their
    "_output" (artifact digests, not files) and the references, so a grade can drop each run's files as
    soon as the run is judged."""
    mode = split_for_pass or ("hidden" if hid else "public")
    if mode not in ("hidden", "public"):
        raise ValueError(f"split_for_pass must be 'hidden' or 'public', got {mode!r}")
    graded = hid if mode == "hidden" else pub
    findings: list[dict[str, Any]] = []
    if mode == "hidden":
        findings = anti_shortcut(
            [reference_view(r, tol) for r in hidden_refs],
            [s["_output"] for s in hid],
            [reference_view(r, tol) for r in public_refs],
            tol,
        )
    r_hid, r_pub = _mean_j(hid), _mean_j(pub)
    score = r_hid if mode == "hidden" else r_pub
    labels = stage_sorted([lab for s in graded for lab in s["labels"]] + [f["label"] for f in findings])
    passed = bool(graded) and score is not None and score >= threshold and not findings
    return cast(
        dict[str, Any],
        to_json(
            {
                "task": task,
                "pass": passed,
                "label": "pass" if passed else (labels[0] if labels else None),
                "labels": labels,
                "r_hid": r_hid if mode == "public" else (r_hid or 0.0),
                "r_pub": r_pub,
                "field_agreement": _agreement(graded),
                "anti_shortcut": findings,
                "scenarios": hid + pub,
            }
        ),
    )


def missing_candidate(task: str, reason: str) -> dict[str, Any]:
    """Verdict for a candidate without an executable `run`."""
    return {
        "task": task,
        "pass": False,
        "label": "missing_candidate",
        "labels": ["missing_candidate"],
        "r_hid": 0.0,
        "r_pub": 0.0,
        "field_agreement": 0.0,
        "anti_shortcut": [],
        "scenarios": [],
        "detail": reason,
    }


def to_json(obj: Any) -> Any:
    """Copy of a verdict/scenario without private "_" keys (JSON-safe floats)."""
    if isinstance(obj, dict):
        return {k: to_json(v) for k, v in obj.items() if not (isinstance(k, str) and k[:1] == "_")}
    if isinstance(obj, list):
        return [to_json(v) for v in obj]
    if isinstance(obj, float):
        return _safe_float(obj)
    return obj


__all__ = [
    "Execution",
    "Reference",
    "decide",
    "judge_scenario",
    "reference_view",
    "verdict",
    "missing_candidate",
    "to_json",
    "parse_output",
    "anti_shortcut",
    "stage_sorted",
    "STAGE_ORDER",
    "LABEL_ORDER",
]
