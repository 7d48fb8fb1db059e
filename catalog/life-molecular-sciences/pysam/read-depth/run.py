"""Simulate single-end reads on a random reference, write/sort/index a BAM with pysam, and compute flagstat,
idxstats and per-base coverage statistics."""

import json
import os
import random
import re
import sys
import tempfile

import numpy as np
import pysam



def simulate(rng, ref, n_reads, read_len, err, unmapped_frac, dup_frac):
    """Yield dicts describing reads; positions are drawn uniformly, errors are substitutions."""
    reads = []
    L = len(ref)
    for i in range(n_reads):
        pos = rng.randrange(0, L - read_len + 1)
        reverse = rng.random() < 0.5
        bases = list(ref[pos:pos + read_len])
        nm = 0
        for j in range(read_len):
            if rng.random() < err:
                bases[j] = rng.choice([b for b in "ACGT" if b != bases[j]])
                nm += 1
        quals = [rng.randint(2, 40) for _ in range(read_len)]
        reads.append({
            "name": f"r{i:06d}", "pos": pos, "reverse": reverse, "seq": "".join(bases), "qual": quals,
            "mapq": rng.randint(0, 60), "nm": nm,
            "unmapped": rng.random() < unmapped_frac, "dup": rng.random() < dup_frac,
        })
    return reads


def parse_flagstat(text):
    out = {}
    for line in text.splitlines():
        if " + " not in line:
            continue
        qc_pass = int(line.split(" + ")[0])
        label = line.split(" + ", 1)[1].split(" ", 1)[1]
        label = re.sub(r"\s*\([^)]*:[^)]*\)", "", label)  # drop "(93.20% : N/A)" percentages
        key = re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")
        out["total" if key.startswith("in_total") else key] = qc_pass
    return dict(sorted(out.items()))


def main(scn):
    rng = random.Random(int(scn["seed"]))
    ref_len = int(scn["ref_length"])
    read_len = int(scn["read_length"])
    coverage = float(scn["coverage"])
    min_bq = int(scn["min_base_quality"])
    window = int(scn["window"])
    ref = "".join(rng.choice("ACGT") for _ in range(ref_len))
    n_reads = int(round(coverage * ref_len / read_len))
    reads = simulate(rng, ref, n_reads, read_len, float(scn["error_rate"]),
                     float(scn["unmapped_fraction"]), float(scn["duplicate_fraction"]))

    header = {"HD": {"VN": "1.6", "SO": "unsorted"}, "SQ": [{"SN": "chrSim", "LN": ref_len}]}
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.bam")
        bam_path = os.path.join(tmp, "sorted.bam")
        with pysam.AlignmentFile(raw, "wb", header=header) as out:
            for r in reads:
                a = pysam.AlignedSegment(out.header)
                a.query_name = r["name"]
                a.query_sequence = r["seq"]
                a.query_qualities = pysam.qualitystring_to_array("".join(chr(q + 33) for q in r["qual"]))
                flag = 0x10 if r["reverse"] else 0
                if r["dup"]:
                    flag |= 0x400
                if r["unmapped"]:
                    flag |= 0x4
                    a.reference_id = 0
                    a.reference_start = r["pos"]
                    a.mapping_quality = 0
                else:
                    a.reference_id = 0
                    a.reference_start = r["pos"]
                    a.mapping_quality = r["mapq"]
                    a.cigartuples = [(0, read_len)]
                    a.set_tag("NM", r["nm"])
                a.flag = flag
                out.write(a)
        pysam.sort("-o", bam_path, "-T", os.path.join(tmp, "srt"), raw)
        pysam.index(bam_path)
        flagstat = parse_flagstat(pysam.flagstat(bam_path))
        with pysam.AlignmentFile(bam_path, "rb") as bam:
            idx = bam.get_index_statistics()[0]
            cov = np.array(bam.count_coverage("chrSim", 0, ref_len, quality_threshold=min_bq,
                                              read_callback="all"), dtype=np.int64)  # A, C, G, T
            n_pileup_reads = sum(1 for _ in bam.fetch("chrSim"))
            first_starts = [a.reference_start for a in bam.fetch("chrSim", 0, ref_len)][:5]

    depth = cov.sum(axis=0)
    ref_code = np.array(["ACGT".index(b) for b in ref])
    match = cov[ref_code, np.arange(ref_len)]
    covered = depth > 0
    consensus = np.argmax(cov, axis=0)
    windows = [float(depth[i:i + window].mean()) for i in range(0, ref_len, window)]
    return {
        "n_reads": n_reads,
        "flagstat": flagstat,
        "idxstats": {"mapped": int(idx.mapped), "unmapped": int(idx.unmapped)},
        "fetched_records": int(n_pileup_reads),
        "first_sorted_starts": [int(s) for s in first_starts],
        "mean_depth": float(depth.mean()),
        "max_depth": int(depth.max()),
        "breadth_1x": float(covered.mean()),
        "breadth_5x": float((depth >= 5).mean()),
        "mismatch_fraction": float((depth - match).sum() / max(int(depth.sum()), 1)),
        "consensus_errors": int(((consensus != ref_code) & covered).sum()),
        "window_mean_depth": windows,
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
