"""Composition statistics (swr.report.composition): the SWR paper's Figures 4, 8 and 11 from a release, through the
kinds protocol (KindTask.composition), in `swr tasks --stats` and the report."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import swr
from rich.console import Console

from swr.kinds.engine.task import EngineTask
from swr.kinds.protocol import Composition
from swr.report.composition import (
    OUTPUT_TYPES,
    checkable_fields,
    file_type,
    json_types,
    output_types,
    render,
    summarise,
)

DIGEST = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"


def test_every_paper_output_type_has_suffixes() -> None:
    examples = {
        "t.parquet": "tables",
        "run.log": "logs/text",
        "doc.json": "JSON",
        "p.png": "images",
        "s.flac": "audio",
        "d.nc": "scientific data",
        "f.c": "code",
        "r.fastq": "biological sequences",
        "m.stl": "geometry",
        "page.html": "markup",
        "cap.pcapng": "packet captures",
        "conf.yaml": "configuration files",
    }
    assert {file_type(n) for n in examples} == set(OUTPUT_TYPES)
    assert all(file_type(n) == t for n, t in examples.items())
    assert file_type("F.C") == "code" and file_type("noext") is None


def test_json_fields_are_classified_by_their_shape() -> None:
    assert json_types({"rows": [{"a": 1, "b": 2}, {"a": 3, "b": 4}]}) == {"tables", "JSON"}
    assert json_types({"m": [[1, 2], [3, 4], [5, 6]]}) == {"tables"}
    assert json_types({"log": "line one\nline two"}) == {"logs/text"}
    assert json_types({"fit": {"slope": 1.0}}) == {"JSON"}
    assert json_types({"x": 1.0, "z": [1, 2], "s": "one line\n"}) == set()  # scalars and a vector: none
    assert json_types({"rows": [{"a": 1}, {"b": 2}]}) == {"JSON"}  # records of different keys are no table
    comp = Composition(("numeric",), {"mesh": "m.stl", "note": "a\nb", "n": 3}, ("m.stl",))
    assert output_types(comp) == {"geometry", "logs/text"}
    named = Composition((), {"doc": "x.txt"}, ("x.txt",))
    assert output_types(named) == {"logs/text"}  # by its suffix; the name itself is no text


def test_checkable_fields_leave_out_digests_and_timings() -> None:
    doc = {
        "y": 1.0,
        "z": [1, 2, 3],
        "mesh": "m.stl",
        "sha256": "abc",
        "content": DIGEST,
        "file_digest": "x",
        "wall_s": 0.12,
        "nested": {"elapsed": 3.0, "k": "v", "empty": []},
    }
    assert checkable_fields(doc) == 1 + 3 + 1 + 1 + 1  # y, z's three, mesh, nested.k, nested.empty
    assert checkable_fields({}) == 1 and checkable_fields(None) == 1


def _row(family: str, types: list[str], fields: int | None, params: list[str]) -> dict[str, object]:
    return {
        "task": f"{family}-{len(types)}-{fields}",
        "kind": "workflow",
        "workflow": f"{family}-w",
        "family": family,
        "domain": "d",
        "parameters": params,
        "output_types": types,
        "checkable_fields": fields,
    }


def test_summary_marks_every_and_some_tasks_and_takes_medians() -> None:
    rows = [
        _row("a", ["tables", "code"], 4, ["numeric", "numeric", "string"]),
        _row("a", ["tables"], 10, ["numeric", "numeric", "string"]),
        _row("a", ["tables"], 30, ["numeric", "numeric", "string"]),
        _row("b", [], None, []),
    ]
    s = summarise(rows)
    fam = {f["family"]: f for f in s["families"]}
    assert fam["a"]["output_types"] == {"tables": "all", "code": "some"}
    assert fam["a"]["median_checkable_fields"] == 10.0
    assert fam["b"]["output_types"] == {} and fam["b"]["median_checkable_fields"] is None
    assert s["parameters"]["tasks_by_count"] == {"0": 1, "3": 3}
    assert s["parameters"]["types"] == {"numeric": 6, "string": 3, "boolean": 0, "array": 0, "mixed": 0}
    assert s["parameters"]["type_shares"]["numeric"] == round(6 / 9, 4)
    assert s["output_types"]["tables"] == 3 and s["output_types"]["code"] == 1
    c = s["checkable_fields"]
    assert (c["tasks"], c["median"], c["p90"]) == (3, 10.0, 26.0)
    assert c["histogram"] == {"2-5": 1, "6-10": 1, "21-50": 1}


def test_an_engine_task_answers_from_its_first_case() -> None:
    case = {"id": "c", "input": {"dxf": "text", "scale": 2.0, "flags": [1], "strict": True}, "expected": {"a": [1, 2]}}
    comp = EngineTask("e", Path("."), None, [case], []).composition()  # type: ignore[arg-type]
    assert comp.parameters == ("string", "numeric", "array", "boolean")
    assert comp.output == {"a": [1, 2]} and comp.artifacts == ()


def test_tasks_stats_of_a_built_release(linear_release: Path) -> None:
    """good-linear: two number inputs, outputs y and z = [a, b] (three checkable fields), two variants."""
    res = swr("tasks", str(linear_release), "--stats", "--json")
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert s["tasks"] == 2
    assert s["parameters"]["tasks_by_count"] == {"2": 2}
    assert s["parameters"]["types"]["numeric"] == 4 and s["parameters"]["type_shares"]["numeric"] == 1.0
    assert [w["parameters"] for w in s["parameters"]["workflows"]] == [2]
    assert {r["checkable_fields"] for r in s["rows"]} == {3}
    assert s["families"] == [
        {
            "family": "fixtures",
            "domain": "data-document",
            "tasks": 2,
            "output_types": {},
            "median_checkable_fields": 3.0,
        }
    ]
    console = Console(width=200, record=True)
    for table in render(s):
        console.print(table)
    text = console.export_text()
    assert "Fig. 4" in text and "Fig. 8" in text and "Fig. 11" in text and "scalars only" in text, text


def test_the_report_shows_the_composition(linear_release: Path, tmp_path: Path) -> None:
    res = swr("report", str(linear_release), "-o", str(tmp_path / "report"))
    assert res.returncode == 0, res.stderr
    page = (tmp_path / "report" / "index.html").read_text()
    for part in ("parameters", "output-types", "families", "checkable-fields"):
        assert f'id="composition-{part}-table"' in page
    assert "median 3.0, 90th percentile 3.0" in page
