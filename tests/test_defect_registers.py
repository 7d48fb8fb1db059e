"""The shipped defect registers (catalog/, engines/, revivals/ defects.toml): each validates as a build reads it,
each fixed defect names a regression test that exists, and each defect fixed since the registers record commits
names its fixing commit (issue 23: "the defect register lists every item with its signal and the fixing commit")."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest
from conftest import ROOT

from swr.audit.defects import read_toml

REGISTERS = [ROOT / d / "defects.toml" for d in ("catalog", "engines", "revivals")]
COMMITS_SINCE = dt.date(2026, 12, 1)  # the register gained `commit` then; earlier entries predate it


def functions_of(path: Path) -> set[str]:
    """The test functions a test file defines (at module level)."""
    tree = ast.parse(path.read_text())
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test")}


@pytest.mark.parametrize("register", REGISTERS, ids=lambda p: p.parent.name)
def test_every_fixed_defect_names_an_existing_test_and_its_commit(register: Path) -> None:
    defects = read_toml(register)
    assert defects, register
    for d in defects:
        if d.status != "fixed":
            continue
        file, _, name = d.test.partition("::")
        assert (ROOT / file).is_file(), (d.id, d.test)
        assert name.split("[")[0] in functions_of(ROOT / file), (d.id, d.test)
        if d.recorded >= COMMITS_SINCE:
            assert d.commit, f"{d.id}: recorded {d.recorded} without its fixing commit"


def test_the_registers_ids_are_unique_across_files() -> None:
    ids = [d.id for r in REGISTERS for d in read_toml(r)]
    assert len(ids) == len(set(ids))
