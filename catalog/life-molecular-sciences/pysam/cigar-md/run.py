"""Reads with substitutions, indels and soft clips written with explicit CIGARs by pysam, MD/NM computed against
the reference FASTA by samtools calmd (pysam.calmd), and per-read alignment geometry from pysam's AlignedSegment."""

import os
import random
import re
import tempfile

import pysam

OTHER = {b: [x for x in "ACGT" if x != b] for b in "ACGT"}
OPS = {"M": 0, "I": 1, "D": 2, "S": 4}


def read(rng: random.Random, ref: str, scn: dict) -> tuple[int, bool, str, list[tuple[int, int]]]:
    """start, reverse, query bases, CIGAR (op, length) of one simulated read."""
    n, sub, indel, clip = int(scn["read_length"]), float(scn["sub_rate"]), float(scn["indel_rate"]), float(scn["clip_prob"])
    start = rng.randrange(len(ref) - 2 * n)
    reverse = rng.random() < 0.5
    left = rng.randint(5, 15) if rng.random() < clip else 0
    right = rng.randint(5, 15) if rng.random() < clip else 0
    aligned = n - left - right
    bases = "".join(rng.choices("ACGT", k=left))
    ops: list[list] = [["S", left]] if left else []
    q, p = 0, start

    def add(op: str, k: int) -> None:
        if ops and ops[-1][0] == op:
            ops[-1][1] += k
        else:
            ops.append([op, k])

    while q < aligned:
        r = rng.random()
        if r < indel and 1 <= q <= aligned - 4:
            k = rng.randint(1, 3)
            if r < indel / 2:
                bases += "".join(rng.choices("ACGT", k=k))
                q += k
                add("I", k)
            else:
                p += k
                add("D", k)
        elif r < indel + sub:
            bases += rng.choice(OTHER[ref[p]])
            p, q = p + 1, q + 1
            add("M", 1)
        else:
            bases += ref[p]
            p, q = p + 1, q + 1
            add("M", 1)
    bases += "".join(rng.choices("ACGT", k=right))
    if right:
        add("S", right)
    return start, reverse, bases, [(OPS[o], k) for o, k in ops]


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    ref = "".join(rng.choice("ACGT") for _ in range(int(scn["ref_length"])))
    reads = sorted((read(rng, ref, scn) for _ in range(int(scn["n_reads"]))), key=lambda r: r[0])
    header = {"HD": {"VN": "1.6", "SO": "coordinate"}, "SQ": [{"SN": "chrM", "LN": len(ref)}]}
    with tempfile.TemporaryDirectory() as tmp:
        fa, bam = os.path.join(tmp, "ref.fa"), os.path.join(tmp, "reads.bam")
        with open(fa, "w") as fh:
            fh.write(">chrM\n" + "".join(ref[i:i + 60] + "\n" for i in range(0, len(ref), 60)))
        pysam.faidx(fa)
        with pysam.AlignmentFile(bam, "wb", header=header) as out:
            for i, (start, reverse, bases, cigar) in enumerate(reads):
                a = pysam.AlignedSegment(out.header)
                a.query_name, a.flag, a.reference_id, a.reference_start = f"q{i:04d}", 16 if reverse else 0, 0, start
                a.mapping_quality, a.query_sequence, a.cigartuples = 60, bases, cigar
                a.query_qualities = pysam.qualitystring_to_array("I" * len(bases))
                out.write(a)
        args = ["--no-PG", "-e"] if scn["equals"] else ["--no-PG"]  # no @PG line: it would name the temp dir
        sam_text = pysam.calmd(*args, bam, fa)
    out_path = os.path.join(os.environ["SWR_ARTIFACTS"], "calmd.sam")
    with open(out_path, "w") as fh:
        fh.write(sam_text)
    stats, nm, spans, aligned_frac, with_mm = [0] * 5, [], [], [], 0
    with pysam.AlignmentFile(out_path, "r") as sam:
        for a in sam:
            counts = a.get_cigar_stats()[0]
            for k, op in enumerate((0, 1, 2, 4)):
                stats[k] += int(counts[op])
            nm.append(a.get_tag("NM"))
            with_mm += bool(re.search("[A-Z]", re.sub(r"\^[A-Z]+", "", a.get_tag("MD"))))
            spans.append(a.reference_end - a.reference_start)
            aligned_frac.append(a.query_alignment_length / a.query_length)
    return {
        "calmd_sam": "calmd.sam",
        "cigar_bases": {"M": stats[0], "I": stats[1], "D": stats[2], "S": stats[3]},
        "mean_nm": sum(nm) / len(nm),
        "max_nm": max(nm),
        "mean_reference_span": sum(spans) / len(spans),
        "mean_aligned_fraction": sum(aligned_frac) / len(aligned_frac),
        "reads_with_md_mismatch": with_mm,
    }
