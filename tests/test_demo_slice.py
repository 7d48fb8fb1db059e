"""`swr demo` builds the slice listed in catalog/demo.toml by default (`make demo` in 10 minutes), `--full` the
whole catalog; a bad slice file is one line naming it and its field, exit 2."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import CATALOG, FIXTURES, ROOT, copy_tree, swr

from swr.core.errors import SwrError
from swr.kinds.workflow.catalog import catalog_specs, demo_families, demo_slice
from swr.kinds.workflow.spec import load_spec


def test_shipped_slice_spans_every_domain_and_installs_without_apt() -> None:
    """The documented slice holds every domain of the catalog, each entry a workflow of it; `make demo` installs
    the slice's families only, and with pip alone (no apt, so no root)."""
    specs = [load_spec(d) for d in demo_slice(CATALOG)]
    assert {s.domain for s in specs} == {s.domain for s in catalog_specs(CATALOG)}
    assert all(d.is_relative_to(CATALOG) for d in demo_slice(CATALOG))
    fams = demo_families(CATALOG)
    assert sorted(f.name for f in fams) == sorted({s.family for s in specs})
    assert sorted(s.name for f in fams for s in f.specs) == sorted(s.name for s in specs)
    assert [s.name for s in specs if s.requires.apt] == []
    assert "catalog install --demo" in (ROOT / "Makefile").read_text()


def test_demo_without_catalog_builds_exactly_the_shipped_slice(tmp_path: Path, monkeypatch) -> None:
    """From the repository root, plain `swr demo` builds and grades the workflows demo.toml lists, no others."""
    monkeypatch.setenv("SWR_CACHE", str(tmp_path / "cache"))
    res = swr("demo", "--out", str(tmp_path / "release"), "--variants", "1", "-n", "2", cwd=ROOT)
    assert res.returncode == 0, res.stderr[-3000:]
    specs = [load_spec(d) for d in demo_slice(CATALOG)]
    built = sorted(p.name for p in (tmp_path / "release" / "tasks").iterdir())
    assert built == sorted(f"{s.name}-v1" for s in specs)
    n = len(specs)
    assert f"{n}/{n} oracle passes, 0 nop passes" in res.stdout
    done = [ln for ln in res.stderr.splitlines() if re.fullmatch(rf"\[\d+/{n}\] \S+: 1 task \(\d+ s\)", ln)]
    assert len(done) == n, res.stderr[-3000:]


def _catalog(root: Path, slice_text: str) -> Path:
    """A two-workflow catalog whose demo.toml says SLICE_TEXT."""
    copy_tree(FIXTURES / "good-linear", root / "catalog" / "data-document" / "fixtures" / "good-linear")
    copy_tree(FIXTURES / "good-entry", root / "catalog" / "data-document" / "fixtures" / "good-entry")
    (root / "catalog" / "demo.toml").write_text(slice_text)
    return root / "catalog"


def test_demo_builds_the_slice_and_full_builds_the_catalog(tmp_path: Path, monkeypatch) -> None:
    """The slice is whatever demo.toml lists (read where the demo runs), and --full ignores it."""
    monkeypatch.setenv("SWR_CACHE", str(tmp_path / "cache"))
    _catalog(tmp_path, 'workflows = ["data-document/fixtures/good-linear"]\n')
    res = swr("demo", "--out", "sliced", "--variants", "1", "-n", "2", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in (tmp_path / "sliced" / "tasks").iterdir()) == ["good-linear-v1"]
    res = swr("demo", "--full", "--out", "full", "--variants", "1", "-n", "2", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in (tmp_path / "full" / "tasks").iterdir()) == ["good-entry-v1", "good-linear-v1"]
    assert "2/2 oracle passes, 0 nop passes" in res.stdout


BAD = [
    ('workflows = ["data-document/fixtures/nope"]\n', "workflows[0]", "is not a workflow directory"),
    ('workflows = ["data-document/fixtures/good-linear", "../catalog/x"]\n', "workflows[1]", "not a path relative"),
    ('workflows = ["/etc"]\n', "workflows[0]", "not a path relative"),
    ("workflows = [3]\n", "workflows[0]", "not a path relative"),
    (
        'workflows = ["data-document/fixtures/good-linear", "data-document/fixtures/good-linear"]\n',
        "workflows[1]",
        "listed twice",
    ),
    ("workflows = []\n", "workflows", "non-empty list"),
    ('workflows = "data-document/fixtures/good-linear"\n', "workflows", "non-empty list"),
    ('workflow = ["data-document/fixtures/good-linear"]\n', "workflow", "unknown key"),
    ("workflows = [\n", None, "unreadable"),
]


@pytest.mark.parametrize(("text", "field", "says"), BAD)
def test_a_bad_slice_file_is_one_line_naming_it_exit_2(tmp_path: Path, text: str, field: str | None, says: str) -> None:
    """Each defect of demo.toml stops the demo before building, on one line with the file and the field."""
    _catalog(tmp_path, text)
    res = swr("demo", "--out", "release", cwd=tmp_path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    [line] = res.stderr.splitlines()
    where = "catalog/demo.toml" + (f": field `{field}`" if field else "")
    assert line.startswith(f"swr: {where}: ") and says in line, line
    assert not (tmp_path / "release").exists()
    with pytest.raises(SwrError, match=re.escape(says)):
        demo_families(tmp_path / "catalog")


def test_a_missing_slice_file_points_at_full_and_install_demo_stands_alone(tmp_path: Path) -> None:
    """Without demo.toml the demo says so (and how to build everything); --demo with --all or names is refused."""
    res = swr("demo", "--out", "release", cwd=tmp_path)
    assert res.returncode == 2 and res.stderr.strip() == (
        "swr: catalog/demo.toml: no demo slice: list workflows in it, or build the whole catalog with --full"
    )
    res = swr("demo", "--full", "--catalog", "x", cwd=tmp_path)
    assert res.returncode == 2 and "field `--full`" in res.stderr and len(res.stderr.splitlines()) == 1
    for args in (["--demo", "--all"], ["--demo", "sgp4"]):
        res = swr("catalog", "install", *args, "--root", str(CATALOG))
        assert res.returncode == 2 and "--demo alone" in res.stderr
