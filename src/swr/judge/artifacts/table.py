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
    Budget,
    check,
    count_bytes,
    file_size,
    finish,
    load_pair,
    options_for,
    read_suffix,
)

SUFFIXES = (".csv", ".tsv", ".parquet")
DEFAULTS: dict[str, Any] = {}
_BOOLS = {"true": True, "false": False}
_SHOWN = 20  # mismatching columns / cells listed in a check
_BATCH = 1 << 16  # Parquet rows decoded per step, each step admitted to the budget first


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


def read_csv(path: Path, delimiter: str, budget: Budget) -> list[Column]:
    """Header row then data rows; cells stripped, empty cells missing, blank lines skipped.
    Size and cells (separators and line breaks, counted in a streamed scan) are admitted first."""
    file_size(path, budget)
    budget.admit("cells", count_bytes(path, delimiter.encode() + b"\n\r") + 1)
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


def _is_text(typ: Any) -> bool:
    """String or binary: the types a dictionary page can multiply far beyond the file's size."""
    import pyarrow.types as pt

    return bool(pt.is_string(typ) or pt.is_large_string(typ) or pt.is_binary(typ)
                or pt.is_large_binary(typ))


def _dense_bytes(batch: Any) -> int:
    """Bytes of a record batch once dictionary-encoded cells are expanded, as to_pylist will;
    computed from value lengths, without expanding them."""
    import pyarrow.compute as pc
    import pyarrow.types as pt

    total = 0
    for col in batch.columns:
        if not pt.is_dictionary(col.type):
            total += col.nbytes
        elif _is_text(col.dictionary.type):
            lengths = pc.take(pc.binary_length(col.dictionary), col.indices)
            total += int(pc.sum(lengths).as_py() or 0) + 8 * len(col)
        else:
            total += pc.take(col.dictionary, col.indices).nbytes
    return total


def _admit_metadata(pf: Any, budget: Budget) -> None:
    """Cells and uncompressed bytes as the footer declares them, before any page is read."""
    md = pf.metadata
    cells = md.num_rows * md.num_columns
    values = stored = 0
    for g in range(md.num_row_groups):
        group = md.row_group(g)
        for c in range(group.num_columns):
            chunk = group.column(c)
            values += chunk.num_values
            stored += chunk.total_uncompressed_size
    budget.admit("cells", max(cells, values))
    budget.admit("bytes", stored)


def read_parquet(path: Path, budget: Budget) -> list[Column]:
    """Every column of the file, typed by its Arrow schema. Decoded in batches of rows, each
    admitted to the budget (cells, bytes with dictionaries expanded) before it becomes Python values."""
    import pyarrow.parquet as pq

    file_size(path, budget)  # bounds the footer parsed next
    pf = pq.ParquetFile(str(path))
    _admit_metadata(pf, budget)
    text = [f.name for f in pf.schema_arrow if _is_text(f.type)]
    pf = pq.ParquetFile(str(path), read_dictionary=text)  # strings stay encoded until counted
    fields = list(pf.schema_arrow)
    kinds = [_arrow_kind(f.type) for f in fields]
    cells: list[list[Any]] = [[] for _ in fields]
    rows = dense = 0
    for batch in pf.iter_batches(batch_size=_BATCH):
        rows, dense = rows + batch.num_rows, dense + _dense_bytes(batch)
        budget.admit("cells", rows * len(fields))
        budget.admit("bytes", dense)
        for store, kind, col in zip(cells, kinds, batch.columns):
            store.extend(_arrow_cell(v, kind) for v in col.to_pylist())
    return [Column(str(f.name).strip(), kind if any(v is not None for v in values) else "null", values)
            for f, kind, values in zip(fields, kinds, cells)]


def load_table(path: Path, suffix: str, budget: Budget) -> list[Column]:
    """Dispatch on the format suffix."""
    if suffix == ".parquet":
        return read_parquet(path, budget)
    return read_csv(path, "\t" if suffix == ".tsv" else ",", budget)


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
    pair = load_pair("table", reference, lambda b: load_table(reference, reference.suffix.lower(), b),
                     lambda b: load_table(candidate, read_suffix(candidate, reference, SUFFIXES), b))
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
