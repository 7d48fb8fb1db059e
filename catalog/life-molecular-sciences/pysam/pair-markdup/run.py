"""Simulate paired-end fragments with PCR duplicates, write them as a name-grouped BAM with pysam, run samtools
fixmate -m, sort and markdup through pysam, and write the duplicate-marked BAM; insert sizes from the pairs."""

import os
import random
import statistics
import tempfile

import pysam

QUAL = "".join(chr(q + 33) for q in range(41))


def fragments(rng: random.Random, scn: dict, ref_len: int, read_len: int) -> list[tuple[int, int]]:
    """(start, insert size) per fragment; a duplicate repeats an earlier fragment's coordinates."""
    out: list[tuple[int, int]] = []
    for _ in range(int(scn["n_fragments"])):
        if out and rng.random() < float(scn["duplicate_rate"]):
            out.append(out[rng.randrange(len(out))])
            continue
        size = max(read_len, min(ref_len, round(rng.gauss(float(scn["insert_mean"]), float(scn["insert_sd"])))))
        out.append((rng.randrange(ref_len - size + 1), size))
    return out


def segment(header: pysam.AlignmentHeader, name: str, ref: str, pos: int, mate: int, tlen: int, first: bool,
            quals: list[int], read_len: int) -> pysam.AlignedSegment:
    a = pysam.AlignedSegment(header)
    a.query_name, a.reference_id, a.reference_start = name, 0, pos
    a.next_reference_id, a.next_reference_start, a.template_length = 0, mate, tlen
    a.flag = 0x1 | 0x2 | (0x40 | 0x20 if first else 0x80 | 0x10)
    a.query_sequence = ref[pos:pos + read_len]
    a.query_qualities = pysam.qualitystring_to_array("".join(QUAL[q] for q in quals))
    a.cigartuples, a.mapping_quality = [(0, read_len)], 60
    return a


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    ref_len, read_len = int(scn["ref_length"]), int(scn["read_length"])
    ref = "".join(rng.choice("ACGT") for _ in range(ref_len))
    frags = fragments(rng, scn, ref_len, read_len)
    header = {"HD": {"VN": "1.6", "SO": "queryname"}, "SQ": [{"SN": "chrD", "LN": ref_len}]}
    out_path = os.path.join(os.environ["SWR_ARTIFACTS"], "markdup.bam")
    with tempfile.TemporaryDirectory() as tmp:
        raw, fixed, srt = (os.path.join(tmp, n) for n in ("raw.bam", "fixmate.bam", "sorted.bam"))
        with pysam.AlignmentFile(raw, "wb", header=header) as out:
            for i, (start, size) in enumerate(frags):
                q1 = [rng.randint(2, 40) for _ in range(read_len)]
                q2 = [rng.randint(2, 40) for _ in range(read_len)]
                mate_pos = start + size - read_len
                out.write(segment(out.header, f"f{i:05d}", ref, start, mate_pos, size, True, q1, read_len))
                out.write(segment(out.header, f"f{i:05d}", ref, mate_pos, start, -size, False, q2, read_len))
        pysam.fixmate("--no-PG", "-m", raw, fixed)
        pysam.sort("--no-PG", "-o", srt, "-T", os.path.join(tmp, "s"), fixed)
        pysam.markdup("--no-PG", srt, out_path)
    n_dup, sizes = 0, []
    with pysam.AlignmentFile(out_path) as bam:
        for a in bam:
            n_dup += a.is_duplicate
            if a.is_read1 and not a.is_duplicate:
                sizes.append(a.template_length)
    return {
        "marked_bam": "markdup.bam",
        "n_fragments": len(frags),
        "n_duplicate_reads": n_dup,
        "duplicate_fraction": n_dup / (2 * len(frags)),
        "insert_mean": statistics.fmean(sizes),
        "insert_median": float(statistics.median(sizes)),
        "insert_stdev": statistics.stdev(sizes) if len(sizes) > 1 else 0.0,
    }
