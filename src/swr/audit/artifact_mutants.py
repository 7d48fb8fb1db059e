"""Artifact mutants beyond meshes: the same table, page or picture written the way another correct program
would (valid by construction), and the slips a tolerant comparator lets through (invalid by construction):
an integer off by one, ID columns losing their leading zeros, an image whose display tags change what a
viewer shows."""

from __future__ import annotations

import ast
import csv
import io
import re
import shutil
import struct
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from swr.judge import Tolerances
from swr.judge.artifacts import artifact_kind
from swr.judge.artifacts.fields import Reference, artifact_leaves
from swr.judge.artifacts.fields import replaced as set_leaf
from swr.judge.artifacts.table import _typed

from .mutants import Mutant, _encode

Writer = Callable[[Path], object]  # what it returns (a byte count, a path) is not used
Edit = tuple[str, bool, Writer, str | None]  # class, valid, writer, another file suffix or None
MISSING = ("NaN", "NA", "")  # spellings pandas reads as a missing cell
_MISSING_IN = {"", "nan", "NaN", "NA"}
_INT = re.compile(r"[-+]?\d+")
_LEADING_ZERO = re.compile(r"0\d+")
HTML_SUFFIXES = (".html", ".htm")
_VOID = re.compile(
    r"<(area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr)\b([^<>]*?)\s*(/?)>", re.IGNORECASE
)
EXIF_ORIENTATION = 0x0112
_C_SIGNATURE = re.compile(r"^[ \t]*(?:double|float|int|long|void)[ \t]+(\w+)[ \t]*\(([^)]*)\)[ \t]*\{", re.MULTILINE)
_C_NUMBER = re.compile(r"(?<![\w.])(\d+)(\.\d*)?(?![\w.])")
_C_PLUS = re.compile(r"(?<=[\w)\]]) \+ (?=[\w(])")


def artifact_mutant(
    ref: Reference, arts: list[tuple[tuple, str]], path: tuple, name: str, scratch: Path, edit: Edit
) -> Mutant:
    """The reference output naming the mutated file, in a directory that also holds its other artifacts."""
    klass, valid, write, suffix = edit
    d = Path(tempfile.mkdtemp(dir=scratch))
    for other in (n for _, n in arts):
        if other != name:
            shutil.copyfile(ref.files / other, d / other)  # type: ignore[operator]
    out_name = Path(name).stem + (suffix or Path(name).suffix)
    write(d / out_name)
    return Mutant(klass, valid, _encode(set_leaf(ref.output, path, out_name)), d)


def _text(data: str) -> Writer:
    return lambda dest: dest.write_text(data, encoding="utf-8")


def _csv_rows(source: Path) -> tuple[list[list[str]], str]:
    delimiter = "\t" if source.suffix.lower() == ".tsv" else ","
    with open(source, newline="", encoding="utf-8-sig") as fh:
        return [r for r in csv.reader(fh, delimiter=delimiter) if r], delimiter


def _csv_text(rows: list[list[str]], delimiter: str) -> str:
    buf = io.StringIO()
    csv.writer(buf, delimiter=delimiter, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def csv_edits(source: Path) -> Iterator[Edit]:
    """Missing cells spelled NaN, NA or empty (valid); the largest integer of an integer column plus one,
    and an ID column without its leading zeros (invalid)."""
    rows, delim = _csv_rows(source)
    header, body = rows[0], rows[1:]
    text = {j for j, col in enumerate(zip(*body)) if _typed(header[j], [c.strip() for c in col]).kind == "string"}
    # a text column's missing cell is an empty one: its `NA` is a value (Namibia), not to be re-spelled
    nulls = [[c.strip() == "" if j in text else c.strip() in _MISSING_IN for j, c in enumerate(r)] for r in body]
    missing = {c.strip() for r, null in zip(body, nulls) for c, n in zip(r, null) if n}
    for spelling in MISSING:
        if missing - {spelling}:
            redone = [header] + [[spelling if n else c for c, n in zip(r, null)] for r, null in zip(body, nulls)]
            yield f"table_missing_as_{spelling or 'empty'}", True, _text(_csv_text(redone, delim)), None
    for j in range(len(header)):
        cells = [r[j].strip() for r in body if j < len(r)]
        present = [c for c in cells if c not in _MISSING_IN]
        if present and all(_INT.fullmatch(c) for c in present):
            i = max((i for i, r in enumerate(body) if r[j].strip() in present), key=lambda i: abs(int(body[i][j])))
            bumped = [list(r) for r in body]
            bumped[i][j] = str(int(body[i][j]) + 1)
            yield "table_integer_off_by_one", False, _text(_csv_text([header, *bumped], delim)), None
        if any(_LEADING_ZERO.fullmatch(c) for c in present):
            stripped = [
                [
                    c.strip().lstrip("0") or "0" if k == j and _LEADING_ZERO.fullmatch(c.strip()) else c
                    for k, c in enumerate(r)
                ]
                for r in body
            ]
            yield "table_id_leading_zeros_dropped", False, _text(_csv_text([header, *stripped], delim)), None


def parquet_edits(source: Path) -> Iterator[Edit]:
    """The table as pandas writes it with a non-default index (an `__index_level_0__` column), with its first
    column as a named index, and with float nulls stored as NaN: each reads back by pandas as the reference (valid)."""
    import pandas as pd
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    table = pq.read_table(source)
    df = table.to_pandas()
    df.index = pd.Index(np.arange(len(df)) + 1)
    yield "table_parquet_index_column", True, lambda dest: df.to_parquet(dest), None
    keyed = table.to_pandas()
    if len(keyed.columns) > 1 and not any(c.startswith("__index_level_") for c in map(str, keyed.columns)):
        keyed = keyed.set_index(keyed.columns[0])  # what groupby(key).agg(...) writes: the key as a named index
        yield "table_parquet_named_index", True, lambda dest: keyed.to_parquet(dest), None
    floats = [i for i, f in enumerate(table.schema) if pa.types.is_floating(f.type) and table.column(i).null_count]
    if floats:
        nan = table
        for i in floats:
            nan = nan.set_column(i, table.schema.field(i), pc.fill_null(table.column(i), float("nan")))
        yield "table_missing_as_NaN", True, lambda dest: pq.write_table(nan, dest), None


def html_edits(source: Path) -> Iterator[Edit]:
    """Void elements written the other way (`<br>` ↔ `<br />`), which HTML parses identically (valid)."""
    text = source.read_text(encoding="utf-8", errors="surrogateescape")
    toggled, n = _VOID.subn(lambda m: f"<{m[1]}{m[2]}>" if m[3] else f"<{m[1]}{m[2]} />", text)
    if n:
        yield (
            "html_void_tags_toggled",
            True,
            lambda dest: dest.write_text(toggled, encoding="utf-8", errors="surrogateescape"),
            None,
        )


def png_edits(source: Path) -> Iterator[Edit]:
    """The same pixels re-encoded (valid), and the same pixels with an EXIF orientation or a gAMA chunk that
    changes what a viewer shows (invalid unless the picture looks the same rotated, or is only black and white)."""
    from PIL import Image, PngImagePlugin

    with Image.open(source) as im:
        im.load()
        pic = im.copy()
        info = {k: im.info[k] for k in ("transparency", "icc_profile") if k in im.info}
        tagged = any(k in im.info for k in ("gamma", "srgb", "icc_profile"))
    arr = np.asarray(pic)
    yield "image_png_reencoded", True, lambda dest: pic.save(dest, format="PNG", compress_level=1, **info), None
    exif = Image.Exif()
    exif[EXIF_ORIENTATION] = 6  # shown rotated 90° clockwise
    same = arr.shape[0] == arr.shape[1] and bool(np.array_equal(np.rot90(arr, -1), arr))
    yield "image_exif_orientation", same, lambda dest: pic.save(dest, format="PNG", exif=exif.tobytes(), **info), None
    if not tagged:
        chunk = PngImagePlugin.PngInfo()
        chunk.add(b"gAMA", struct.pack(">I", 100000))  # gamma 1.0: mid-tones shown far darker than sRGB
        bw = bool(np.isin(arr if arr.ndim == 2 else arr[..., :3], (0, 255)).all())
        yield "image_gamma_chunk", bw, lambda dest: pic.save(dest, format="PNG", pnginfo=chunk, **info), None


def python_edits(text: str) -> Iterator[Edit]:
    """The module as ast.unparse writes it (layout and comments gone) and with its functions' parameters renamed
    (valid: the same function); the first `+` made `-` and the first integer constant plus one (invalid)."""
    tree = ast.parse(text)
    yield "code_reformatted", True, _text(ast.unparse(tree) + "\n"), None
    renamed = ast.parse(text)
    for fn in (n for n in ast.walk(renamed) if isinstance(n, ast.FunctionDef)):
        names = {a.arg: f"arg_{i}_" for i, a in enumerate(fn.args.args)}
        for node in ast.walk(fn):
            if isinstance(node, ast.arg) and node.arg in names:
                node.arg = names[node.arg]
            elif isinstance(node, ast.Name) and node.id in names:
                node.id = names[node.id]
    yield "code_renamed_variables", True, _text(ast.unparse(renamed) + "\n"), None
    for klass, hit in (("code_operator_changed", _plus_to_minus), ("code_constant_off_by_one", _int_plus_one)):
        mutated = ast.parse(text)
        if any(hit(n) for n in ast.walk(mutated)):
            yield klass, False, _text(ast.unparse(mutated) + "\n"), None


def _plus_to_minus(node: ast.AST) -> bool:
    """Makes the node `-` when it is a `+` (first call that does so only: the caller stops at the first True)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        node.op = ast.Sub()
        return True
    return False


def _int_plus_one(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        node.value += 1
        return True
    return False


def c_edits(text: str) -> Iterator[Edit]:
    """The file re-indented with tabs and blank lines between statements, and the entry functions' parameters
    renamed in their bodies (valid); the first ` + ` of a body made ` - ` and its first integer literal plus one
    (invalid). Only function bodies are edited: the preprocessor lines and the prototypes stay as written."""
    sig = _C_SIGNATURE.search(text)
    if sig is None:
        return
    head, body = text[: sig.end()], text[sig.end() :]
    lines = [ln.strip() for ln in body.splitlines()]
    yield "code_reformatted", True, _text(head + "\n\n" + "\n\n".join(f"\t{ln}" for ln in lines if ln) + "\n"), None
    params = [p.split()[-1].lstrip("*") for p in sig[2].split(",") if p.strip() and p.strip() != "void"]
    renamed_head, renamed_body = head, body
    for i, name in enumerate(params):
        renamed_head = renamed_head[: sig.start(2)] + re.sub(rf"\b{name}\b", f"arg_{i}_", renamed_head[sig.start(2) :])
        renamed_body = re.sub(rf"\b{name}\b", f"arg_{i}_", renamed_body)
    yield "code_renamed_variables", True, _text(renamed_head + renamed_body), None
    if _C_PLUS.search(body):
        yield "code_operator_changed", False, _text(head + _C_PLUS.sub(" - ", body, count=1)), None
    if _C_NUMBER.search(body):
        bumped = _C_NUMBER.sub(lambda m: str(int(m[1]) + 1) + (m[2] or ""), body, count=1)
        yield "code_constant_off_by_one", False, _text(head + bumped), None


def code_edits(source: Path) -> Iterator[Edit]:
    """Generated code rewritten the ways another correct generator would (valid) and with a one-token slip
    (invalid), for the code comparator, which runs both on the task's hidden inputs."""
    text = source.read_text(encoding="utf-8")
    yield from python_edits(text) if source.suffix.lower() == ".py" else c_edits(text)


def artifact_mutants(ref: Reference, tol: Tolerances, scratch: Path) -> Iterator[Mutant]:
    """Mutants of every table, HTML page, PNG and generated code file the reference names."""
    arts = artifact_leaves(ref, tol)
    for path, name in arts:
        source = ref.files / name  # type: ignore[operator]
        suffix, kind = source.suffix.lower(), artifact_kind(source)
        edits: Iterator[Edit] = iter(())
        if kind == "table":
            edits = parquet_edits(source) if suffix == ".parquet" else csv_edits(source)
        elif suffix in HTML_SUFFIXES:
            edits = html_edits(source)
        elif suffix == ".png":
            edits = png_edits(source)
        elif kind == "scidata":
            from .scidata_mutants import scidata_edits  # imported here: it imports this module's helpers

            edits = scidata_edits(source)
        elif kind == "config":
            from .config_mutants import config_edits

            edits = config_edits(source)
        elif kind == "code":
            edits = code_edits(source)
        for edit in edits:
            yield artifact_mutant(ref, arts, path, name, scratch, edit)
