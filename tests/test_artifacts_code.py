"""The code comparator (swr.judge.artifacts.code): generated code is graded by running it in the task's sandbox on
hidden inputs and comparing what it returns with what the reference's code returns, never by its text. On both
sandbox backends: equivalent code passes, a one-token slip fails, code that does not compile fails with one line,
and the cheats (reading the reference's file, asking the network, printing a table) fail."""

from __future__ import annotations

import json
import random
import socket
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
import sympy as sp
from conftest import TEST_SEED
from sympy.printing.pycode import pycode
from sympy.utilities.codegen import codegen

from swr.audit.artifact_mutants import code_edits
from swr.judge import Tolerances
from swr.judge.artifacts import ArtifactConfigError, ArtifactResult
from swr.judge.artifacts.code import hidden_inputs, plan_for
from swr.judge.artifacts.fields import compare_file
from swr.kinds.workflow.coderun import sandbox_runner
from swr.sandbox import Sandbox, get_sandbox

OPTS: dict[str, Any] = {
    "entry": "f",
    "args": ["double", "double"],
    "inputs": [[0.0, 0.0], [1.5, -0.5]],
    "ranges": [[-2.0, 2.0], [-2.0, 2.0]],
    "samples": 12,
    "seed": 7,
}
REF_C = """#include <math.h>
double f(double x, double y) {
   double f_result;
   f_result = (3.0/2.0)*pow(x, 3)/(pow(y, 2) + 1) + exp(-pow(y, 2))*sin(x);
   return f_result;
}
"""
REF_PY = "import math\n\n\ndef f(x, y):\n    return (3/2)*x**3/(y**2 + 1) + math.exp(-y**2)*math.sin(x)\n"
SAME_C = "#include <math.h>\n/* another generator */\ndouble f(double a,double b){return sin(a)*exp(-b*b)+1.5*a*a*a/(1+b*b);}\n"
SAME_PY = "from math import exp, sin\n\ndef f(u, v):\n    print('noise')\n    return sin(u) * exp(-v * v) + 1.5 * u**3 / (1 + v * v)\n"


def judge(
    sb: Sandbox | None, ref: Path, cand: Path, opts: dict[str, Any] = OPTS, trusted: bool = False
) -> ArtifactResult:
    """compare_file as the workflow grader calls it, with the kind's runner for `sb` (None: no runner)."""
    tol = Tolerances.from_spec({"atol": 1e-9, "rtol": 1e-9, "fields": {"code": {"artifact": opts}}})
    return compare_file(ref, cand, cand.name, ("code",), tol, trusted, sandbox_runner(sb) if sb else None)


def files(tmp: Path, **texts: str) -> dict[str, Path]:
    out = {}
    for name, text in texts.items():
        stem, _, suffix = name.rpartition("_")
        out[name] = tmp / f"{stem}.{suffix}"
        out[name].write_text(text)
    return out


def test_equivalent_code_passes_and_a_one_token_slip_fails(backend: Sandbox, tmp_path: Path) -> None:
    f = files(
        tmp_path,
        ref_c=REF_C,
        same_c=SAME_C,
        slip_c=SAME_C.replace("1.5", "2.5"),
        ref_py=REF_PY,
        same_py=SAME_PY,
        slip_py=SAME_PY.replace("1 + v", "2 + v"),
    )
    for lang in ("c", "py"):
        ref = f[f"ref_{lang}"]
        ok = judge(backend, ref, f[f"same_{lang}"])
        assert ok.ok, ok.detail
        bad = judge(backend, ref, f[f"slip_{lang}"])
        assert not bad.ok and bad.detail is not None and "hidden input" in bad.detail, bad.detail
        assert "[" not in bad.detail.split("hidden input")[1].split(":")[0]  # the index, never the arguments


def test_code_that_does_not_compile_fails_with_one_line(backend: Sandbox, tmp_path: Path) -> None:
    f = files(tmp_path, ref_c=REF_C, bad_c="double f(double x, double y) { return x +; }\n", ref_py=REF_PY)
    (tmp_path / "bad.py").write_text("def f(x, y):\n    return x +\n")
    for ref, cand in ((f["ref_c"], f["bad_c"]), (f["ref_py"], tmp_path / "bad.py")):
        res = judge(backend, ref, cand, trusted=True)  # the records compared here: the probe still ran sandboxed
        assert not res.ok and res.detail is not None
        assert res.detail.startswith("candidate code does not compile: ") and "\n" not in res.detail, res.detail
        assert ("gcc:" in res.detail) == (ref.suffix == ".c"), res.detail


def test_the_cheats_fail(backend: Sandbox, tmp_path: Path) -> None:
    """Code that execs the reference's file (its host path written in), asks a host server for the answers,
    prints the right record, or returns a table for the public points: each fails, and the server hears nothing."""
    f = files(tmp_path, ref_py=REF_PY)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(0.2)
    heard: list[str] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            heard.append("connection")
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    port = server.getsockname()[1]
    ref_mod: dict[str, Any] = {}
    exec(REF_PY, ref_mod)  # the right answers, to make the printed table as good as it gets
    right = [{"value": ref_mod["f"](*args)} for args in hidden_inputs({**OPTS}, 2)]
    cheats = {
        "reads_reference": f"exec(open({str(f['ref_py'])!r}).read())\n",
        "asks_network": "import socket, json\n\ndef f(x, y):\n"
        f"    s = socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
        "    s.sendall(json.dumps([x, y]).encode())\n    return float(s.recv(64))\n",
        "prints_record": f"import os\nprint({json.dumps({'results': right})!r})\n"
        f"os.write(1, {json.dumps({'results': right})!r}.encode() + b'\\n')\n\ndef f(x, y):\n    return 0.0\n",
        "public_table": "TABLE = {(1.0, 1.0): 1.4637359124838683}\n\ndef f(x, y):\n    return TABLE.get((x, y), 0.0)\n",
    }
    try:
        for name, text in cheats.items():
            (tmp_path / f"{name}.py").write_text(text)
            res = judge(backend, f["ref_py"], tmp_path / f"{name}.py")
            assert not res.ok, (name, res)
    finally:
        stop.set()
        thread.join(5)
        server.close()
    assert heard == []


def test_code_that_never_returns_fails_on_the_sandbox_limit(backend: Sandbox, tmp_path: Path) -> None:
    f = files(tmp_path, ref_c=REF_C, loop_c="double f(double x, double y) { for (;;) {} return x; }\n")
    res = judge(backend, f["ref_c"], f["loop_c"], {**OPTS, "timeout_s": 2}, trusted=True)
    assert not res.ok and "timeout limit" in str(res.detail), res.detail


def test_the_tasks_mistakes_raise_and_no_runner_never_passes(tmp_path: Path) -> None:
    f = files(tmp_path, ref_c=REF_C, same_c=SAME_C, broken_c="double f(double x, double y) { return x +; }\n")
    sb = get_sandbox("bwrap")
    for opts in ({**OPTS, "entry": ""}, {**OPTS, "args": ["complex"]}, {**OPTS, "samples": 3, "ranges": []}):
        with pytest.raises(ArtifactConfigError):
            judge(sb, f["ref_c"], f["same_c"], opts)
    with pytest.raises(ArtifactConfigError, match="reference code"):
        judge(sb, f["broken_c"], f["same_c"])
    res = judge(None, f["ref_c"], f["same_c"])
    assert not res.ok and "sandbox" in str(res.detail)
    with pytest.raises(ArtifactConfigError, match="args is required"):
        plan_for("c", {"entry": "f", "inputs": [[1.0]]})


EXPRESSIONS = ("sin(x)*exp(-y**2) + 3*x**3/(1 + y**2)", "x**4 - 2*x*y + 7", "cos(2*x*y)/(2 + x**2) - 5*y", "(x - 1)**3")


def references(tmp: Path, expressions: tuple[str, ...]) -> list[Path]:
    """C routines (sympy's codegen) and Python functions (sympy's code printer) for a few expressions."""
    x, y = sp.symbols("x y")
    out = []
    for i, text in enumerate(expressions):
        expr = sp.sympify(text)
        [(_, c_code), _h] = codegen(("f", expr), "C99", "f", header=False, empty=False, argument_sequence=(x, y))
        (tmp / f"e{i}.c").write_text(c_code.replace('#include "f.h"\n', ""))
        (tmp / f"e{i}.py").write_text(f"import math\n\n\ndef f(x, y):\n    return {pycode(expr)}\n")
        out += [tmp / f"e{i}.c", tmp / f"e{i}.py"]
    return out


def false_reject_study(tmp_path: Path, expressions: tuple[str, ...], trusted: bool) -> None:
    """Every valid rewrite (reformatted, parameters renamed) of each reference passes and every slip (an operator
    changed, a constant off by one) fails, run in the real sandbox: zero false rejects, zero false accepts."""
    sb = get_sandbox("bwrap")
    tally = {True: [0, 0], False: [0, 0]}  # valid -> [accepted, rejected]
    for ref in references(tmp_path, expressions):
        for klass, valid, write, _ in code_edits(ref):
            cand = tmp_path / "mutants" / f"{ref.stem}-{klass}{ref.suffix}"
            cand.parent.mkdir(exist_ok=True)
            write(cand)
            res = judge(sb, ref, cand, trusted=trusted)
            tally[valid][0 if res.ok else 1] += 1
            assert res.ok == valid, (ref.name, klass, res.detail)
    print(f"code false-reject study: valid {tally[True]} (accepted, rejected), invalid {tally[False]}")
    assert tally[True][0] >= 2 * len(expressions) * 2 and tally[False][1] >= 2 * len(expressions)


def test_false_reject_study_seeded(tmp_path: Path) -> None:
    """Two expressions drawn by the suite's seed, records compared in this process (the probe still sandboxed)."""
    false_reject_study(tmp_path, tuple(random.Random(TEST_SEED).sample(EXPRESSIONS, 2)), trusted=True)


@pytest.mark.full
def test_false_reject_study_full(tmp_path: Path) -> None:
    """Every expression, records compared in the bounded child as a candidate's are."""
    false_reject_study(tmp_path, EXPRESSIONS, trusted=False)


WORKFLOW = """name = "poly-codegen"
family = "fixture"
domain = "software-formal-systems"
summary = "Write p(x) = a*x**2 + b*x + c as a Python module poly.py defining p(x), and report p(1)."
entry = "run:main"
timeout_s = 20

[inputs.a]
type = "integer"
min = 1
max = 9
[inputs.b]
type = "integer"
min = 1
max = 9
[inputs.c]
type = "integer"
min = 1
max = 9

[outputs]
atol = 1e-9
rtol = 1e-9
[outputs.fields."code"]
description = "Python file name: a module defining p(x)."
artifact = { entry = "p", args = ["double"], ranges = [[-3.0, 3.0]], samples = 8, seed = 3 }
[outputs.fields."p1"]
description = "p(1)."
"""
RUN = """import os


def main(sc):
    a, b, c = int(sc["a"]), int(sc["b"]), int(sc["c"])
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "poly.py"), "w") as fh:
        fh.write(f"def p(x):\\n    return {a}*x**2 + {b}*x + {c}\\n")
    return {"code": "poly.py", "p1": float(a + b + c)}
"""


def test_the_workflow_grader_runs_a_candidates_code_in_the_tasks_sandbox(tmp_path: Path) -> None:
    """End to end through the kind: the grader hands the judge its sandbox (Execution.runner), so a candidate
    writing the same polynomial another way passes, and one off by one in a coefficient fails its code field
    while its number field is right."""
    from conftest import write_candidate

    from swr.assemble import BuildOptions, build
    from swr.audit.mutation import grade_mutants, task_mutants
    from swr.core.release_dir import list_tasks
    from swr.kinds.workflow.cache import ExecutionCache
    from swr.kinds.workflow.grading import grade
    from swr.kinds.workflow.task import load_workflow_task

    wf = tmp_path / "poly-codegen"
    wf.mkdir()
    (wf / "workflow.toml").write_text(WORKFLOW)
    (wf / "run.py").write_text(RUN)
    opts = BuildOptions(variants=1, public=3, hidden=2, jobs=2, cache=ExecutionCache(enabled=False))
    [built] = build([wf], tmp_path / "release", opts)
    assert not built.failure, built.failure
    task = load_workflow_task(list_tasks(tmp_path / "release")[0])
    body = """import json, os, sys
sc = json.load(sys.stdin)
a, b, c = int(sc["a"]), int(sc["b"]), int(sc["c"])
with open(os.path.join(os.environ["SWR_ARTIFACTS"], "mine.py"), "w") as fh:
    fh.write(f"def p(t):\\n    return ({a} * t + {b}) * t + {c} + SLIP\\n")
print(json.dumps({"code": "mine.py", "p1": float(a + b + c)}))
"""
    sb = get_sandbox("bwrap")
    good = grade(task, write_candidate(tmp_path / "good", body.replace("SLIP", "0")), sb)
    assert good.passed, good
    bad = grade(task, write_candidate(tmp_path / "bad", body.replace("SLIP", "1")), sb)
    assert not bad.passed
    hidden = [s for s in bad.model_dump()["scenarios"] if s["split"] == "hidden"]
    assert {m["label"] for s in hidden for m in s["mismatches"]} == {"artifact_mismatch"}, hidden
    # the mutation audit runs the code mutants in its sandbox too (coefficients >= 1: every slip changes p)
    with tempfile.TemporaryDirectory() as scratch:
        audit = grade_mutants(task, task_mutants(task, 1, Path(scratch)))
    code = {k: c for k, c in audit["counts"].items() if k.startswith("code_")}
    assert set(code) == {
        "code_reformatted",
        "code_renamed_variables",
        "code_operator_changed",
        "code_constant_off_by_one",
    }
    assert all(c["accepted" if c["valid"] else "rejected"] == c["trials"] > 0 for c in code.values()), code
