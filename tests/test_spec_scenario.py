"""The workflow spec's validation and the seeded sampler."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from swr.core.errors import SwrError
from swr.core.hashing import canonical_json, content_hash
from swr.kinds.workflow.scenario import input_distance, sample_scenario
from swr.kinds.workflow.spec import load_spec

BASE = """
name = "w"
family = "fam"
domain = "data-document"
summary = "s"
command = ["python3", "run.py"]
"""

ALL_TYPES = (
    BASE
    + """
[inputs.x]
type = "number"
min = 0.5
max = 2.0
[inputs.lx]
type = "number"
min = 0.001
max = 1000.0
log = true
[inputs.k]
type = "integer"
min = -3
max = 3
[inputs.flag]
type = "boolean"
[inputs.body]
type = "categorical"
choices = ["earth", "moon", 3]
[inputs.arr]
type = "array"
items = "number"
length = [2, 4]
min = -1.0
max = 1.0
[inputs.cats]
type = "array"
items = "categorical"
length = [0, 3]
choices = ["a", "b"]
[inputs.file]
type = "path"
choices = ["data/a.txt", "data/b.txt"]
"""
)


def write(tmp: Path, text: str, files: tuple[str, ...] = ()) -> Path:
    d = tmp / "wf"
    d.mkdir(exist_ok=True)
    (d / "workflow.toml").write_text(text)
    for f in files:
        (d / f).parent.mkdir(parents=True, exist_ok=True)
        (d / f).write_text(f)
    return d


def test_every_type_samples_inside_its_declaration(tmp_path: Path) -> None:
    spec = load_spec(write(tmp_path, ALL_TYPES, ("data/a.txt", "data/b.txt")))
    seen_bools, seen_lens = set(), set()
    for draw in range(200):
        sc = sample_scenario(spec, 0, 1, draw)
        assert 0.5 <= sc["x"] <= 2.0 and 0.001 <= sc["lx"] <= 1000.0
        assert isinstance(sc["k"], int) and -3 <= sc["k"] <= 3
        assert sc["body"] in ("earth", "moon", 3) and sc["file"] in ("data/a.txt", "data/b.txt")
        assert 2 <= len(sc["arr"]) <= 4 and all(-1.0 <= v <= 1.0 for v in sc["arr"])
        assert set(sc["cats"]) <= {"a", "b"}
        seen_bools.add(sc["flag"])
        seen_lens.add(len(sc["cats"]))
    assert seen_bools == {True, False} and seen_lens == {0, 1, 2, 3}


def test_log_sampling_covers_decades(tmp_path: Path) -> None:
    spec = load_spec(write(tmp_path, ALL_TYPES, ("data/a.txt", "data/b.txt")))
    decades = {math.floor(math.log10(sample_scenario(spec, 0, 1, d)["lx"])) for d in range(300)}
    assert decades >= {-3, -2, -1, 0, 1, 2}  # uniform sampling would put ~all draws in [1, 1000)


def test_sampling_is_a_pure_function_of_seed_name_variant_draw(tmp_path: Path) -> None:
    spec = load_spec(write(tmp_path, ALL_TYPES, ("data/a.txt", "data/b.txt")))
    assert sample_scenario(spec, 7, 2, 5) == sample_scenario(spec, 7, 2, 5)
    assert sample_scenario(spec, 7, 2, 5) != sample_scenario(spec, 8, 2, 5)
    assert sample_scenario(spec, 7, 2, 5) != sample_scenario(spec, 7, 3, 5)
    other = load_spec(write(tmp_path, ALL_TYPES.replace('name = "w"', 'name = "v"'), ("data/a.txt", "data/b.txt")))
    assert sample_scenario(spec, 7, 2, 5) != sample_scenario(other, 7, 2, 5)


def test_canonical_json_ignores_key_order() -> None:
    assert canonical_json({"b": 1, "a": [1.5, None]}) == '{"a":[1.5,null],"b":1}'
    assert content_hash({"a": 1, "b": 2}) == content_hash({"b": 2, "a": 1})
    assert content_hash({"a": 1}) != content_hash({"a": 1.0})


def test_input_distance_is_zero_only_for_equal_scenarios(tmp_path: Path) -> None:
    spec = load_spec(write(tmp_path, ALL_TYPES, ("data/a.txt", "data/b.txt")))
    a, b = sample_scenario(spec, 0, 1, 0), sample_scenario(spec, 0, 1, 1)
    assert input_distance(spec, a, a) == 0.0
    assert input_distance(spec, a, b) > 0.0


@pytest.mark.parametrize(
    ("edit", "field", "words"),
    [
        (lambda t: t.replace('summary = "s"\n', ""), "summary", "missing"),
        (lambda t: t + '[inputs.z]\ntype = "complex"\n', "inputs.z.type", "number"),
        (lambda t: t + '[inputs.z]\ntype = "number"\nmin = 2.0\nmax = 1.0\n', "inputs.z", "min (2) > max (1)"),
        (lambda t: t + '[inputs.z]\ntype = "categorical"\nchoices = []\n', "inputs.z", "choices"),
        (lambda t: t + '[inputs.z]\ntype = "number"\nmin = 0.0\nmax = 1.0\nlog = true\n', "inputs.z", "min > 0"),
        (lambda t: t + '[inputs.z]\ntype = "path"\nchoices = ["nope.txt"]\n', "inputs.z.choices", "not a file"),
        (lambda t: t + '[inputs.z]\ntype = "number"\nmin = 0.0\nmax = 1.0\ncolour = 3\n', "inputs.z.colour", "known"),
        (lambda t: t.replace('domain = "data-document"', 'domain = "astrology"'), "domain", ""),
        (lambda t: t.replace('name = "w"', 'name = "Bad Name"'), "name", ""),
        (lambda t: 'entry = "run:main"\n' + t, "", "exactly one of `command` or `entry`"),
    ],
)
def test_bad_specs_name_file_and_field(tmp_path: Path, edit, field: str, words: str) -> None:
    text = edit(BASE + '[inputs.a]\ntype = "boolean"\n')
    d = write(tmp_path, text)
    with pytest.raises(SwrError) as e:
        load_spec(d)
    msg = str(e.value)
    assert str(d / "workflow.toml") in msg and "\n" not in msg
    if field:
        assert f"field `{field}`" in msg
    assert words in msg


def test_invalid_toml_syntax_is_one_line(tmp_path: Path) -> None:
    d = write(tmp_path, BASE + "[inputs.a\n")
    with pytest.raises(SwrError, match="invalid TOML") as e:
        load_spec(d)
    assert "\n" not in str(e.value)


def test_tolerances_follow_outputs_section(tmp_path: Path) -> None:
    text = (
        BASE + '[inputs.a]\ntype = "boolean"\n[outputs]\natol = 0.5\nignore = ["t"]\n'
        '[outputs.fields."s.*.x"]\nrtol = 0.01\ndescription = "x"\n'
    )
    tol = load_spec(write(tmp_path, text)).tolerances
    assert tol.atol == 0.5 and tol.rtol == 1e-4 and tol.ignore == ("t",)
    assert tol.fields == (("s.*.x", None, 0.01),)
    assert tol.for_path(("s", 3, "x")) == (0.5, 0.01)
    assert tol.for_path(("t",)) is None
