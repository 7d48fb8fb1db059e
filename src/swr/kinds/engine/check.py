"""`python -m swr.kinds.engine check DIR`: an engine through everything its build demands — the hidden cases
hold the items engine.toml's `[score]` declares, the hand-derived self-tests hold for the reference, the
reference passes every item with margin (the achievability probe), the empty candidate scores no item and
every cheating candidate fails (scores under `pass_at`), each on a named check."""

from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from swr.audit.adequacy import BUILD_OPERATORS, adequacy, rule_mutants
from swr.core.errors import SwrError
from swr.core.jsonfile import dump_json
from swr.core.layout import CHEATS, ENGINE_TOML, EXPECT, GENERATE, REFERENCE, SELFTESTS, VERIFIER
from swr.core.layout import ENGINE_HIDDEN as HIDDEN
from swr.core.layout import ENGINE_PUBLIC as PUBLIC
from swr.kinds.engine.grading import Case, grade_engine, run_candidate
from swr.kinds.engine.spec import N_EXAMPLES, EngineSpec, load_engine, read_cases
from swr.kinds.engine.verdict import CheckRecord, EngineVerdict
from swr.sandbox import WORKDIR, Job, Limits, Mount, Sandbox, run

FIXED_NOTE = "hidden cases fixed, not drawn from the seed"


def case_seed(release_seed: int, engine: str, hidden_seed: int) -> int:
    """The seed an engine's generator gets: a stable hash of the release's seed, the engine's name and its
    engine.toml `hidden_seed` (an offset), so that each release draws other hidden cases for every engine
    and the same release seed draws the same ones, on any machine and Python (no `hash()`)."""
    digest = hashlib.sha256(f"{release_seed}:{engine}:{hidden_seed}".encode()).hexdigest()
    return int(digest[:15], 16)


def draws_from_seed(spec: EngineSpec) -> bool:
    """Whether the engine has a generator (verifier/generate.py); without one its hidden cases are the fixed
    files under cases/hidden, the same in every release."""
    return (spec.directory / VERIFIER / GENERATE).is_file()


def hidden_cases(spec: EngineSpec, sandbox: Sandbox, seed: int = 0) -> list[Case]:
    """Files under cases/hidden, then those verifier/generate.py makes from the release seed `seed`."""
    cases = read_cases(spec.directory, HIDDEN)
    if draws_from_seed(spec):
        out = _script(spec, GENERATE, {"seed": case_seed(seed, spec.name, spec.hidden_seed)}, sandbox)
        cases += [{"id": c.get("id", f"gen-{i}"), **c} for i, c in enumerate(out.get("cases", []))]
    if not cases:
        raise SwrError("no hidden cases (cases/hidden/*.json or verifier/generate.py)", file=spec.directory)
    return cases


def check_items(spec: EngineSpec, cases: list[Case]) -> None:
    """The hidden cases define the items the score counts: a case's `items` are unique non-empty strings, and
    all cases together hold exactly the `[score] items` engine.toml declares (a case without `items` is one);
    else a one-line error naming engine.toml and `score.items`."""

    def refuse(msg: str) -> SwrError:
        return SwrError(msg, file=spec.directory / ENGINE_TOML, field="score.items")

    for c in cases:
        items = c.get("items")
        if items is None:
            continue
        if not isinstance(items, list) or not items or not all(isinstance(i, str) and i for i in items):
            raise refuse(f"hidden case {c['id']}: `items` is not a list of non-empty strings")
        if len(set(items)) != len(items):
            raise refuse(
                f"hidden case {c['id']}: item {next(i for i in items if items.count(i) > 1)!r} is listed twice"
            )
    n = sum(len(c.get("items") or ()) or 1 for c in cases)
    if n != spec.score.items:
        raise refuse(f"the hidden cases hold {n} items, not the {spec.score.items} declared")


def with_expected(spec: EngineSpec, cases: list[Case], sandbox: Sandbox) -> list[Case]:
    """Cases whose expected values the reference tool computes (verifier/expect.py), computed here."""
    if not (spec.directory / VERIFIER / EXPECT).is_file():
        return cases
    return [
        c if "expected" in c else {**c, "expected": _script(spec, EXPECT, {"input": c["input"]}, sandbox)["expected"]}
        for c in cases
    ]


def _script(spec: EngineSpec, name: str, payload: dict[str, Any], sandbox: Sandbox) -> dict[str, Any]:
    """verifier/<name> run sandboxed, the reference's files layered beneath the verifier's: where the reference
    tool is the engine's own reference program (an MES, a PLC runtime, a router), expect.py computes a case's
    expected values by running it, and generate.py may steer its draws by the state it reaches. The
    verifier's own files win a name clash."""
    job = Job(
        ["python3", name],
        Mount(spec.directory / VERIFIER, WORKDIR, "overlay", (spec.directory / REFERENCE,)),
        Limits(time_s=spec.verify_timeout_s),
    )
    res = run(sandbox, job, json.dumps(payload).encode())
    if not res.ok:
        raise SwrError(
            f"{name} failed ({res.limit or res.returncode}): {res.stderr.decode(errors='replace').strip()[-400:]}",
            file=spec.directory / VERIFIER / name,
        )
    answer: dict[str, Any] = json.loads(res.stdout)
    return answer


def selftests(spec: EngineSpec, sandbox: Sandbox) -> list[str]:
    """Hand-derived expectations (selftests/*.json: input, expect {dotted.path: value}, rtol, derivation)
    the reference must meet; each disagreement is one line."""
    problems = []
    for t in read_cases(spec.directory, SELFTESTS):
        ran = run_candidate(spec, spec.directory / REFERENCE, t, sandbox)
        if ran.output is None:
            problems.append(f"selftest {t['id']}: reference {ran.failure}: {ran.detail[-300:]}")
            continue
        for path, want in t.get("expect", {}).items():
            got = dig(ran.output, path)
            if not _close(got, want, float(t.get("rtol", 1e-9)), float(t.get("atol", 0.0))):
                problems.append(f"selftest {t['id']}: {path} = {got!r}, derived by hand: {want!r}")
    return problems


def dig(obj: Any, path: str) -> Any:
    """The value at a dotted path (list indices as numbers); None where there is none."""
    for part in path.split("."):
        if isinstance(obj, list) and part.lstrip("-").isdigit() and -len(obj) <= int(part) < len(obj):
            obj = obj[int(part)]
        elif isinstance(obj, dict):
            obj = obj.get(part)
        else:
            return None
    return obj


def _close(got: Any, want: Any, rtol: float, atol: float) -> bool:
    if isinstance(want, (int, float)) and not isinstance(want, bool) and isinstance(got, (int, float)):
        return math.isclose(float(got), float(want), rel_tol=rtol, abs_tol=atol)
    return bool(got == want)


# Another OpenBLAS kernel than the one in use: its summation order differs, as another CPU's would (x86_64:
# Prescott is the generic SSE3 kernel every build has; aarch64: ARMV8 likewise).
OTHER_KERNEL = {"x86_64": ("Prescott", "Haswell"), "aarch64": ("ARMV8", "NEOVERSEN1")}


def perturbed_platform() -> dict[str, str]:
    """Variables that put the reference on another BLAS kernel; {} where none is known for this machine."""
    first, second = OTHER_KERNEL.get(platform.machine(), ("", ""))
    if not first:
        return {}
    return {"OPENBLAS_CORETYPE": second if os.environ.get("OPENBLAS_CORETYPE") == first else first}


def achievability(
    spec: EngineSpec, records: list[CheckRecord], perturbed: list[CheckRecord] | None = None
) -> list[dict[str, Any]]:
    """Per tolerance check, the worst value the reference attained (over both platforms) next to the level the
    build requires (half the threshold, or one unit past it for `higher`), the margin to that level, and the
    platform variation: how far the attained value (the worst over cases, what a threshold decides on) moved
    between the two runs. `margin_ok` is false where the level is not met, or met by less than twice the
    variation: on another CPU it might not be."""
    out = []
    for c in spec.checks:
        if c.kind != "tolerance":
            continue
        assert c.threshold is not None
        pick = max if c.better == "lower" else min
        mine, other = _measured(records, c.name), _measured(perturbed or [], c.name)
        worst = pick([*mine, *other]) if mine or other else None
        variation = abs(pick(mine) - pick(other)) if mine and other else 0.0
        required = c.threshold / 2 if c.better == "lower" else c.threshold + 1
        margin = None if worst is None else (required - worst if c.better == "lower" else worst - required)
        ok = margin is not None and margin >= 0 and margin >= 2 * variation
        out.append(
            {
                "check": c.name,
                "attained": worst,
                "threshold": c.threshold,
                "required": required,
                "better": c.better,
                "margin": margin,
                "variation": variation,
                "margin_ok": ok,
            }
        )
    return out


def _measured(records: list[CheckRecord], check: str) -> list[float]:
    """A check's numeric measurements, over every case."""
    return [
        float(r.measured)
        for r in records
        if r.check == check and isinstance(r.measured, (int, float)) and not isinstance(r.measured, bool)
    ]


def margins_line(ach: list[dict[str, Any]]) -> str:
    """The build's account of each threshold: `check attained vs required (margin m, variation v)`."""
    return "; ".join(
        f"{a['check']} {_g(a['attained'])} vs {_g(a['required'])} (margin {_g(a['margin'])}, "
        f"variation {_g(a['variation'])})"
        for a in ach
    )


def _g(x: float | None) -> str:
    return "none" if x is None else f"{x:.3g}"


def every_item(v: EngineVerdict) -> bool:
    """The reference's bar: every item of every case passed (N/N), not only the `pass_at` a candidate needs."""
    k, n = (v.score or "0/0").split("/")
    return k == n != "0"


@dataclass
class Checked:
    """What checking an engine found: its report, the problems (none: ready to build), and its cases
    with their expected values."""

    report: dict[str, Any]
    problems: list[str]
    public: list[Case]
    hidden: list[Case]


def as_written(cases: list[Case]) -> list[Case]:
    """Cases as the release writes them (`dump_json`: keys sorted). The build grades what a task will hold: an
    engine whose spec reads an object's key order (tags "as listed") otherwise passed its build on the
    generator's order and failed its own release, whose files have lost it."""
    return [json.loads(dump_json(c)) for c in cases]


def graded_cases(spec: EngineSpec, sandbox: Sandbox, seed: int = 0) -> tuple[list[Case], list[Case]]:
    """The public and the hidden cases with their expected values, exactly as the release will hold them."""
    hidden = as_written(hidden_cases(spec, sandbox, seed))
    check_items(spec, hidden)  # before any case is graded: a wrong count is a one-line error, not a gate
    public = as_written(with_expected(spec, as_written(read_cases(spec.directory, PUBLIC)), sandbox))
    return public, as_written(with_expected(spec, hidden, sandbox))


def check_engine(directory: Path, sandbox: Sandbox, jobs: int = 2, seed: int = 0) -> Checked:
    """Every check of the module docstring, on the public and the hidden cases (drawn from the release
    seed `seed` where the engine has a generator) together."""
    spec = load_engine(directory)
    with tempfile.TemporaryDirectory(prefix="swr-rule-mutants-") as d:  # a stale rule patch: found in seconds,
        rule_mutants(spec, spec.directory / REFERENCE, Path(d))  # not after every gate has run
    problems: list[str] = []
    public, hidden = graded_cases(spec, sandbox, seed)
    if len(public) != N_EXAMPLES:
        problems.append(f"{PUBLIC}: exactly {N_EXAMPLES} worked examples, found {len(public)}")
    cases = public + hidden
    problems += selftests(spec, sandbox)
    verifier = spec.directory / VERIFIER
    ref = grade_engine(spec, verifier, spec.directory / REFERENCE, cases, sandbox, jobs, spec.name)
    if not every_item(ref):
        bad = [r.model_dump(by_alias=True) for r in ref.records if not r.passed][:5]
        problems.append(f"the reference fails: {ref.labels} {bad}")
    other = grade_engine(
        spec, verifier, spec.directory / REFERENCE, cases, sandbox, jobs, spec.name, env=perturbed_platform()
    )
    if not every_item(other):
        bad = [r.model_dump(by_alias=True) for r in other.records if not r.passed][:5]
        problems.append(f"the reference fails on another BLAS kernel {perturbed_platform()}: {other.labels} {bad}")
    ach = achievability(spec, ref.records, other.records)
    problems += [
        f"achievability: check {a['check']} attained {a['attained']} against the required {a['required']} "
        f"(threshold {a['threshold']}, {a['better']} is better): margin {a['margin']} is not at least twice "
        f"the platform variation {a['variation']}"
        for a in ach
        if not a["margin_ok"]
    ]
    with tempfile.TemporaryDirectory() as empty:  # nop and the cheats: graded as the task grades, on the hidden
        nop = grade_engine(spec, verifier, Path(empty), hidden, sandbox, jobs, spec.name)
    if nop.passed or not nop.score or not nop.score.startswith("0/"):
        problems.append(f"the empty candidate scores {nop.score}, not 0")
    cheats = {}
    for cheat in sorted((spec.directory / CHEATS).iterdir()) if (spec.directory / CHEATS).is_dir() else []:
        v = grade_engine(spec, verifier, cheat, hidden, sandbox, jobs, spec.name, beneath=(spec.directory / REFERENCE,))
        cheats[cheat.name] = {"pass": v.passed, "labels": v.labels, "score": v.score}
        if v.passed or not v.failed_checks:
            problems.append(f"cheat {cheat.name} must fail on a named check: {v.labels}")
    if not cheats:
        problems.append(f"{CHEATS}/: at least one cheating candidate")
    report: dict[str, Any] = {
        "engine": spec.name,
        "cases": len(cases),
        "hidden_cases": "drawn from the seed" if draws_from_seed(spec) else FIXED_NOTE,
        "reference": {"score": ref.score, "labels": ref.labels},
        "achievability": ach,
        "nop": {"pass": nop.passed, "labels": nop.labels, "score": nop.score},
        "cheats": cheats,
    }
    report["adequacy"] = adequacy(spec, spec.directory / REFERENCE, verifier, hidden, sandbox, jobs, BUILD_OPERATORS)
    problems += report["adequacy"]["problems"]
    return Checked(report, problems, public, hidden)
