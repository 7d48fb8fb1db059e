"""The engine build's cache (swr.kinds.engine.build_cache): a second build of the same engine on the same host, swr
and seed reads what the first one checked, and writes the same bytes; any change to the engine's folder or the
seed checks it afresh; a check that found a problem is not kept."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from swr.core.hashing import tree_hash
from swr.kinds.engine import build_cache
from swr.kinds.engine.task import build_engine
from swr.sandbox import get_sandbox

ENGINE = ROOT / "engines" / "mes"  # the cheapest engine to check


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SWR_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv(build_cache.OFF, raising=False)
    return tmp_path / "cache" / "engine-checks"


def _build(src: Path, out: Path, seed: int = 0) -> Path:
    res = build_engine(src, out, get_sandbox("bwrap"), 2, seed)
    assert res.failure is None, res.failure
    return out / src.name


def test_a_second_build_reads_the_check_and_writes_the_same_bytes(cache: Path, tmp_path: Path) -> None:
    first = _build(ENGINE, tmp_path / "a")
    stored = list(cache.glob("*.json"))
    assert len(stored) == 1
    assert tree_hash(_build(ENGINE, tmp_path / "b")) == tree_hash(first)
    # the second build did read the stored check: what it holds is what the task records
    data = json.loads(stored[0].read_text())
    data["report"]["reference"]["labels"] = ["read-from-the-cache"]
    stored[0].write_text(json.dumps(data))
    third = _build(ENGINE, tmp_path / "c")
    assert "read-from-the-cache" in (third / "private" / "build.json").read_text()


def test_a_changed_engine_or_seed_is_checked_afresh(cache: Path, tmp_path: Path) -> None:
    _build(ENGINE, tmp_path / "a")
    src = shutil.copytree(ENGINE, tmp_path / "src" / "mes")
    (src / "spec.md").write_text((src / "spec.md").read_text() + "\n")
    _build(src, tmp_path / "b")
    _build(ENGINE, tmp_path / "c", seed=1)
    assert len(list(cache.glob("*.json"))) == 3


def test_a_check_with_a_problem_is_not_kept(cache: Path, tmp_path: Path) -> None:
    src = shutil.copytree(ENGINE, tmp_path / "src" / "mes")
    shutil.rmtree(src / "cheat")  # the build demands at least one cheating candidate
    res = build_engine(src, tmp_path / "a", get_sandbox("bwrap"), 2, 0)
    assert res.failure and "cheat" in res.failure
    assert not list(cache.glob("*.json"))
