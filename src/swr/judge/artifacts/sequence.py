"""Biological sequence comparator (FASTA, FASTQ, SAM/BAM, VCF): records compared by what they mean, so line
wrapping, letter case, record order where it carries nothing, SAM vs BAM, gzip vs plain text, VCF header line
order and float spelling do not matter, while a changed base, quality, position, allele or value does.

Orders: FASTA/FASTQ records and VCF records are a multiset unless `ordered` (a FASTA file is a collection of
named sequences; a sorted VCF's order follows from its keys, which are compared). A SAM/BAM file's @SQ lines are
ordered (a read's reference is an index into them), its reads are a multiset, and when the reference declares
`@HD SO:coordinate` the candidate must be coordinate-sorted too (tools rely on it); reads at one position may
come in any order, as samtools sort leaves them. @PG/@CO lines and the @HD version are provenance, not graded.

Bounded: file size first; a gzip/BGZF stream is inflated in blocks, counting decompressed bytes against the
reference's before any parser sees it; records (text lines, or BAM records as they stream) are counted before
they are kept. CRAM is refused (htslib would look for its reference sequence, perhaps over the network)."""

from __future__ import annotations

import math
import os
import tempfile
import zlib
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

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
)

DEFAULTS: dict[str, Any] = {
    "ordered": False,  # FASTA/FASTQ/VCF records compared in file order
    "case_sensitive": False,  # lower case (soft-masked) bases differ from upper case
    "description": True,  # FASTA/FASTQ header text after the id is compared (whitespace runs collapsed)
}
TEXT = {".fasta": "fasta", ".fa": "fasta", ".fna": "fasta", ".faa": "fasta", ".fastq": "fastq", ".fq": "fastq"}
FORMATS = {**TEXT, ".sam": "sam", ".bam": "sam", ".vcf": "vcf"}
SUFFIXES = tuple(FORMATS) + tuple(s + ".gz" for s in FORMATS if s != ".bam")
GZIP_MAGIC = b"\x1f\x8b"
_BLOCK = 1 << 20
Record = tuple[tuple[Any, ...], tuple[float, ...]]  # (exactly compared part, floats compared with tolerance)


def fmt_of(path: Path) -> str:
    """fasta | fastq | sam | vcf, from the name without a trailing .gz."""
    name = path.name.lower()
    name = name[:-3] if name.endswith(".gz") else name
    return FORMATS.get(os.path.splitext(name)[1], "")


def inflate(path: Path, budget: Budget, keep: bool) -> bytes | None:
    """The decompressed bytes of a gzip (or BGZF: concatenated members) file, each block's size admitted to the
    budget as `decompressed` before the next is inflated; None when not kept (BAM: htslib reads it itself)."""
    out: list[bytes] = []
    total, inside = 0, False  # inside: a member begun and not yet ended
    with open(path, "rb") as fh:
        d = zlib.decompressobj(wbits=31)
        while block := fh.read(1 << 16):
            while block:
                inside = True
                piece = d.decompress(block, _BLOCK)
                total += len(piece)
                budget.admit("decompressed", total)
                if keep:
                    out.append(piece)
                if d.unconsumed_tail:
                    block = d.unconsumed_tail
                elif d.eof:
                    block, inside = d.unused_data, False
                    d = zlib.decompressobj(wbits=31)
                else:
                    block = b""
    if inside:
        raise ValueError("truncated gzip stream")
    return b"".join(out) if keep else None


def text_of(path: Path, budget: Budget) -> bytes:
    """The file's text, inflated if gzip, with its lines (an upper bound on its records) admitted first."""
    file_size(path, budget)
    with open(path, "rb") as fh:
        gz = fh.read(2) == GZIP_MAGIC
    if gz:
        data = inflate(path, budget, keep=True) or b""
        budget.admit("records", data.count(b"\n") + 1)
        return data
    budget.admit("records", count_bytes(path, b"\n") + 1)
    return Path(path).read_bytes()


def _header(line: str, opts: Mapping[str, Any]) -> tuple[str, str]:
    """Id and (when compared) whitespace-collapsed description of a '>' or '@' line."""
    parts = line[1:].split(None, 1)
    ident = parts[0] if parts else ""
    desc = " ".join(parts[1].split()) if len(parts) > 1 and opts["description"] else ""
    return ident, desc


def _bases(seq: str, opts: Mapping[str, Any]) -> str:
    return seq if opts["case_sensitive"] else seq.upper()


def read_fasta(data: bytes, opts: Mapping[str, Any]) -> list[Record]:
    """(id, description, sequence) per '>' record; sequence lines joined, whitespace removed."""
    records: list[Record] = []
    head: tuple[str, str] | None = None
    seq: list[str] = []
    for raw in data.decode("utf-8", "replace").splitlines():
        line = raw.strip()
        if line.startswith(">"):
            if head is not None:
                records.append(((*head, _bases("".join(seq), opts)), ()))
            head, seq = _header(line, opts), []
        elif line and not line.startswith(";"):
            if head is None:
                raise ValueError("sequence text before the first '>' header")
            seq.append("".join(line.split()))
    if head is not None:
        records.append(((*head, _bases("".join(seq), opts)), ()))
    return records


def read_fastq(data: bytes, opts: Mapping[str, Any]) -> list[Record]:
    """(id, description, sequence, qualities) per '@' record; sequence and quality may span lines (quality
    lines are read until they are as long as the sequence, since '@' may begin a quality line)."""
    lines = [ln.strip() for ln in data.decode("utf-8", "replace").splitlines()]
    records: list[Record] = []
    i, n = 0, len(lines)
    while i < n:
        if not lines[i]:
            i += 1
            continue
        if not lines[i].startswith("@"):
            raise ValueError(f"record {len(records)}: expected '@' header, got {lines[i][:40]!r}")
        head, seq, qual = _header(lines[i], opts), "", ""
        i += 1
        while i < n and not lines[i].startswith("+"):
            seq += lines[i]
            i += 1
        i += 1  # the '+' line (it may repeat the id)
        while i < n and len(qual) < len(seq):
            qual += lines[i]
            i += 1
        if len(qual) != len(seq):
            raise ValueError(f"record {head[0]!r}: {len(seq)} bases but {len(qual)} qualities")
        records.append(((*head, _bases(seq, opts), qual), ()))
    return records


def _value(v: Any, floats: list[float]) -> Any:
    """A tag/INFO/FORMAT value's exact part: a float goes to `floats` (compared with tolerance) and leaves its
    place marked; ints stay ints whatever their width (SAM `i` vs BAM `C` are one value)."""
    if isinstance(v, float):
        floats.append(v)
        return "<float>"
    if isinstance(v, (tuple, list)) or type(v).__name__ == "array":
        return tuple(_value(x, floats) for x in v)
    return v


def _sam_record(rec: Any, opts: Mapping[str, Any]) -> Record:
    floats: list[float] = []
    tags = tuple(sorted((t, _value(v, floats)) for t, v in rec.get_tags()))
    quals = rec.query_qualities
    exact = (
        rec.query_name,
        rec.flag,
        rec.reference_name if rec.reference_id >= 0 else "*",
        rec.reference_start,
        rec.mapping_quality,
        rec.cigarstring or "*",
        rec.next_reference_name if rec.next_reference_id >= 0 else "*",
        rec.next_reference_start,
        rec.template_length,
        _bases(rec.query_sequence or "*", opts),
        "*" if quals is None else bytes(quals).hex(),
        tags,
    )
    return exact, tuple(floats)


def read_sam(path: Path, budget: Budget, opts: Mapping[str, Any]) -> tuple[dict[str, Any], list[Record], bool]:
    """Header (@SQ in order, @RG as a set, @HD SO), reads, and whether they are coordinate-sorted."""
    import pysam

    file_size(path, budget)
    with open(path, "rb") as fh:
        magic = fh.read(4)
    if magic == b"CRAM":
        raise ValueError("CRAM is not accepted (it needs its reference sequence); write SAM or BAM")
    if magic[:2] == GZIP_MAGIC:
        inflate(path, budget, keep=False)
    else:
        budget.admit("records", count_bytes(path, b"\n") + 1)
    save = pysam.set_verbosity(0)
    try:
        with pysam.AlignmentFile(str(path), "r", check_sq=False) as f:
            hd = f.header.to_dict()
            head = {
                "SQ": [(sq.get("SN"), sq.get("LN")) for sq in hd.get("SQ", [])],
                "RG": sorted(tuple(sorted((k, str(v)) for k, v in rg.items())) for rg in hd.get("RG", [])),
                "SO": hd.get("HD", {}).get("SO", "unknown"),
            }
            reads: list[Record] = []
            last, ordered = (-1, -1), True
            for rec in f.fetch(until_eof=True):
                budget.admit("records", len(reads) + 1)
                key = (rec.reference_id if rec.reference_id >= 0 else 1 << 62, rec.reference_start)
                ordered = ordered and key >= last
                last = key
                reads.append(_sam_record(rec, opts))
    finally:
        pysam.set_verbosity(save)
    return head, reads, ordered


def _vcf_record(rec: Any, samples: list[str]) -> Record:
    floats: list[float] = []
    qual = rec.qual
    if qual is not None:
        floats.append(float(qual))
    info = tuple(sorted((k, _value(v, floats)) for k, v in rec.info.items()))
    calls = []
    for s in samples:
        call = rec.samples[s]
        fields = tuple(sorted((k, _value(v, floats)) for k, v in call.items() if k != "GT"))
        gt = (call.get("GT"), call.phased) if "GT" in rec.format else None
        calls.append((s, gt, fields))
    exact = (
        rec.chrom,
        rec.pos,
        rec.ref,
        tuple(rec.alts or ()),
        rec.id,
        "<qual>" if qual is not None else None,
        tuple(sorted(rec.filter.keys())),
        info,
        tuple(calls),
    )
    return exact, tuple(floats)


def read_vcf(path: Path, budget: Budget) -> tuple[dict[str, Any], list[Record]]:
    """Header definitions (contigs, INFO/FORMAT/FILTER/ALT by ID, samples as a set) and records, each value typed
    by its header (a float written 0.5 or 5.0e-01 is one value). The text is inflated and bounded first."""
    import pysam

    data = text_of(path, budget)
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "plain.vcf"
        plain.write_bytes(data)
        del data
        save = pysam.set_verbosity(0)
        try:
            with pysam.VariantFile(str(plain)) as f:
                h = f.header
                samples = sorted(h.samples)
                defs = {
                    "contig": sorted((c.name, c.length) for c in h.contigs.values()),
                    "INFO": sorted((k, v.number, v.type) for k, v in h.info.items()),
                    "FORMAT": sorted((k, v.number, v.type) for k, v in h.formats.items()),
                    "FILTER": sorted(h.filters.keys()),
                    "samples": samples,
                }
                records = [_vcf_record(rec, samples) for rec in f.fetch()]
        finally:
            pysam.set_verbosity(save)
    return defs, records


def _show(rec: tuple[Any, ...]) -> str:
    return repr(rec[:4])[:200]


def compare_records(
    name: str, ref: list[Record], got: list[Record], atol: float, rtol: float, ordered: bool
) -> dict[str, dict[str, Any]]:
    """Record count, the multiset (or sequence) of exact parts, then every float within atol + rtol·|ref|,
    pairing records of one exact part in sorted order of their floats."""
    checks = {f"{name}_count": check(len(ref) == len(got), len(ref), len(got))}
    if not ordered:
        ref, got = sorted(ref, key=_order), sorted(got, key=_order)
    if ordered:
        bad = next((i for i, (a, b) in enumerate(zip(ref, got)) if a[0] != b[0]), None)
        if bad is not None:
            checks[name] = check(False, _show(ref[bad][0]), _show(got[bad][0]), where=f"{name} {bad}")
            return checks
    else:
        want, have = Counter(r[0] for r in ref), Counter(r[0] for r in got)
        missing, extra = want - have, have - want
        if missing or extra:
            checks[name] = check(
                False,
                _show(next(iter(missing))) if missing else "no other record",
                _show(next(iter(extra))) if extra else "absent",
                where=f"{len(missing)} missing, {len(extra)} unexpected",
            )
            return checks
    checks[name] = check(True, len(ref), len(got))
    worst, where = 0.0, None
    for a, b in zip(ref, got):
        for x, y in zip(a[1], b[1]):
            tol = atol + rtol * abs(x) if math.isfinite(x) else 0.0
            err = abs(x - y) if math.isfinite(x) and math.isfinite(y) else (0.0 if repr(x) == repr(y) else math.inf)
            if err > tol and (where is None or err - tol > worst):
                worst, where = err - tol, (_show(a[0]), x, y, tol)
    if where is not None:
        checks["values"] = check(False, where[1], where[2], where[3], where=where[0])
    return checks


def _order(rec: Record) -> tuple[str, tuple[float, ...]]:
    """A total order on records of mixed field types: the exact part's repr, then its floats."""
    return repr(rec[0]), tuple(x if math.isfinite(x) else math.inf for x in rec[1])


def _sides(
    kind: str, reference: Path, candidate: Path, load: Callable[[Path, Budget], Any]
) -> tuple[Any, Any] | ArtifactResult:
    return load_pair(kind, reference, lambda b: load(reference, b), lambda b: load(candidate, b))


def compare_sequence(
    reference: Path, candidate: Path, atol: float, rtol: float, options: Mapping[str, Any] | None = None
) -> ArtifactResult:
    """FASTA/FASTQ records, SAM/BAM header and reads, or VCF header definitions and records, by the reference's
    format (the candidate's own bytes decide gzip and SAM vs BAM)."""
    opts = options_for("sequence", options, DEFAULTS)
    for key in DEFAULTS:
        if not isinstance(opts[key], bool):
            raise ArtifactConfigError(f"sequence option {key!r} must be true or false, got {opts[key]!r}")
    fmt = fmt_of(reference)
    if not fmt:
        raise ArtifactConfigError(f"not a sequence file suffix: {reference.name}")
    if fmt in ("fasta", "fastq"):
        parse = read_fasta if fmt == "fasta" else read_fastq
        pair = _sides("sequence", reference, candidate, lambda p, b: parse(text_of(p, b), opts))
        if isinstance(pair, ArtifactResult):
            return pair
        return finish("sequence", compare_records(fmt, *pair, atol, rtol, opts["ordered"]))
    if fmt == "sam":
        return _compare_sam(reference, candidate, atol, rtol, opts)
    vcf = _sides("sequence", reference, candidate, read_vcf)
    if isinstance(vcf, ArtifactResult):
        return vcf
    (rdefs, rrecs), (cdefs, crecs) = vcf
    checks = {f"header_{k}": check(rdefs[k] == v, rdefs[k], v) for k, v in cdefs.items()}
    checks.update(compare_records("vcf_record", rrecs, crecs, atol, rtol, opts["ordered"]))
    return finish("sequence", checks)


def _compare_sam(reference: Path, candidate: Path, atol: float, rtol: float, opts: Mapping[str, Any]) -> ArtifactResult:
    pair = _sides("sequence", reference, candidate, lambda p, b: read_sam(p, b, opts))
    if isinstance(pair, ArtifactResult):
        return pair
    (rhead, rreads, _), (chead, creads, csorted) = pair
    checks = {f"header_{k}": check(rhead[k] == chead[k], rhead[k], chead[k]) for k in ("SQ", "RG")}
    if rhead["SO"] in ("coordinate", "queryname"):
        checks["header_SO"] = check(rhead["SO"] == chead["SO"], rhead["SO"], chead["SO"])
    if rhead["SO"] == "coordinate":
        checks["coordinate_sorted"] = check(csorted, True, csorted)
    checks.update(compare_records("read", rreads, creads, atol, rtol, ordered=False))
    return finish("sequence", checks)
