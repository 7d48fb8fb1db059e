"""`swr catalog list/doctor/install`: what the catalog holds and what is missing here."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import CATALOG, FIXTURES, copy_tree, swr

from swr.kinds.workflow.spec import DOMAINS


def test_list_json_describes_the_shipped_catalog() -> None:
    res = swr("catalog", "list", "--json", "--root", str(CATALOG))
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)
    assert {r["domain"] for r in rows} == set(DOMAINS)
    for r in rows:
        assert {"family", "domain", "workflows", "paths", "runnable"} <= set(r)
        assert r["runnable"] is True  # the test set-up installed the whole catalog
        assert len(r["paths"]) == len(r["workflows"])
        for p in r["paths"]:
            assert p.startswith("catalog/") and (CATALOG.parent / p / "workflow.toml").is_file()


def _tree_with_missing_requirements(tmp_path: Path) -> Path:
    root = tmp_path / "catalog"
    wf = copy_tree(FIXTURES / "good-linear", root / "data-document" / "fixtures" / "needs-things")
    text = (wf / "workflow.toml").read_text().replace('name = "good-linear"', 'name = "needs-things"')
    text = text.replace("pip = []", 'pip = ["swr-surely-absent-package>=1", "numpy>=1"]')
    text = text.replace("apt = []", 'apt = ["swr-surely-absent-deb"]')
    (wf / "workflow.toml").write_text(text)
    return root


def test_list_and_doctor_report_what_is_missing(tmp_path: Path) -> None:
    root = _tree_with_missing_requirements(tmp_path)
    rows = json.loads(swr("catalog", "list", "--json", "--root", str(root)).stdout)
    assert rows[0]["runnable"] is False
    assert rows[0]["missing"] == {"pip": ["swr-surely-absent-package>=1"], "apt": ["swr-surely-absent-deb"]}
    res = swr("catalog", "doctor", "--root", str(root))
    assert res.returncode == 1
    assert "swr-surely-absent-package" in res.stdout and "swr-surely-absent-deb" in res.stdout
    assert "swr catalog install fixtures" in res.stdout and "numpy" not in res.stdout


def test_doctor_is_quiet_when_everything_is_installed() -> None:
    res = swr("catalog", "doctor", "--root", str(CATALOG))
    assert res.returncode == 0 and "every family" in res.stdout


def test_install_rejects_unknown_families_and_empty_calls() -> None:
    res = swr("catalog", "install", "no-such-family", "--root", str(CATALOG))
    assert res.returncode == 2 and "unknown family 'no-such-family'" in res.stderr
    res = swr("catalog", "install", "--root", str(CATALOG))
    assert res.returncode == 2 and "--all" in res.stderr
