"""The authoring kit (`swr new workflow`, `swr new tune`): a function or a command line from a package the catalog
does not hold, scaffolded, measured and gated to a passing `swr check`; bad input refused in one line (exit 2) with
nothing written; tolerances bounded by rounding noise below and the field's scale above."""

from __future__ import annotations

import json
import random
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any, Literal

import pytest
from conftest import CATALOG, ROOT, TEST_SEED, swr

from swr.core.errors import SwrError
from swr.judge.leaves import float_ok
from swr.kinds.workflow.authoring import new_workflow, space_fixes
from swr.kinds.workflow.scaffold import destination, from_command, from_signature, probe
from swr.kinds.workflow.scaffold_files import MARKER, function_run_py
from swr.kinds.workflow.signature_probe import describe
from swr.kinds.workflow.spec import load_spec
from swr.kinds.workflow.tolerances import (
    EPS,
    MAX_RTOL,
    PLATFORM_RTOL,
    ULPS,
    Measured,
    fields,
    propose,
    render_outputs,
)
from swr.sandbox import Sandbox


def _one_line_refusal(res: Any) -> str:
    assert res.returncode == 2, res.stdout + res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("swr: ") and "Traceback" not in res.stderr, res.stderr
    return lines[0]


def _not_in_catalog(package: str) -> None:
    """The wrapped package is none of the catalog's families nor any workflow's requirement."""
    assert not list(CATALOG.glob(f"*/{package}")), package
    assert all(package not in p.read_text() for p in CATALOG.glob("*/*/*/workflow.toml")), package


def test_new_workflow_wraps_a_stdlib_function_to_a_passing_swr_check(tmp_path: Path) -> None:
    """Acceptance 4: colorsys (stdlib, in no catalog family), start to passing `swr check`."""
    _not_in_catalog("colorsys")
    res = swr("new", "workflow", "colorsys/rgb-hls", "--from", "colorsys:rgb_to_hls", "--domain", "data-document",
              "--root", str(tmp_path), "-n", "2", "--samples", "3")  # fmt: skip
    assert res.returncode == 0, res.stdout + res.stderr
    wf = tmp_path / "data-document" / "colorsys" / "rgb-hls"
    assert "every gate passes and the lints are clean" in res.stdout
    assert "output result: float, list shape [3]" in res.stdout  # the schema, inferred from the reference's runs
    spec = load_spec(wf)
    assert spec.entry == "run:main" and set(spec.inputs) == {"r", "g", "b"}
    assert spec.outputs.fields["result"].rtol == PLATFORM_RTOL  # no drift between runs: the platform floor
    text = (wf / "workflow.toml").read_text()
    assert MARKER in text and "sampled scenarios, each run 4 ways" in text  # how the tolerance was measured
    check = swr("check", str(wf), "-n", "2")
    assert check.returncode == 0 and "all gates pass" in check.stdout, check.stdout + check.stderr


def test_new_workflow_from_cli_wraps_a_program_to_a_passing_swr_check(tmp_path: Path) -> None:
    """Acceptance 4 for --from-cli: coreutils' `factor`, its output's numbers graded exactly."""
    _not_in_catalog("coreutils")
    res = swr("new", "workflow", "coreutils/factor", "--from-cli", "factor {n:integer}", "--domain",
              "software-formal-systems", "--root", str(tmp_path), "-n", "2", "--samples", "3")  # fmt: skip
    assert res.returncode == 0, res.stdout + res.stderr
    wf = tmp_path / "software-formal-systems" / "coreutils" / "factor"
    spec = load_spec(wf)
    assert spec.command == ["python3", "run.py"] and spec.inputs["n"].type == "integer"
    assert spec.requires.apt == ["coreutils"]
    assert "output values: integer" in res.stdout and "exact" in res.stdout
    f = spec.outputs.fields["values"]
    assert (f.atol, f.rtol) == (0.0, 0.0)
    check = swr("check", str(wf), "-n", "2")
    assert check.returncode == 0 and "all gates pass" in check.stdout, check.stdout + check.stderr


NOISY = """import os, random, sys

def main(s):
    noise = random.Random(os.environ.get("PYTHONHASHSEED", "") + os.environ.get("OMP_NUM_THREADS", "")).random()
    x = float(s["x"])
    return {"total": x * (1.0 + 1e-6 * noise), "count": int(x * 10), "tag": str(hash("swr") % 7), "converged": x > 50}
"""


def test_tune_measures_noise_and_bounds_each_field(tmp_path: Path) -> None:
    """A field whose value moves with the hash seed and thread count gets a band above its measured drift; an
    exact integer stays exact; a string that changes between runs is ignored, not graded; and the lints run on
    what the gates built (a self-reported `converged` is a line to fix, exit 1)."""
    wf = tmp_path / "data-document" / "noisy" / "noisy"
    wf.mkdir(parents=True)
    (wf / "run.py").write_text(NOISY)
    (wf / "workflow.toml").write_text(
        'name = "noisy"\nfamily = "noisy"\ndomain = "data-document"\nsummary = "Scale x."\nentry = "run:main"\n'
        f'[inputs.x]\ntype = "number"\nmin = 1.0\nmax = 100.0\n{MARKER}\n'
    )
    res = swr("new", "tune", str(wf), "-n", "2", "--samples", "3")
    spec = load_spec(wf)
    total, count = spec.outputs.fields["total"], spec.outputs.fields["count"]
    noise = [random.Random(seed).random() for seed in ("01", "12", "22")]  # the runs' (hash seed, threads)
    drift = 1e-6 * max(abs(n - noise[0]) for n in noise) / (1 + 1e-6 * min(noise))
    assert drift > 1e-8 and total.rtol is not None and drift < total.rtol <= MAX_RTOL, res.stdout  # above the drift
    assert total.atol is not None and total.atol <= 100.0
    assert (count.atol, count.rtol) == (0.0, 0.0)
    assert "tag" in spec.outputs.ignore and "tag: string; ignored (volatile)" in res.stdout
    assert "fix: lint self_reported `converged`" in res.stdout and res.returncode == 1, res.stdout + res.stderr


def test_a_bad_function_path_is_one_line_and_writes_nothing(tmp_path: Path, sandbox: Sandbox) -> None:
    res = swr(
        "new", "workflow", "x/y", "--from", "no_such_module_swr:f", "--domain", "data-document", "--root", str(tmp_path)
    )
    line = _one_line_refusal(res)
    assert "cannot import module 'no_such_module_swr'" in line and "--from" in line, line
    with pytest.raises(SwrError, match="is not module:function"):
        new_workflow(tmp_path, "x/y", function="colorsys", domain="data-document")
    res = swr("new", "workflow", "x/y", "--from", "uuid:uuid4", "--domain", "data-document", "--root", str(tmp_path))
    assert "no parameter of uuid:uuid4 can be a scenario value" in _one_line_refusal(res)
    assert list(tmp_path.iterdir()) == []
    for target, says in [("colorsys:no_such_function", "has no attribute"), ("colorsys:__doc__", "not a function")]:
        with pytest.raises(SwrError, match=says):
            probe(target, sandbox)


def test_new_refuses_to_overwrite_and_tune_refuses_a_hand_written_workflow(tmp_path: Path) -> None:
    """Never destroy what swr did not create: an existing directory, a name taken elsewhere in the catalog, and a
    workflow.toml without the kit's measured block are all refused, their bytes unchanged."""
    mine = tmp_path / "data-document" / "colorsys" / "rgb-hls"
    mine.mkdir(parents=True)
    (mine / "workflow.toml").write_text("# mine\n")
    args = ("--from", "colorsys:rgb_to_hls", "--root", str(tmp_path))
    assert "already exists" in _one_line_refusal(swr("new", "workflow", "colorsys/rgb-hls", *args))
    assert "not made by `swr new`" in _one_line_refusal(swr("new", "tune", str(mine)))
    assert (mine / "workflow.toml").read_text() == "# mine\n" and [p.name for p in mine.iterdir()] == ["workflow.toml"]
    for target, domain, says in [
        ("other/rgb-hls", "data-document", "exists already"),  # task ids would collide
        ("brand-new/x", None, "--domain"),  # a new family: say where it goes
        ("colorsys/x", "earth-space-sciences", "is in domain"),
        ("colorsys/Bad_Name", None, "FAMILY/NAME"),
    ]:
        with pytest.raises(SwrError, match=re.escape(says)):
            destination(tmp_path, target, domain)


def _typed(
    n: int,
    mode: Literal["fast", "exact"],
    xs: list[float],
    scale: float = 0.5,
    steps: int = 10,
    flag: bool = False,
    *,
    callback: Any = None,
    tol: float = 1e-3,
) -> float:
    return 0.0


def test_inputs_are_inferred_from_hints_and_defaults() -> None:
    """Hints give the type, defaults the range; a parameter no scenario can hold keeps its default, and the
    parameters after it go by name."""
    d = from_signature(describe(f"{__name__}:_typed"))
    assert d.inputs["n"] == {"type": "integer", "min": 1, "max": 100}
    assert d.inputs["mode"] == {"type": "categorical", "choices": ["fast", "exact"]}
    assert d.inputs["xs"]["type"] == "array" and d.inputs["xs"]["items"] == "number"
    assert d.inputs["scale"] == {"type": "number", "min": 0.25, "max": 1.0}
    assert d.inputs["steps"] == {"type": "integer", "min": 5, "max": 20}
    assert d.inputs["flag"] == {"type": "boolean"} and "callback" not in d.inputs
    assert d.args == ["n", "mode", "xs", "scale", "steps", "flag"] and d.kwargs == ["tol"]
    assert any("callback keeps its default" in n for n in d.notes) and any("inputs.xs" in n for n in d.notes)


def test_proposals_are_bounded_by_rounding_noise_and_the_field_scale() -> None:
    """Seeded sweep: every proposal lies in [ULPS ulps of the scale, the scale] (atol) and [PLATFORM_RTOL, MAX_RTOL]
    (rtol), exceeds the drift it measured, and passes every run it was measured on against its reference."""
    rng = random.Random(TEST_SEED)
    for _ in range(300):
        scale = 10.0 ** rng.uniform(-12, 12)
        rel = rng.choice([0.0, 10.0 ** rng.uniform(-16, -2)])
        values = [rng.choice([-1, 1]) * scale * rng.uniform(1e-8, 1.0) for _ in range(rng.randint(1, 12))]
        values[0] = scale
        pairs = [(v, v * (1 + rng.uniform(-rel, rel))) for v in values]
        atol, rtol, how = propose(values, pairs)
        assert atol is not None and rtol is not None, how
        assert ULPS * EPS * scale * (1 - 1e-12) <= atol <= scale and PLATFORM_RTOL <= rtol <= MAX_RTOL, (atol, rtol)
        drift = max(abs(a - b) / max(abs(a), abs(b)) for a, b in pairs)
        assert rtol >= drift
        assert all(float_ok(a, b, atol, rtol) for a, b in pairs), (atol, rtol, pairs)
    assert propose([1.0], [(1.0, 3.0)])[:2] == (None, None)  # noise as large as the value: never a band that wide


def test_an_exact_integer_field_is_exact_and_a_noisy_one_is_not_graded() -> None:
    m = Measured([{}, {}], [[{"n": 3, "x": 1.5}, {"n": 3, "x": 1.5}], [{"n": 4, "x": 2.0}, {"n": 5, "x": 2.0}]])
    by = {f.pattern: f for f in fields(m)}
    assert by["x"].kind == "float" and by["x"].rtol == PLATFORM_RTOL and not by["x"].exact
    assert by["n"].ignore and not by["n"].exact  # an integer that changed between runs cannot be graded exactly
    m.outputs[1][1] = {"n": 4, "x": 2.0}
    assert {f.pattern: f for f in fields(m)}["n"].exact


def test_a_rewritten_block_keeps_what_the_author_wrote_in_it() -> None:
    """`swr new tune` rewrites its block, but each field's description, units, period, zero and artifact options
    and the ignore list survive; a field declared zero gets an atol ten times its largest value."""
    m = Measured([{}, {}], [[{"a": 10.0, "z": 1e-17, "w": 1}, None], [{"a": 20.0, "z": -2e-17, "w": 2}, None]])
    m.labels = ["once"]
    keep = {"a": {"description": "Mine.", "units": "deg", "period": 360.0}, "z": {"zero": True, "description": ""}}
    doc = tomllib.loads(render_outputs(fields(m), m, keep, ["w"]))
    a, z = doc["outputs"]["fields"]["a"], doc["outputs"]["fields"]["z"]
    assert (a["description"], a["units"], a["period"]) == ("Mine.", "deg", 360.0)
    assert z["zero"] is True and z["atol"] >= 2e-16 and "rtol" not in z
    assert doc["outputs"]["ignore"] == ["w"] and "w" not in doc["outputs"]["fields"]


def test_a_too_small_input_space_is_named_before_the_build_finds_it(tmp_path: Path) -> None:
    (tmp_path / "workflow.toml").write_text(
        'name = "s"\nfamily = "f"\ndomain = "data-document"\nsummary = "s"\nentry = "run:main"\n'
        '[inputs.k]\ntype = "integer"\nmin = 1\nmax = 3\n[inputs.b]\ntype = "boolean"\n'
    )
    (fix,) = space_fixes(load_spec(tmp_path))
    assert "only 6 distinct scenarios" in fix and "48" in fix
    with (tmp_path / "workflow.toml").open("a") as f:
        f.write('[inputs.x]\ntype = "number"\nmin = 0.0\nmax = 1.0\n')
    assert space_fixes(load_spec(tmp_path)) == []
    assert json.loads(json.dumps(tomllib.loads((tmp_path / "workflow.toml").read_text())))["inputs"]["x"]


def test_a_command_line_placeholders_become_typed_inputs(tmp_path: Path) -> None:
    data = tmp_path / "a.csv"
    data.write_text("1,2\n")
    d = from_command("sort -t, {key:integer} {order:asc|desc} {verbose:boolean} {f:path} {x}", [data])
    assert d.inputs == {
        "key": {"type": "integer", "min": 1, "max": 100},
        "order": {"type": "categorical", "choices": ["asc", "desc"]},
        "verbose": {"type": "boolean"},
        "f": {"type": "path", "choices": ["data/a.csv"]},
        "x": {"type": "number", "min": 0.0, "max": 1.0},
    }
    assert any("inputs.x: untyped" in n for n in d.notes) and d.apt == ["coreutils"]
    for cli, data_files, says in [
        ("sort", [], "no {name} placeholder"),
        ("cat {f:path}", [], "needs --data"),
        ("cat {f}", [data], "no {name:path} placeholder"),
        ("cat 'unclosed", [], "not a command line"),
    ]:
        with pytest.raises(SwrError, match=re.escape(says)):
            from_command(cli, data_files)


@pytest.mark.full  # ~30 s: the kit itself is covered by the tests above in the default suite
def test_the_readme_walkthrough_says_what_the_kit_does(tmp_path: Path) -> None:
    """The README's `swr new workflow` walk-through, replayed as a newcomer would (its commands, then its edit):
    each line it shows is one the kit prints."""
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("### In minutes: `swr new workflow`") : readme.index("### By hand")]
    blocks = re.findall(r"```console\n(.*?)```", section, re.S)
    edit = re.search(
        r"`type = \"array\"`, `items = \"number\"`, `length = \[1, 20\]`, `min = -100.0`, `max = 100.0`", section
    )
    assert len(blocks) == 2 and edit, section
    (tmp_path / "catalog").mkdir()
    for i, block in enumerate(blocks):
        command, *shown = block.strip().splitlines()
        args = shlex.split(command.removeprefix("$ .venv/bin/swr "))
        res = swr(*args, "-n", "2", cwd=tmp_path)
        assert res.returncode == (1 if i == 0 else 0), res.stdout + res.stderr
        assert res.stdout.splitlines() == shown, res.stdout
        if i == 0:
            spec = tmp_path / "catalog" / "data-document" / "statistics" / "fmean" / "workflow.toml"
            old = '[inputs.data]\ntype = "number"\nmin = 0.0\nmax = 1.0\n'
            new = '[inputs.data]\ntype = "array"\nitems = "number"\nlength = [1, 20]\nmin = -100.0\nmax = 100.0\n'
            assert old in spec.read_text()
            spec.write_text(spec.read_text().replace(old, new))


def test_run_py_makes_numpy_pandas_and_stdlib_values_json() -> None:
    """The scaffolded run.py's conversion: what scientific functions return becomes the JSON the judge reads."""
    import collections
    import dataclasses
    import decimal
    import fractions

    import numpy as np
    import pandas as pd

    ns: dict[str, Any] = {}
    exec(function_run_py("colorsys:rgb_to_hls", from_signature(describe("colorsys:rgb_to_hls"))), ns)  # noqa: S102
    jsonable = ns["jsonable"]
    point = collections.namedtuple("point", "x y")

    @dataclasses.dataclass
    class Fit:
        slope: float

    value = {
        "a": np.arange(4.0).reshape(2, 2),
        "n": np.int64(3),
        "b": np.bool_(True),
        "f": np.float32(0.5),
        "df": pd.DataFrame({"x": [1, 2], "y": [0.5, 1.5]}),
        "s": pd.Series([1.0, 2.0]),
        "q": fractions.Fraction(1, 4),
        "d": decimal.Decimal("2.5"),
        "c": 1 + 2j,
        "set": {3, 1, 2},
        "p": point(1, 2),
        "fit": Fit(0.25),
        7: (1, 2),
    }
    assert json.loads(json.dumps(jsonable(value))) == {
        "a": [[0.0, 1.0], [2.0, 3.0]],
        "n": 3,
        "b": True,
        "f": 0.5,
        "df": {"x": [1, 2], "y": [0.5, 1.5]},
        "s": [1.0, 2.0],
        "q": 0.25,
        "d": 2.5,
        "c": {"real": 1.0, "imag": 2.0},
        "set": [1, 2, 3],
        "p": {"x": 1, "y": 2},
        "fit": {"slope": 0.25},
        "7": [1, 2],
    }
    with pytest.raises(TypeError, match="convert it in run.py"):
        jsonable(object())


def test_a_third_party_function_brings_its_pip_requirement() -> None:
    import numpy as np

    d = from_signature(describe("numpy:linspace"))
    assert d.pip == [f"numpy>={np.__version__}"]
    assert d.inputs["num"] == {"type": "integer", "min": 25, "max": 100} and d.inputs["endpoint"] == {"type": "boolean"}
    assert "dtype" not in d.inputs and d.args[:2] == ["start", "stop"]


def test_the_signature_probe_runs_in_either_sandbox(backend: Sandbox) -> None:
    """The author's module is imported under the sandbox's rules, on each backend, never in swr's process."""
    doc = probe("colorsys:rgb_to_hls", backend)
    assert [p["name"] for p in doc["params"]] == ["r", "g", "b"] and doc["stdlib"] is True
    with pytest.raises(SwrError, match="has no attribute"):
        probe("colorsys:nope", backend)
    assert probe("this:__loader__.get_filename", backend)["params"]  # `this` prints the Zen of Python on import
