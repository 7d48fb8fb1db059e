"""Generated-code comparator: a program's generated code (Python, C) is graded by what it computes, never by its
text. Two steps, split at the judge's floor:

1. Running (judge_code): the reference's code and the candidate's are each run by the probe (code_probe.py) on
   the task's hidden inputs, *in the task's sandbox*. The judge imports no sandbox (the layers: judge and
   sandbox are peers that import only core), so the task kind hands it a `CodeRunner` (Execution.runner) that
   runs a `Probe` there: no network, the task's limits, nothing of the reference or the task's private files
   visible. C is compiled there with the sandbox's gcc; a candidate that does not compile fails with gcc's
   first error line.
2. Comparing (compare_code): the two run records (JSON the probe printed) are compared in the bounded child
   like any artifact: every input's returned value within atol + rtol·|ref|, an input the reference rejects
   (raises) rejected by the candidate too.

Why a cheat fails. The inputs are the task's own (`inputs`, or `samples` drawn from `ranges` with `seed`, in
the field's artifact options in task.toml): never in the instruction, public/ or the scenario, so the program
that writes the code never sees them and a table of precomputed outputs has no keys to match. The code runs
with only itself, the probe and the plan mounted: no reference file to read, no network to ask. What it prints
is discarded (the probe's answer is the values its entry function *returns*), and a mismatch names the input's
index, never its arguments."""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import tempfile
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ._common import (
    ArtifactConfigError,
    ArtifactResult,
    Budget,
    TooLarge,
    check,
    file_size,
    finish,
    load_pair,
    options_for,
)

DEFAULTS: dict[str, Any] = {
    "entry": "",  # the function the generated code defines, called on every input
    "args": [],  # C types of its parameters (required for C): double, float, int, long
    "returns": "double",  # C type it returns (or void)
    "inputs": [],  # argument lists, hidden from the agent
    "ranges": [],  # [lo, hi] per parameter: `samples` more inputs drawn uniformly (ints for int/long)
    "samples": 0,
    "seed": 0,
    "timeout_s": 20,  # wall time of one probe run (compiling included)
}
LANGUAGES = {".py": "python", ".c": "c"}
C_TYPES = ("double", "float", "int", "long")
MAX_INPUTS = 1000
PROBE_SCRIPT = "probe.py"
RECORD_SUFFIX = ".json"  # run records, as judge_code writes them for compare_code
_PROBE_SOURCE = Path(__file__).with_name("code_probe.py")


@dataclass(frozen=True)
class Probe:
    """One run a task kind performs in its sandbox: `files` written to a fresh working directory, then its
    Python running `script` there under `time_s` of wall time."""

    files: Mapping[str, bytes]
    script: str
    time_s: float


@dataclass(frozen=True)
class ProbeRun:
    """What the sandbox reports for one probe run (the fields of sandbox.RunResult the judge reads)."""

    returncode: int | None
    stdout: bytes
    limit: str | None = None


CodeRunner = Callable[[Probe], ProbeRun]


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def plan_for(language: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The probe's plan from the field's options, checked: every mistake here is the task's (ArtifactConfigError)."""
    opts = options_for("code", options, DEFAULTS)
    entry, args, returns = opts["entry"], opts["args"], opts["returns"]
    if not isinstance(entry, str) or not entry.isidentifier():
        raise ArtifactConfigError(f"code option entry must name the generated function, got {entry!r}")
    if not isinstance(args, list) or any(a not in C_TYPES for a in args):
        raise ArtifactConfigError(f"code option args must list C types among {C_TYPES}, got {args!r}")
    if returns not in (*C_TYPES, "void"):
        raise ArtifactConfigError(f"code option returns must be one of {C_TYPES} or void, got {returns!r}")
    if language == "c" and not args:
        raise ArtifactConfigError("code option args is required for C (the entry function's parameter types)")
    inputs = hidden_inputs(opts, len(args) if args else None)
    if not inputs:
        raise ArtifactConfigError("code options give no input to run the code on (inputs, or ranges with samples)")
    timeout = opts["timeout_s"]
    if not _number(timeout) or not 0 < timeout <= 120:
        raise ArtifactConfigError(f"code option timeout_s must be in (0, 120], got {timeout!r}")
    return {"language": language, "entry": entry, "args": args, "returns": returns, "inputs": inputs}


def hidden_inputs(opts: Mapping[str, Any], arity: int | None) -> list[list[Any]]:
    """The declared inputs, then `samples` drawn from `ranges` with `seed` (reproducible, so the reference's
    run and the candidate's see the same ones)."""
    inputs, ranges, samples, seed = opts["inputs"], opts["ranges"], opts["samples"], opts["seed"]
    if not isinstance(inputs, list) or any(not isinstance(i, list) for i in inputs):
        raise ArtifactConfigError(f"code option inputs must be a list of argument lists, got {inputs!r}")
    if isinstance(samples, bool) or not isinstance(samples, int) or not 0 <= samples <= MAX_INPUTS:
        raise ArtifactConfigError(f"code option samples must be an int in [0, {MAX_INPUTS}], got {samples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArtifactConfigError(f"code option seed must be an int, got {seed!r}")
    good = isinstance(ranges, list) and all(
        isinstance(r, list) and len(r) == 2 and all(map(_number, r)) and r[0] <= r[1] for r in ranges
    )
    if not good or (samples and not ranges):
        raise ArtifactConfigError(f"code option ranges must be [lo, hi] pairs (one per parameter), got {ranges!r}")
    types = list(opts["args"]) or ["double"] * len(ranges)
    if ranges and len(ranges) != len(types):
        raise ArtifactConfigError(f"code option ranges has {len(ranges)} pairs for {len(types)} parameters")
    rng = random.Random(seed)
    ints = [t in ("int", "long") for t in types]
    drawn = [
        [rng.randint(int(lo), int(hi)) if is_int else rng.uniform(lo, hi) for is_int, (lo, hi) in zip(ints, ranges)]
        for _ in range(samples)
    ]
    out = [*inputs, *drawn]
    if arity is not None and any(len(i) != arity for i in out):
        raise ArtifactConfigError(f"code option inputs: every argument list must have {arity} values (args)")
    if len(out) > MAX_INPUTS:
        raise ArtifactConfigError(f"code options give {len(out)} inputs, at most {MAX_INPUTS}")
    return out


def probe_for(source: bytes, suffix: str, plan: Mapping[str, Any], time_s: float) -> Probe:
    """The files of one probe run: the probe, its plan, and the code under a fixed name (the candidate's own
    file name is not trusted as a path)."""
    name = "generated" + suffix
    plan_doc = json.dumps({**plan, "source": name}).encode()
    return Probe({PROBE_SCRIPT: _PROBE_SOURCE.read_bytes(), "plan.json": plan_doc, name: source}, PROBE_SCRIPT, time_s)


_REFERENCE_RUNS: dict[str, bytes] = {}  # the reference's record per (code, plan): one sandbox run per grading
_LOCK = threading.Lock()


def _record(run: ProbeRun) -> bytes | None:
    """The probe's answer (its last stdout line) when the run ended normally, else None."""
    if run.limit is not None or run.returncode != 0:
        return None
    return run.stdout.rstrip().rsplit(b"\n", 1)[-1]


def _run_failure(run: ProbeRun) -> str:
    if run.limit is not None:
        return f"candidate code exceeded the sandbox's {run.limit} limit on the hidden inputs"
    return f"candidate code crashed while running on the hidden inputs (exit {run.returncode})"


def reference_record(reference: Path, plan: Mapping[str, Any], runner: CodeRunner, time_s: float) -> bytes:
    """The reference code's run record, run once per (code, plan) in this process."""
    source = reference.read_bytes()
    key = hashlib.sha256(source + b"\0" + json.dumps(plan, sort_keys=True).encode()).hexdigest()
    with _LOCK:
        if key in _REFERENCE_RUNS:
            return _REFERENCE_RUNS[key]
    run = runner(probe_for(source, reference.suffix.lower(), plan, time_s))
    record = _record(run)
    doc = json.loads(record) if record else {}
    if "results" not in doc:
        why = doc.get("compile_error") or doc.get("load_error") or _run_failure(run).replace("candidate", "the")
        raise ArtifactConfigError(f"the reference code {reference.name} cannot be probed in the sandbox: {why}")
    with _LOCK:
        if len(_REFERENCE_RUNS) >= 256:
            _REFERENCE_RUNS.clear()
        _REFERENCE_RUNS[key] = record  # type: ignore[assignment]
    return record  # type: ignore[return-value]


def judge_code(
    reference: Path,
    candidate: Path,
    atol: float,
    rtol: float,
    options: Mapping[str, Any] | None,
    runner: CodeRunner | None,
    compare: Callable[[Path, Path], ArtifactResult],
) -> ArtifactResult:
    """Run both codes through `runner` on the hidden inputs, then `compare` the two records (the caller's
    bounded child, or this process for swr's own files)."""
    language = LANGUAGES.get(reference.suffix.lower())
    if language is None:
        raise ArtifactConfigError(f"no probe for generated code of suffix {reference.suffix!r}: {sorted(LANGUAGES)}")
    plan = plan_for(language, options)
    time_s = float(options_for("code", options, DEFAULTS)["timeout_s"])
    if runner is None:
        return ArtifactResult(False, "code", {}, "generated code is graded by running it in a sandbox; none was given")
    ref_record = reference_record(reference, plan, runner, time_s)
    try:
        file_size(candidate, _source_budget(reference))
    except TooLarge as exc:
        return exc.result()
    run = runner(probe_for(candidate.read_bytes(), reference.suffix.lower(), plan, time_s))
    record = _record(run)
    if record is None:
        why = _run_failure(run)
        return ArtifactResult(False, "code", {"run": check(False, "a normal exit", why)}, why)
    with tempfile.TemporaryDirectory(prefix="swr-code-") as d:
        ref_path, cand_path = Path(d) / f"reference{RECORD_SUFFIX}", Path(d) / f"candidate{RECORD_SUFFIX}"
        ref_path.write_bytes(ref_record)
        cand_path.write_bytes(record)
        os.chmod(d, 0o755)
        return compare(ref_path, cand_path)


def _source_budget(reference: Path) -> Budget:
    """A budget that has seen the reference code's size: a candidate's source is bounded by it before it is read."""
    budget = Budget("code")
    file_size(reference, budget)
    return Budget("code", budget)


def _load_record(path: Path, budget: Budget) -> dict[str, Any]:
    size = file_size(path, budget)
    with open(path, "rb") as fh:
        doc = json.loads(fh.read(size))
    if not isinstance(doc, dict):
        raise ValueError("the probe's record is not a JSON object")
    return doc


def _scalar(value: Any) -> float | None:
    """A number of the record (non-finite ones are spelled as strings), or None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if value in ("nan", "inf", "-inf"):
        return float(value)
    return None


def same_value(ref: Any, got: Any, atol: float, rtol: float) -> bool:
    """Numbers within atol + rtol·|ref| (NaN only equal to NaN), lists elementwise, anything else exactly."""
    a, b = _scalar(ref), _scalar(got)
    if a is not None and b is not None:
        if math.isnan(a) or math.isnan(b) or math.isinf(a) or math.isinf(b):
            return (math.isnan(a) and math.isnan(b)) or a == b
        return abs(b - a) <= atol + rtol * abs(a)
    if isinstance(ref, list) and isinstance(got, list):
        return len(ref) == len(got) and all(same_value(r, g, atol, rtol) for r, g in zip(ref, got))
    return bool(ref == got) and type(ref) is type(got)


def _show(entry: Any) -> Any:
    return entry.get("value", f"raised {entry.get('error')}") if isinstance(entry, dict) else entry


def compare_code(
    reference: Path, candidate: Path, atol: float, rtol: float, options: Mapping[str, Any] | None = None
) -> ArtifactResult:
    """Compare two run records (see judge_code): the candidate's code must compile and load, and return what the
    reference's returns on every hidden input (an input the reference rejects must be rejected too). Handed the
    code files themselves (compare_artifact with no sandbox behind it), it cannot run them: only the same bytes
    pass, the stricter answer."""
    options_for("code", options, DEFAULTS)
    if reference.suffix.lower() != RECORD_SUFFIX:
        return _unrun(reference, candidate)
    pair = load_pair("code", reference, lambda b: _load_record(reference, b), lambda b: _load_record(candidate, b))
    if isinstance(pair, ArtifactResult):
        return pair
    ref, got = pair
    for stage, what in (("compile_error", "compile"), ("load_error", "load")):
        if stage in got:
            why = f"candidate code does not {what}: {str(got[stage])[:300]}"
            return ArtifactResult(False, "code", {what: check(False, "ok", str(got[stage])[:300])}, why)
    ref_results, got_results = ref["results"], got.get("results")
    if not isinstance(got_results, list) or len(got_results) != len(ref_results):
        n = len(got_results) if isinstance(got_results, list) else None
        return finish("code", {"inputs": check(False, len(ref_results), n)})
    checks = {"inputs": check(True, len(ref_results), len(got_results))}
    tol = atol if not rtol else {"atol": atol, "rtol": rtol}
    bad = next((i for i, (r, g) in enumerate(zip(ref_results, got_results)) if not _agrees(r, g, atol, rtol)), None)
    if bad is None:
        checks["results"] = check(True, None, None, tol)
    else:  # the input's index only: its arguments are the task's hidden inputs
        where = f"hidden input {bad + 1} of {len(ref_results)}"
        checks["results"] = check(False, _show(ref_results[bad]), _show(got_results[bad]), tol, where=where)
    return finish("code", checks)


def _read(path: Path, budget: Budget) -> bytes:
    size = file_size(path, budget)
    with open(path, "rb") as fh:
        return fh.read(size)


def _unrun(reference: Path, candidate: Path) -> ArtifactResult:
    """Code compared without running it: the same bytes (size-bounded first) or a failure saying why."""
    pair = load_pair("code", reference, lambda b: _read(reference, b), lambda b: _read(candidate, b))
    if isinstance(pair, ArtifactResult):
        return pair
    same = pair[0] == pair[1]
    why = None if same else "generated code is graded by running it in a sandbox; none was given, and the files differ"
    return ArtifactResult(same, "code", {"bytes": check(same, "identical", "identical" if same else "different")}, why)


def _agrees(ref: Any, got: Any, atol: float, rtol: float) -> bool:
    """One input's outcome: both raised, or both returned the same value."""
    if not isinstance(got, dict):
        return False
    if "error" in ref:
        return "error" in got
    return "value" in got and same_value(ref["value"], got["value"], atol, rtol)


__all__ = ["CodeRunner", "Probe", "ProbeRun", "compare_code", "judge_code", "plan_for"]
