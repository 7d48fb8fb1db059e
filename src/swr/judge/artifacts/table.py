"""Table comparator (CSV, TSV, Parquet): columns, row count, per-column kind and cells, so
quoting, whitespace, float spelling (1.0, 1.00, 1e0) and CSV ↔ Parquet do not matter.

The reference decides how a column compares: text columns (a Parquet string type, a CSV column with
a non-number or a leading-zero integer such as `02139`, or one named in `text_columns`) as written;
integer columns (Parquet integer type, or CSV integers without a decimal point) exactly; float columns
within atol + rtol·|ref|. Missing cells (empty, NaN, NA, N/A, null... as pandas reads them, Parquet
null or float NaN) equal each other and never a present value; but a reference's text is literal: in its text
columns only an empty cell (or a Parquet null) is missing, so its `NA` (Namibia) is a value that an empty cell
does not match, while a candidate's `NA` still matches the reference's empty cell. A pandas index stored in Parquet
(`__index_level_0__`, or a named index in the pandas metadata) is a column when the reference stores
one; when the reference has none (a default RangeIndex), an unnamed one (`__index_level_N__`) is ignored and
a named one is an ordinary column (`df.groupby("k").agg(...).to_parquet()` stores the key `k` as the index)."""

from __future__ import annotations

import csv
import json
import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ._common import (
    ArtifactConfigError,
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
DEFAULTS: dict[str, Any] = {"text_columns": []}  # reference columns always compared as text
_BOOLS = {"true": True, "false": False}
# pandas' default na_values: what read_csv turns into a missing value
MISSING = frozenset(
    {
        "",
        "#N/A",
        "#N/A N/A",
        "#NA",
        "-1.#IND",
        "-1.#QNAN",
        "-NaN",
        "-nan",
        "1.#IND",
        "1.#QNAN",
        "<NA>",
        "N/A",
        "NA",
        "NULL",
        "NaN",
        "None",
        "n/a",
        "nan",
        "null",
    }
)
_INT = re.compile(r"[+-]?\d+")
_LEADING_ZERO = re.compile(r"[+-]?0\d")  # 02139, 007, 00.5: an identifier, not a number
_INDEX = re.compile(r"__index_level_\d+__")
_SHOWN = 20  # mismatching columns / cells listed in a check
_BATCH = 1 << 16  # Parquet rows decoded per step, each step admitted to the budget first
# rows per step when strings must be decoded before they are counted: a step holds at most this many times the
# longest dictionary entry, itself bounded by the file's admitted size
_PLAIN_BATCH = 16
NUMERIC = ("integer", "float")


@dataclass
class Column:
    """One column: kind is integer | float | string | bool | null (every cell missing). `raw` is
    the text as written (CSV), None for Parquet, whose text form is derived from the values."""

    name: str
    kind: str
    values: list[Any]  # None for a missing cell; int, float, str or bool by kind
    raw: list[str | None] | None = None
    index: bool = False  # a pandas index stored as a Parquet column


def _number(text: str) -> int | float | None:
    """The number a CSV cell spells (int for integer text), or None; NaN counts as missing."""
    if "_" in text:  # Python's float() takes 1_000, pandas does not
        return None
    try:
        value: int | float = int(text) if _INT.fullmatch(text) else float(text)
    except ValueError:  # not a number, or an integer too long for int()
        try:
            value = float(text)
        except ValueError:
            return None
    return None if isinstance(value, float) and math.isnan(value) else value


def _typed(name: str, written: list[str]) -> Column:
    """Infer a CSV column's kind from its non-missing cells (stripped, as written): all true/false → bool, all
    integers without a leading zero → integer, all numbers → float, else string. In a text column only an
    empty cell is missing: `NA` is Namibia's code and `None` a word there, not pandas' missing value."""
    cells = [_cell(c) for c in written]
    present = [c for c in cells if c is not None]
    if not present:
        return Column(name, "null", cells, cells)
    if all(c.lower() in _BOOLS for c in present):
        return Column(name, "bool", [None if c is None else _BOOLS[c.lower()] for c in cells], cells)
    nums = [None if c is None else _number(c) for c in cells]
    text = [c or None for c in written]
    if any(n is None for n, c in zip(nums, cells) if c is not None):
        return Column(name, "string", text, text)
    if all(_INT.fullmatch(c) for c in present):
        if any(_LEADING_ZERO.match(c) for c in present):
            return Column(name, "string", text, text)
        return Column(name, "integer", nums, cells)
    return Column(name, "float", [None if n is None else float(n) for n in nums], cells)


def _cell(text: str) -> str | None:
    """A CSV cell stripped, or None when pandas would read it as missing."""
    text = text.strip()
    return None if text in MISSING else text


def read_csv(path: Path, delimiter: str, budget: Budget) -> list[Column]:
    """Header row then data rows; cells stripped, missing spellings missing, blank lines skipped.
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
    return [_typed(name, [c.strip() for c in col]) for name, col in zip(header, cols)]


def _arrow_kind(typ: Any) -> str:
    """Integer, float, bool or string, from an Arrow type (dates and others compared as text)."""
    import pyarrow.types as pt

    if pt.is_boolean(typ):
        return "bool"
    if pt.is_integer(typ):
        return "integer"
    if pt.is_floating(typ) or pt.is_decimal(typ):
        return "float"
    return "string"


def _arrow_cell(value: Any, kind: str) -> Any:
    """A Parquet cell in the same form a CSV cell takes (strings stripped, an empty one missing, float NaN
    missing)."""
    if value is None:
        return None
    if kind == "integer":
        return int(value)
    if kind == "float":
        value = float(value)
        return None if math.isnan(value) else value
    if kind == "bool":
        return bool(value)
    return (value.isoformat() if hasattr(value, "isoformat") else str(value)).strip() or None


def _pandas_index(schema: Any) -> set[str]:
    """Names of the columns that store a pandas index: from the pandas metadata, else by the
    `__index_level_N__` names pandas gives an unnamed index."""
    names = {f.name for f in schema if _INDEX.fullmatch(str(f.name))}
    try:
        meta = json.loads((schema.metadata or {}).get(b"pandas", b"{}"))
        names |= {c for c in meta.get("index_columns", []) if isinstance(c, str)}
    except (ValueError, AttributeError, TypeError):
        pass  # unreadable metadata: the names alone decide
    return names


def _is_text(typ: Any) -> bool:
    """String or binary: the types a dictionary page can multiply far beyond the file's size."""
    import pyarrow.types as pt

    return bool(pt.is_string(typ) or pt.is_large_string(typ) or pt.is_binary(typ) or pt.is_large_binary(typ))


def _dense_bytes(batch: Any) -> int:
    """Bytes of a record batch once dictionary-encoded cells are expanded, as to_pylist will;
    computed from value lengths, without expanding them."""
    import pyarrow.compute as pc
    import pyarrow.types as pt

    total = 0
    for col in batch.columns:
        if not pt.is_dictionary(col.type):
            total += col.nbytes
            continue
        lo, hi = (v.as_py() for v in pc.min_max(col.indices).values())
        if hi is not None and not 0 <= lo <= hi < len(col.dictionary):
            raise _MalformedDictionary
        if _is_text(col.dictionary.type):
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
    try:  # strings stay encoded until counted
        return _parquet_columns(pq.ParquetFile(str(path), read_dictionary=text), budget, _BATCH)
    except _MalformedDictionary:  # pyarrow's encoded read of this file is wrong: decode, in small steps
        return _parquet_columns(pq.ParquetFile(str(path)), budget, _PLAIN_BATCH)


class _MalformedDictionary(Exception):
    """pyarrow (26) returned dictionary indices past their dictionary: it misreads some writers' dictionary
    pages (DuckDB 2.0's) when asked to keep them encoded, while a plain read of the same file is right."""


def _parquet_columns(pf: Any, budget: Budget, batch_rows: int) -> list[Column]:
    fields = list(pf.schema_arrow)
    index = _pandas_index(pf.schema_arrow)
    kinds = [_arrow_kind(f.type) for f in fields]
    cells: list[list[Any]] = [[] for _ in fields]
    rows = dense = 0
    for batch in pf.iter_batches(batch_size=batch_rows):
        rows, dense = rows + batch.num_rows, dense + _dense_bytes(batch)
        budget.admit("cells", rows * len(fields))
        budget.admit("bytes", dense)
        for store, kind, col in zip(cells, kinds, batch.columns):
            store.extend(_arrow_cell(v, kind) for v in col.to_pylist())
    return [
        Column(
            str(f.name).strip(), kind if any(v is not None for v in values) else "null", values, index=f.name in index
        )
        for f, kind, values in zip(fields, kinds, cells)
    ]


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


def _text(col: Column) -> list[str | None]:
    """The column as text: CSV cells as written, Parquet values spelled as a CSV writer would."""
    if col.raw is not None:
        return col.raw
    return [None if v is None else str(v).lower() if isinstance(v, bool) else str(v) for v in col.values]


def _as_kind(col: Column, kind: str) -> list[Any] | None:
    """The candidate column's cells read as the reference's kind, or None when they cannot be.
    An all-missing candidate column fits any kind: its cells then say what is wrong."""
    if col.kind == "null" or col.kind == kind:
        return col.values if kind != "string" else _text(col)
    if kind == "string":
        return _text(col)
    if kind in NUMERIC:
        if col.kind in NUMERIC:
            return col.values
        if col.raw is not None and col.kind == "string":  # CSV 007: pandas reads the number 7
            nums = [None if c is None else _number(c) for c in col.raw]
            if all(n is not None for n, c in zip(nums, col.raw) if c is not None):
                return nums
    return None


def _float(value: Any) -> float:
    """float(value), with an integer beyond the float range as ±inf rather than an error."""
    try:
        return float(value)
    except OverflowError:
        return math.copysign(math.inf, value)


def _float_bad(ref: list[Any], cand: list[Any], atol: float, rtol: float) -> np.ndarray:
    """Mask of mismatching float cells: missing only equals missing, inf only itself."""
    rm = np.array([v is None for v in ref], dtype=bool)
    cm = np.array([v is None for v in cand], dtype=bool)
    r = np.array([np.nan if v is None else _float(v) for v in ref], dtype=np.float64)
    c = np.array([np.nan if v is None else _float(v) for v in cand], dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        inf = np.isinf(r) | np.isinf(c)
        finite_ok = np.abs(c - r) <= atol + rtol * np.abs(r)
    ok = np.where(inf, r == c, finite_ok)
    ok = np.where(rm | cm, rm & cm, ok)
    return ~ok


def _exact_bad(ref: list[Any], cand: list[Any]) -> np.ndarray:
    """Mask of cells not exactly equal (3.0 equals 3; missing only equals missing)."""
    return np.array([(a is None) != (b is None) or (a is not None and a != b) for a, b in zip(ref, cand)], dtype=bool)


def _text_bad(ref: list[str | None], cand: list[str | None]) -> np.ndarray:
    """Mask of text cells that differ: the reference's text is literal (its `NA` is a value), and a candidate's
    missing spelling (NaN, NA, null ...) stands for a missing cell only where the reference's is missing."""
    return np.array([a != b and not (a is None and (b is None or b in MISSING)) for a, b in zip(ref, cand)], dtype=bool)


def _text_columns(raw: Any, ref: Mapping[str, Column]) -> set[str]:
    """The text_columns option: reference column names; anything else is the task's mistake."""
    if isinstance(raw, str) or not isinstance(raw, (list, tuple)) or not all(isinstance(n, str) for n in raw):
        raise ArtifactConfigError(f"text_columns must be a list of column names, got {raw!r}")
    unknown = [n for n in raw if n not in ref]
    if unknown:
        raise ArtifactConfigError(f"text_columns names no reference column: {unknown}")
    return set(raw)


def _cells(
    ref: dict[str, Column], kinds: dict[str, str], cand: dict[str, list[Any]], atol: float, rtol: float
) -> dict[str, Any]:
    """The cells check over the columns whose kinds fit: floats within tolerance, the rest exact."""
    n_bad, first, tol = 0, None, None
    for key, cv in cand.items():
        kind = kinds[key]
        rv: list[Any] = _text(ref[key]) if kind == "string" else ref[key].values
        bad = (
            _float_bad(rv, cv, atol, rtol)
            if kind == "float"
            else _text_bad(rv, cv)
            if kind == "string"
            else _exact_bad(rv, cv)
        )
        n_bad += int(bad.sum())
        if first is None and bad.any():
            i = int(np.argmax(bad))
            first = {"row": i, "column": key, "expected": rv[i], "got": cv[i]}
            if kind == "float" and rv[i] is not None:
                tol = atol + rtol * abs(rv[i])
    return check(
        n_bad == 0,
        None if first is None else first["expected"],
        None if first is None else first["got"],
        tol,
        bad_cells=n_bad,
        where=None if first is None else f"row {first['row']}, column {first['column']!r}",
        atol=atol,
        rtol=rtol,
    )


def compare_table(
    reference: Path, candidate: Path, atol: float, rtol: float, options: Mapping[str, Any] | None = None
) -> ArtifactResult:
    """Columns matched by name (order reported, not graded), rows in order, kinds as the reference
    decides (see the module docstring), floats within atol + rtol·|ref|, everything else exact."""
    opts = options_for("table", options, DEFAULTS)
    pair = load_pair(
        "table",
        reference,
        lambda b: load_table(reference, reference.suffix.lower(), b),
        lambda b: load_table(candidate, read_suffix(candidate, reference, SUFFIXES), b),
    )
    if isinstance(pair, ArtifactResult):
        return pair
    ref_cols, cand_cols = pair
    if not any(c.index for c in ref_cols):  # the reference's index is a default RangeIndex: the candidate's
        cand_cols = [c for c in cand_cols if not (c.index and _INDEX.fullmatch(c.name))]  # unnamed one is noise

    ref, cand = _keyed(ref_cols), _keyed(cand_cols)
    text = _text_columns(opts["text_columns"], ref)
    kinds = {k: "string" if k in text else col.kind for k, col in ref.items()}
    common = [k for k in ref if k in cand]
    checks = {
        "columns": check(
            set(ref) == set(cand),
            list(ref),
            list(cand),
            None,
            missing=[k for k in ref if k not in cand],
            extra=[k for k in cand if k not in ref],
            same_order=list(ref) == list(cand),
        )
    }
    r_rows = len(ref_cols[0].values) if ref_cols else 0
    c_rows = len(cand_cols[0].values) if cand_cols else 0
    checks["rows"] = check(r_rows == c_rows, r_rows, c_rows)
    read = {k: _as_kind(cand[k], kinds[k]) for k in common}
    kind_bad = [k for k in common if read[k] is None]
    checks["kinds"] = check(
        not kind_bad, {k: kinds[k] for k in kind_bad[:_SHOWN]}, {k: cand[k].kind for k in kind_bad[:_SHOWN]}
    )
    if checks["rows"]["ok"]:
        fit = {k: v for k, v in read.items() if v is not None}
        checks["cells"] = _cells(ref, kinds, fit, atol, rtol)
    return finish("table", checks)
