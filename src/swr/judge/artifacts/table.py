"""Table comparator (CSV, TSV, Parquet): columns, row count, per-column kind and cells, so
quoting, whitespace, float spelling (1.0, 1.00, 1e0) and CSV ↔ Parquet do not matter."""
from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ._common import (
    ArtifactResult,
    check,
    finish,
    load_pair,
    options_for,
    read_suffix,
)

SUFFIXES = (".csv", ".tsv", ".parquet")
DEFAULTS: dict[str, Any] = {}
_BOOLS = {"true": True, "false": False}
_SHOWN = 20  # mismatching columns / cells listed in a check


@dataclass
class Column:
    """One column: kind is numeric | string | bool | null (every cell missing)."""

    name: str
    kind: str
    values: list[Any]  # None for a missing cell; floats for numeric, str, or bool


def _as_float(text: str) -> float | None:
    """float(text), or None when it is not a number."""
    try:
        return float(text)
    except ValueError:
        return None


def _typed(name: str, cells: list[str | None]) -> Column:
    """Infer a CSV column's kind from its non-missing cells: all true/false → bool, all
    numbers → numeric, else string."""
    present = [c for c in cells if c is not None]
    if not present:
        return Column(name, "null", cells)
    if all(c.lower() in _BOOLS for c in present):
        return Column(name, "bool", [None if c is None else _BOOLS[c.lower()] for c in cells])
    nums = [None if c is None else _as_float(c) for c in cells]
    if all(n is not None for n, c in zip(nums, cells) if c is not None):
        return Column(name, "numeric", nums)
    return Column(name, "string", cells)


def read_csv(path: Path, delimiter: str) -> list[Column]:
    """Header row then data rows; cells stripped, empty cells missing, blank lines skipped."""
    with open(path, newline="", encoding="utf-8-sig", errors="replace") as fh:
        rows = [r for r in csv.reader(fh, delimiter=delimiter, skipinitialspace=True) if r]
    if not rows:
        raise ValueError("no header row")
    header = [h.strip() for h in rows[0]]
    for i, row in enumerate(rows[1:]):
        if len(row) != len(header):
            raise ValueError(f"data row {i} has {len(row)} cells, header has {len(header)}")
    cols = list(zip(*rows[1:])) if len(rows) > 1 else [()] * len(header)
    return [_typed(name, [c.strip() or None for c in col]) for name, col in zip(header, cols)]


def _arrow_kind(typ: Any) -> str:
    """Numeric, bool or string, from an Arrow type (dates and others compared as text)."""
    import pyarrow.types as pt

    if pt.is_boolean(typ):
        return "bool"
    if pt.is_integer(typ) or pt.is_floating(typ) or pt.is_decimal(typ):
        return "numeric"
    return "string"


def _arrow_cell(value: Any, kind: str) -> Any:
    """A Parquet cell in the same form a CSV cell takes (strings stripped, '' missing)."""
    if value is None:
        return None
    if kind == "numeric":
        return float(value)
    if kind == "bool":
        return bool(value)
    text = value.isoformat() if hasattr(value, "isoformat") else str(value)
    return text.strip() or None


def read_parquet(path: Path) -> list[Column]:
    """Every column of the file, typed by its Arrow schema."""
    import pyarrow.parquet as pq

    table = pq.read_table(str(path))
    out = []
    for name, col in zip(table.column_names, table.columns):
        kind = _arrow_kind(col.type)
        values = [_arrow_cell(v, kind) for v in col.to_pylist()]
        out.append(Column(str(name).strip(), kind if any(v is not None for v in values) else "null",
                          values))
    return out


def load_table(path: Path, suffix: str) -> list[Column]:
    """Dispatch on the format suffix."""
    if suffix == ".parquet":
        return read_parquet(path)
    return read_csv(path, "\t" if suffix == ".tsv" else ",")


def _keyed(cols: list[Column]) -> dict[str, Column]:
    """Columns by name; a repeated name gets '#k' so duplicates pair up in order."""
    seen: Counter[str] = Counter()
    out = {}
    for col in cols:
        key = col.name if not seen[col.name] else f"{col.name}#{seen[col.name]}"
        seen[col.name] += 1
        out[key] = col
    return out


def _numeric_bad(ref: list[Any], cand: list[Any], atol: float, rtol: float) -> np.ndarray:
    """Mask of mismatching numeric cells: missing only equals missing, NaN only NaN, inf itself."""
    rm = np.array([v is None for v in ref], dtype=bool)
    cm = np.array([v is None for v in cand], dtype=bool)
    r = np.array([np.nan if v is None else v for v in ref], dtype=np.float64)
    c = np.array([np.nan if v is None else v for v in cand], dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        nan = np.isnan(r) | np.isnan(c)
        inf = np.isinf(r) | np.isinf(c)
        finite_ok = np.abs(c - r) <= atol + rtol * np.abs(r)
    ok = np.where(nan, np.isnan(r) & np.isnan(c), np.where(inf, r == c, finite_ok))
    ok = np.where(rm | cm, rm & cm, ok)
    return ~ok


def compare_table(reference: Path, candidate: Path, atol: float, rtol: float,
                  options: Mapping[str, Any] | None = None) -> ArtifactResult:
    """Columns matched by name (order reported, not graded), rows in order, kinds equal,
    numeric cells within atol + rtol·|ref|, strings and bools exact."""
    options_for("table", options, DEFAULTS)
    pair = load_pair("table", reference, lambda: load_table(reference, reference.suffix.lower()),
                     lambda: load_table(candidate, read_suffix(candidate, reference, SUFFIXES)))
    if isinstance(pair, ArtifactResult):
        return pair
    ref_cols, cand_cols = pair

    ref, cand = _keyed(ref_cols), _keyed(cand_cols)
    common = [k for k in ref if k in cand]
    checks = {"columns": check(
        set(ref) == set(cand), list(ref), list(cand), None,
        missing=[k for k in ref if k not in cand], extra=[k for k in cand if k not in ref],
        same_order=list(ref) == list(cand))}
    r_rows = len(ref_cols[0].values) if ref_cols else 0
    c_rows = len(cand_cols[0].values) if cand_cols else 0
    checks["rows"] = check(r_rows == c_rows, r_rows, c_rows)
    kind_bad = [k for k in common if ref[k].kind != cand[k].kind]
    checks["kinds"] = check(
        not kind_bad, {k: ref[k].kind for k in kind_bad[:_SHOWN]},
        {k: cand[k].kind for k in kind_bad[:_SHOWN]})
    if checks["rows"]["ok"]:
        n_bad, first = 0, None
        tol = None
        for key in common:
            if key in kind_bad:
                continue
            rv, cv = ref[key].values, cand[key].values
            if ref[key].kind == "numeric":
                bad = _numeric_bad(rv, cv, atol, rtol)
            else:
                bad = np.array([a != b for a, b in zip(rv, cv)], dtype=bool)
            n_bad += int(bad.sum())
            if first is None and bad.any():
                i = int(np.argmax(bad))
                first = {"row": i, "column": key, "expected": rv[i], "got": cv[i]}
                if ref[key].kind == "numeric" and rv[i] is not None:
                    tol = atol + rtol * abs(rv[i])
        checks["cells"] = check(
            n_bad == 0, None if first is None else first["expected"],
            None if first is None else first["got"], tol, bad_cells=n_bad,
            where=None if first is None else f"row {first['row']}, column {first['column']!r}",
            atol=atol, rtol=rtol)
    return finish("table", checks)
