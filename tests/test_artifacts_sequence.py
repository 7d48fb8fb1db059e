"""The sequence comparator (FASTA, FASTQ, SAM/BAM, VCF): equivalent encodings pass, wrong records fail, candidate
bytes never raise, and the audit's mutants of seeded references are all judged as designed (the false-reject
study: every valid mutant accepted, every invalid one rejected)."""

from __future__ import annotations

import gzip
import random
from pathlib import Path
from typing import Any

import pysam
import pytest

from swr.audit.artifact_mutants import SEQUENCE_BY_OPTIONS, sequence_edits
from swr.audit.mutation import DEPENDS, DESIGNED_VALID
from swr.judge.artifacts import ArtifactConfigError, artifact_kind, compare_artifact
from swr.judge.artifacts.bounded import compare_bounded

BASES = "ACGT"


def fasta(path: Path, rng: random.Random, n: int = 5, wrap: int = 60) -> Path:
    with open(path, "w") as f:
        for i in range(n):
            seq = "".join(rng.choice(BASES) for _ in range(rng.randint(20, 150)))
            f.write(f">seq{i} sample {i} len={len(seq)}\n")
            f.write("\n".join(seq[j : j + wrap] for j in range(0, len(seq), wrap)) + "\n")
    return path


def fastq(path: Path, rng: random.Random, n: int = 6) -> Path:
    with open(path, "w") as f:
        for i in range(n):
            seq = "".join(rng.choice(BASES) for _ in range(rng.randint(30, 80)))
            qual = "".join(chr(33 + rng.randint(2, 40)) for _ in seq)
            f.write(f"@read{i}/1\n{seq}\n+\n{qual}\n")
    return path


def sam(path: Path, rng: random.Random, n: int = 25, sort: str = "coordinate") -> Path:
    """Mapped reads on two contigs with integer, string and float tags (written BAM when the suffix says)."""
    ref = "".join(rng.choice(BASES) for _ in range(600))
    hdr = {"HD": {"VN": "1.6", "SO": sort}, "SQ": [{"SN": "c1", "LN": 600}, {"SN": "c2", "LN": 600}]}
    hdr["RG"] = [{"ID": "g1", "SM": "s1"}]
    reads = sorted((rng.randrange(2), rng.randrange(0, 550), k) for k in range(n))
    if sort != "coordinate":
        rng.shuffle(reads)
    with pysam.AlignmentFile(str(path), "wb" if path.suffix == ".bam" else "w", header=hdr) as out:
        for tid, pos, k in reads:
            a = pysam.AlignedSegment(out.header)
            a.query_name, a.flag, a.reference_id, a.reference_start = f"r{k}", rng.choice([0, 16]), tid, pos
            a.mapping_quality, a.cigarstring = rng.randint(0, 60), "40M"
            a.query_sequence = ref[pos : pos + 40]
            a.query_qualities = pysam.qualitystring_to_array("".join(chr(33 + rng.randint(2, 40)) for _ in range(40)))
            a.set_tags([("NM", rng.randint(0, 3)), ("RG", "g1"), ("XF", round(rng.random(), 3))])
            out.write(a)
    return path


def vcf(path: Path, rng: random.Random, n: int = 12) -> Path:
    """Biallelic SNVs with an integer, a float (Number=A) and a flag INFO, genotypes and depths of two samples."""
    h = pysam.VariantHeader()
    for line in (
        "##contig=<ID=chr1,length=5000>",
        '##INFO=<ID=DP,Number=1,Type=Integer,Description="depth">',
        '##INFO=<ID=AF,Number=A,Type=Float,Description="allele frequency">',
        '##INFO=<ID=DB,Number=0,Type=Flag,Description="known">',
        '##FORMAT=<ID=GT,Number=1,Type=String,Description="genotype">',
        '##FORMAT=<ID=DP,Number=1,Type=Integer,Description="depth">',
        '##FILTER=<ID=lowq,Description="low quality">',
    ):
        h.add_line(line)
    h.add_sample("NA1")
    h.add_sample("NA2")
    plain = path.with_name(path.name.removesuffix(".gz"))
    with pysam.VariantFile(str(plain), "w", header=h) as out:
        for pos in sorted(rng.sample(range(1, 5000), n)):
            ref = rng.choice(BASES)
            r = out.new_record(
                contig="chr1", start=pos - 1, stop=pos, alleles=(ref, rng.choice(BASES.replace(ref, "")))
            )
            r.qual = round(rng.uniform(10, 99), 2)
            r.info["DP"], r.info["AF"] = rng.randint(5, 90), (round(rng.random(), 4),)
            if rng.random() < 0.3:
                r.info["DB"] = True
            if r.qual < 30:
                r.filter.add("lowq")
            for s in ("NA1", "NA2"):
                r.samples[s]["GT"] = rng.choice([(0, 0), (0, 1), (1, 1)])
                r.samples[s]["DP"] = rng.randint(1, 40)
            out.write(r)
    if path != plain:
        pysam.tabix_compress(str(plain), str(path), force=True)
    return path


def unsorted_sam(path: Path, rng: random.Random) -> Path:
    return sam(path, rng, sort="unsorted")


MAKERS = {"fa": fasta, "fastq": fastq, "sam": sam, "bam": sam, "u.sam": unsorted_sam, "vcf": vcf, "vcf.gz": vcf}


def judge(ref: Path, cand: Path, **options: Any) -> Any:
    return compare_artifact(ref, cand, options=options or None)


# ---------------------------------------------------------------- the false-reject study


def test_false_reject_study_every_mutant_judged_as_designed(tmp_path: Path) -> None:
    """Three seeded references per format (FASTA, FASTQ, SAM, BAM, VCF, bgzipped VCF), every audit mutant of
    each: zero valid mutants rejected, zero invalid ones accepted, and every class present."""
    tally: dict[str, list[int]] = {}
    wrong = []
    for fmt, make in MAKERS.items():
        for seed in range(3):
            ref = make(tmp_path / f"ref{seed}.{fmt}", random.Random(f"{fmt}{seed}"))
            for k, (klass, valid, write, suffix) in enumerate(sequence_edits(ref)):
                cand = tmp_path / f"m{fmt}{seed}_{k}{suffix or ''.join(ref.suffixes)}"
                write(cand)
                ok = judge(ref, cand).ok
                tally.setdefault(klass, [0, 0])[ok != valid] += 1
                assert DESIGNED_VALID.get(klass, False) == valid, klass  # the audits' own labels
                if ok != valid:
                    wrong.append((fmt, seed, klass, judge(ref, cand).detail))
    assert not wrong, wrong
    assert sum(n for n, _ in tally.values()) >= 120, tally
    for name in (
        "fasta_rewrapped",
        "fastq_quality_changed",
        "sam_bam_swapped",
        "sam_unsorted",
        "vcf_meta_reordered",
        "vcf_compression_swapped",
        "vcf_info_value_changed",
        "vcf_genotype_changed",
    ):
        assert f"sequence_{name}" in tally, sorted(tally)


def test_the_audit_mutants_follow_the_fields_order_and_case_options(tmp_path: Path) -> None:
    """Under `ordered` and `case_sensitive` reversed records and lower-cased bases are other answers: the audit
    labels them invalid, as the comparator decides (it labelled them valid whatever the field said: false
    rejects in every FASTA task that declared an order)."""
    opts = {"ordered": True, "case_sensitive": True}
    seen = set()
    for fmt in ("fa", "fastq"):
        for seed in range(3):
            ref = MAKERS[fmt](tmp_path / f"ref{seed}.{fmt}", random.Random(f"{fmt}{seed}"))
            for k, (klass, valid, write, suffix) in enumerate(sequence_edits(ref, opts)):
                cand = tmp_path / f"o{fmt}{seed}_{k}{suffix or ''.join(ref.suffixes)}"
                write(cand)
                assert judge(ref, cand, **opts).ok == valid, (fmt, seed, klass)
                if klass in SEQUENCE_BY_OPTIONS:
                    assert not valid and klass in DEPENDS, klass
                    seen.add(klass)
    assert seen == SEQUENCE_BY_OPTIONS


# ---------------------------------------------------------------- semantics


def test_fasta_wrapping_case_and_order_are_free_unless_options_say(tmp_path: Path) -> None:
    ref = fasta(tmp_path / "a.fasta", random.Random(1))
    seqs: list[list[str]] = []
    for line in ref.read_text().splitlines():
        if line.startswith(">"):
            seqs.append([line, ""])
        else:
            seqs[-1][1] += line
    other = tmp_path / "b.fa"
    other.write_text("".join(f"{h}\n{s.lower()}\n" for h, s in reversed(seqs)))
    assert judge(ref, other).ok
    assert not judge(ref, other, case_sensitive=True).ok
    assert not judge(ref, other, ordered=True).ok
    redesc = tmp_path / "c.fa"
    redesc.write_text("".join(f"{h.split()[0]} other words\n{s}\n" for h, s in seqs))
    res = judge(ref, redesc)
    assert not res.ok and "fasta" in res.detail
    assert judge(ref, redesc, description=False).ok


def test_sam_unsorted_reads_are_a_multiset_and_bam_equals_sam(tmp_path: Path) -> None:
    ref = sam(tmp_path / "a.sam", random.Random(2), sort="unsorted")
    lines = ref.read_text().splitlines()
    head, body = [ln for ln in lines if ln.startswith("@")], [ln for ln in lines if not ln.startswith("@")]
    shuffled = tmp_path / "b.sam"
    shuffled.write_text("\n".join(head + body[::-1]) + "\n")
    assert judge(ref, shuffled).ok
    bam = tmp_path / "c.bam"
    pysam.view("-b", "-o", str(bam), str(shuffled), catch_stdout=False)
    assert judge(ref, bam).ok and judge(bam, ref).ok
    tag = tmp_path / "d.sam"
    tag.write_text("\n".join(head + [body[0].replace("XF:f:", "XF:f:1")] + body[1:]) + "\n")
    res = judge(ref, tag)
    assert not res.ok and "values" in res.checks, res.detail
    sq = tmp_path / "e.sam"
    sq.write_text("\n".join([h.replace("LN:600", "LN:601", 1) for h in head] + body) + "\n")
    assert not judge(ref, sq).ok


def test_vcf_floats_within_tolerance_header_order_free(tmp_path: Path) -> None:
    ref = vcf(tmp_path / "a.vcf", random.Random(3))
    lines = ref.read_text().splitlines()
    meta = [ln for ln in lines if ln.startswith("##")]
    rest = [ln for ln in lines if not ln.startswith("##")]
    moved = tmp_path / "b.vcf"
    moved.write_text("\n".join(meta[:1] + meta[1:][::-1] + rest) + "\n")
    assert judge(ref, moved).ok
    body = rest[1].split("\t")
    af = next(kv for kv in body[7].split(";") if kv.startswith("AF="))
    near = float(af[3:]) + 5e-7
    nudged = tmp_path / "c.vcf"
    nudged.write_text("\n".join(meta + rest[:1] + ["\t".join(body).replace(af, f"AF={near!r}")] + rest[2:]) + "\n")
    assert compare_artifact(ref, nudged, atol=1e-6, rtol=0).ok
    res = compare_artifact(ref, nudged, atol=1e-8, rtol=0)
    assert not res.ok and res.checks["values"]["ok"] is False, res.detail
    sample = tmp_path / "d.vcf"
    sample.write_text(ref.read_text().replace("NA2", "NA3"))
    assert not judge(ref, sample).ok


def test_suffixes_map_to_the_sequence_kind() -> None:
    for name in ("a.fasta", "a.FA", "a.fna", "a.faa", "a.fastq", "a.fq", "a.sam", "a.bam", "a.vcf", "a.vcf.gz"):
        assert artifact_kind(Path(name)) == "sequence", name
    assert artifact_kind(Path("a.txt.gz")) == "text" and artifact_kind(Path("x.b.csv")) == "table"


# ---------------------------------------------------------------- candidate bytes never raise


@pytest.mark.parametrize("fmt", sorted(MAKERS))
def test_garbage_candidates_fail_with_a_reason(tmp_path: Path, fmt: str) -> None:
    ref = MAKERS[fmt](tmp_path / f"ref.{fmt}", random.Random(4))
    rng = random.Random(5)
    raw = ref.read_bytes()
    cands = {
        "noise": bytes(rng.randrange(256) for _ in range(2000)),
        "truncated": raw[: len(raw) // 2],
        "gzip_noise": gzip.compress(bytes(rng.randrange(256) for _ in range(2000))),
        "cram": b"CRAM\x03\x00" + bytes(100),
        "empty": b"",
    }
    for what, data in cands.items():
        cand = tmp_path / f"{what}.{fmt}"
        cand.write_bytes(data)
        res = judge(ref, cand)
        assert res.ok is False and res.detail, (what, res)
        assert "\n" not in res.detail


def test_a_bad_option_or_reference_is_the_tasks_error(tmp_path: Path) -> None:
    ref = fasta(tmp_path / "a.fa", random.Random(6))
    with pytest.raises(ArtifactConfigError, match="unknown sequence option"):
        judge(ref, ref, orderd=True)
    with pytest.raises(ArtifactConfigError, match="true or false"):
        judge(ref, ref, ordered="yes")
    bad = tmp_path / "bad.vcf"
    bad.write_bytes(b"not a vcf\n")
    with pytest.raises(ArtifactConfigError, match="cannot read reference"):
        judge(bad, ref)


def test_the_bounded_child_judges_a_bam_against_a_sam(tmp_path: Path) -> None:
    """The grading path: the comparison in the bounded child, pysam imported there."""
    ref = sam(tmp_path / "a.sam", random.Random(7))
    bam = tmp_path / "b.bam"
    pysam.view("-b", "-o", str(bam), str(ref), catch_stdout=False)
    assert compare_bounded(ref, bam, atol=1e-6, rtol=1e-4, options=None, kind="sequence").ok
    wrong = tmp_path / "c.sam"
    lines = ref.read_text().splitlines()
    wrong.write_text("\n".join(ln for ln in lines if not ln.startswith("r3\t")) + "\n")
    res = compare_bounded(ref, wrong, atol=1e-6, rtol=1e-4, options=None, kind="sequence")
    assert not res.ok and "read" in res.detail
