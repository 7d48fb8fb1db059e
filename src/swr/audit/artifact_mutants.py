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
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

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
        elif kind == "sequence":
            edits = sequence_edits(source, tol.options_for(path))
        elif kind == "pcap":
            edits = pcap_edits(source)
        for edit in edits:
            yield artifact_mutant(ref, arts, path, name, scratch, edit)


# valid under the default options, invalid under the field's `case_sensitive` / `ordered`: judged per mutant
# (mutation.DEPENDS)
SEQUENCE_BY_OPTIONS = frozenset(
    f"sequence_{f}_{c}" for f in ("fasta", "fastq") for c in ("lower_case", "records_reversed")
)
# the sequence and pcap classes built valid (equivalent encodings); the audits' DESIGNED_VALID includes them
SEQUENCE_PCAP_VALID = frozenset(
    {
        *(f"sequence_{f}_{c}" for f in ("fasta", "fastq") for c in ("lower_case", "records_reversed", "gzipped")),
        "sequence_fasta_rewrapped",
        "sequence_fastq_plus_repeats_id",
        "sequence_sam_bam_swapped",
        "sequence_sam_tags_reordered",
        "sequence_sam_reads_reordered",
        "sequence_vcf_meta_reordered",
        "sequence_vcf_info_reordered",
        "sequence_vcf_decimals_respelled",
        "sequence_vcf_compression_swapped",
        "pcap_as_pcapng",
        "pcap_as_pcap",
        "pcap_big_endian_nanoseconds",
        "pcap_big_endian_microseconds",
    }
)


def _bytes(data: bytes) -> Writer:
    return lambda dest: dest.write_bytes(data)


def _plain_text(source: Path) -> str:
    """A sequence file's text, gunzipped when it is gzip/BGZF (the audits' own reference files: trusted)."""
    import gzip

    raw = source.read_bytes()
    return (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")


def _other_base(base: str) -> str:
    return "C" if base.upper() == "A" else "A"


def _fastx_records(text: str, fastq: bool) -> list[list[str]]:
    """Records as [header, sequence] (FASTA, lines joined) or [header, sequence, '+', qualities] (FASTQ)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if fastq:
        return [lines[i : i + 4] for i in range(0, len(lines) - 3, 4)]
    recs: list[list[str]] = []
    for ln in lines:
        if ln.startswith(">"):
            recs.append([ln, ""])
        elif recs:
            recs[-1][1] += ln.strip()
    return recs


def _fastx_text(recs: list[list[str]], wrap: int = 0) -> str:
    out = []
    for rec in recs:
        seq = rec[1]
        body = [seq[i : i + wrap] for i in range(0, len(seq), wrap)] if wrap and len(rec) == 2 else [seq]
        out.append("\n".join([rec[0], *body, *rec[2:]]))
    return "\n".join(out) + "\n"


def fastx_edits(source: Path, fastq: bool, options: Mapping[str, Any] | None = None) -> Iterator[Edit]:
    """Rewrapped, lower-cased, records reversed, gzipped (valid); a base changed, a quality changed, a record
    dropped or duplicated, an id changed (invalid). The field's comparator options decide two of them: under
    `case_sensitive` lower case is another sequence, under `ordered` reversed records are another file."""
    import gzip

    opts = options or {}

    text = _plain_text(source)
    recs = _fastx_records(text, fastq)
    if not recs:
        return
    name = "fastq" if fastq else "fasta"
    if not fastq:
        yield "sequence_fasta_rewrapped", True, _text(_fastx_text(recs, wrap=13)), None
    lower = [[r[0], r[1].lower(), *r[2:]] for r in recs]
    if lower != recs:
        case_valid = not opts.get("case_sensitive", False)
        yield f"sequence_{name}_lower_case", case_valid, _text(_fastx_text(lower)), None
    if len({tuple(r) for r in recs}) > 1:
        order_valid = not opts.get("ordered", False)
        yield f"sequence_{name}_records_reversed", order_valid, _text(_fastx_text(recs[::-1])), None
    if fastq:
        plus = [[r[0], r[1], "+" + r[0][1:], r[3]] for r in recs]
        yield "sequence_fastq_plus_repeats_id", True, _text(_fastx_text(plus)), None
    yield f"sequence_{name}_gzipped", True, _bytes(gzip.compress(text.encode(), mtime=0)), None
    i = max(range(len(recs)), key=lambda k: len(recs[k][1]))
    if recs[i][1]:
        mid = len(recs[i][1]) // 2
        seq = recs[i][1]
        changed = [list(r) for r in recs]
        changed[i][1] = seq[:mid] + _other_base(seq[mid]) + seq[mid + 1 :]
        yield f"sequence_{name}_base_changed", False, _text(_fastx_text(changed)), None
        if fastq:
            qual = [list(r) for r in recs]
            q = recs[i][3]
            qual[i][3] = q[:mid] + ("#" if q[mid] != "#" else "I") + q[mid + 1 :]
            yield "sequence_fastq_quality_changed", False, _text(_fastx_text(qual)), None
    yield f"sequence_{name}_record_dropped", False, _text(_fastx_text(recs[:-1])), None
    yield f"sequence_{name}_record_duplicated", False, _text(_fastx_text([*recs, recs[0]])), None
    renamed = [list(r) for r in recs]
    renamed[0][0] = renamed[0][0][0] + "X" + renamed[0][0][1:]
    yield f"sequence_{name}_id_changed", False, _text(_fastx_text(renamed)), None


def sam_edits(source: Path) -> Iterator[Edit]:
    """The other encoding (SAM <-> BAM), tags in reverse order, an unsorted file's reads reversed (valid); a read
    moved by one base, a read dropped, a base changed, a mapping quality changed, coordinate-sorted reads reversed
    (invalid)."""
    import pysam

    with pysam.AlignmentFile(str(source), "r", check_sq=False) as f:
        header = f.header.to_dict()
        reads = [r.to_dict() for r in f.fetch(until_eof=True)]
    if not reads:
        return

    def writer(rows: list[dict[str, str]], bam: bool) -> Writer:
        def write(dest: Path) -> None:
            with pysam.AlignmentFile(str(dest), "wb" if bam else "w", header=header) as out:
                for row in rows:
                    out.write(pysam.AlignedSegment.from_dict(row, out.header))

        return write

    bam = source.suffix.lower() == ".bam"
    yield "sequence_sam_bam_swapped", True, writer(reads, not bam), ".sam" if bam else ".bam"
    flipped = [{**r, "tags": r.get("tags", [])[::-1]} for r in reads]
    yield "sequence_sam_tags_reordered", True, writer(flipped, bam), None
    i = len(reads) // 2
    seq = reads[i]["seq"]
    if seq not in ("*", ""):
        based = [dict(r) for r in reads]
        based[i]["seq"] = seq[:-1] + _other_base(seq[-1])
        yield "sequence_sam_base_changed", False, writer(based, bam), None
    moved = [dict(r) for r in reads]
    moved[i]["ref_pos"] = str(int(reads[i]["ref_pos"]) + 1)
    yield "sequence_sam_position_shifted", False, writer(moved, bam), None
    mapq = [dict(r) for r in reads]
    mapq[i]["map_quality"] = str((int(reads[i]["map_quality"]) + 1) % 255)
    yield "sequence_sam_mapq_changed", False, writer(mapq, bam), None
    yield "sequence_sam_read_dropped", False, writer(reads[:i] + reads[i + 1 :], bam), None
    keys = [(r["ref_name"], int(r["ref_pos"])) for r in reads]
    if header.get("HD", {}).get("SO") == "coordinate" and len(set(keys)) > 1:
        yield "sequence_sam_unsorted", False, writer(reads[::-1], bam), None
    elif header.get("HD", {}).get("SO") not in ("coordinate", "queryname") and len(reads) > 1:
        yield "sequence_sam_reads_reordered", True, writer(reads[::-1], bam), None  # an unsorted file: a set


def vcf_edits(source: Path) -> Iterator[Edit]:
    """Meta-information lines reordered, INFO keys reordered, decimals with a trailing zero, the other
    compression (valid); a record dropped, an ALT allele changed, a genotype changed, a float INFO value far
    off (invalid)."""
    import pysam

    text = _plain_text(source)
    lines = text.splitlines()
    meta = [ln for ln in lines if ln.startswith("##")]
    head = [ln for ln in lines if ln.startswith("#CHROM")]
    body = [ln.split("\t") for ln in lines if ln and not ln.startswith("#")]
    if not body:
        return

    def vcf(rows: list[list[str]], meta_lines: list[str] = meta) -> str:
        return "\n".join([*meta_lines, *head, *("\t".join(r) for r in rows)]) + "\n"

    gz = source.read_bytes()[:2] == b"\x1f\x8b"
    yield "sequence_vcf_meta_reordered", True, _text(vcf(body, meta[:1] + meta[1:][::-1])), None

    def info(rows: list[list[str]], fn: Callable[[list[str]], list[str]]) -> list[list[str]]:
        return [[*r[:7], ";".join(fn(r[7].split(";"))), *r[8:]] if r[7] != "." else r for r in rows]

    yield "sequence_vcf_info_reordered", True, _text(vcf(info(body, lambda kv: kv[::-1]))), None
    decimal = re.compile(r"(?<=[=,])(-?\d+\.\d+)(?=[;,]|$)")
    respelled = [[*r[:7], decimal.sub(r"\g<1>0", r[7]), *r[8:]] for r in body]
    if respelled != body:
        yield "sequence_vcf_decimals_respelled", True, _text(vcf(respelled)), None

    def compressed(dest: Path) -> None:
        plain = dest.with_name(dest.name + ".plain")
        plain.write_text(text, encoding="utf-8")
        if gz:
            plain.replace(dest)  # the reference is gzip: the same text uncompressed
        else:
            pysam.tabix_compress(str(plain), str(dest), force=True)
            plain.unlink()

    yield "sequence_vcf_compression_swapped", True, compressed, None
    yield "sequence_vcf_record_dropped", False, _text(vcf(body[:-1])), None
    alt = [list(r) for r in body]
    alt[0][4] = "G" if alt[0][4] != "G" else "T"
    yield "sequence_vcf_alt_changed", False, _text(vcf(alt)), None
    gts = [list(r) for r in body]
    calls = [(i, j) for i, r in enumerate(gts) for j in range(9, len(r)) if r[8].startswith("GT")]
    if calls:
        i, j = calls[0]
        gt, _, rest = gts[i][j].partition(":")
        gts[i][j] = ("1/1" if gt != "1/1" else "0/0") + (":" + rest if rest else "")
        yield "sequence_vcf_genotype_changed", False, _text(vcf(gts)), None
    far = [[*r[:7], decimal.sub(lambda m: repr(float(m[1]) * 2 + 1), r[7], count=1), *r[8:]] for r in body]
    if far != body:
        yield "sequence_vcf_info_value_changed", False, _text(vcf(far)), None


def sequence_edits(source: Path, options: Mapping[str, Any] | None = None) -> Iterator[Edit]:
    """The mutants of a FASTA, FASTQ, SAM/BAM or VCF file, by its format and the field's comparator options."""
    from swr.judge.artifacts.sequence import fmt_of

    fmt = fmt_of(source)
    if fmt in ("fasta", "fastq"):
        yield from fastx_edits(source, fmt == "fastq", options)
    elif fmt == "sam":
        yield from sam_edits(source)
    elif fmt == "vcf":
        yield from vcf_edits(source)


def _ticks(frames: list, per_s: int) -> list[int] | None:
    """Every timestamp in units of 1/per_s s, or None when one is not a whole number of them."""
    ticks = [f.time * per_s for f in frames]
    return [int(t) for t in ticks] if all(t.denominator == 1 for t in ticks) else None


def pcap_bytes(frames: list, per_s: int, ticks: list[int], big: bool = False) -> bytes:
    """A classic pcap of the frames (one link type), micro- or nanosecond magic, either byte order."""
    o = ">" if big else "<"
    magic = 0xA1B2C3D4 if per_s == 10**6 else 0xA1B23C4D
    out = [struct.pack(o + "IHHiIII", magic, 2, 4, 0, 0, 262144, frames[0].linktype if frames else 1)]
    for f, t in zip(frames, ticks):
        out.append(struct.pack(o + "IIII", t // per_s, t % per_s, len(f.data), f.wirelen) + f.data)
    return b"".join(out)


def _block(btype: int, body: bytes) -> bytes:
    body += b"\0" * (-len(body) % 4)
    return struct.pack("<II", btype, len(body) + 12) + body + struct.pack("<I", len(body) + 12)


def _opt(code: int, value: bytes) -> bytes:
    return struct.pack("<HH", code, len(value)) + value + b"\0" * (-len(value) % 4)


def pcapng_bytes(frames: list, ticks: list[int], comment: bool = False) -> bytes:
    """A pcapng of the frames: one interface per link type, nanosecond if_tsresol, comments when asked."""
    links = sorted({f.linktype for f in frames}) or [1]
    note = _opt(1, b"written by the audit") if comment else b""
    out = [_block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) + note + _opt(0, b""))]
    for link in links:
        out.append(_block(1, struct.pack("<HHI", link, 0, 262144) + _opt(9, b"\x09") + _opt(0, b"")))
    for f, t in zip(frames, ticks):
        head = struct.pack("<IIIII", links.index(f.linktype), t >> 32, t & 0xFFFFFFFF, len(f.data), f.wirelen)
        out.append(_block(6, head + f.data + b"\0" * (-len(f.data) % 4) + note + (_opt(0, b"") if note else b"")))
    return b"".join(out)


def pcap_edits(source: Path) -> Iterator[Edit]:
    """pcap <-> pcapng, the other byte order, nanosecond timestamps, comments (valid); a packet's first byte
    changed, a packet dropped, a timestamp one second late, two packets swapped (invalid)."""
    from dataclasses import replace

    from swr.judge.artifacts._common import Budget
    from swr.judge.artifacts.pcap import read_capture

    frames = read_capture(source, Budget("pcap")).frames
    ns = _ticks(frames, 10**9)
    if not frames or ns is None:
        return
    us = _ticks(frames, 10**6)
    single = len({f.linktype for f in frames}) == 1
    if source.suffix.lower() == ".pcap":
        yield "pcap_as_pcapng", True, _bytes(pcapng_bytes(frames, ns, comment=True)), ".pcapng"
    elif single:
        yield "pcap_as_pcap", True, _bytes(pcap_bytes(frames, 10**9, ns)), ".pcap"
    if single:
        yield "pcap_big_endian_nanoseconds", True, _bytes(pcap_bytes(frames, 10**9, ns, big=True)), None
        if us is not None:
            yield "pcap_big_endian_microseconds", True, _bytes(pcap_bytes(frames, 10**6, us, big=True)), None
    i = len(frames) // 2
    if not frames[i].data:
        return
    flipped = list(frames)
    flipped[i] = replace(frames[i], data=bytes([frames[i].data[0] ^ 0x01]) + frames[i].data[1:])
    late = [t + 10**9 * (k == i) for k, t in enumerate(ns)]
    yield "pcap_packet_byte_changed", False, _bytes(pcapng_bytes(flipped, ns)), ".pcapng"
    yield "pcap_timestamp_late", False, _bytes(pcapng_bytes(frames, late)), ".pcapng"
    if len(frames) > 1:
        yield (
            "pcap_packet_dropped",
            False,
            _bytes(pcapng_bytes(frames[:i] + frames[i + 1 :], ns[:i] + ns[i + 1 :])),
            ".pcapng",
        )
        if frames[i - 1].data != frames[i].data:
            swapped = list(frames)
            swapped[i - 1], swapped[i] = (
                replace(frames[i], time=frames[i - 1].time),
                replace(frames[i - 1], time=frames[i].time),
            )
            yield "pcap_packets_swapped", False, _bytes(pcapng_bytes(swapped, ns)), ".pcapng"
