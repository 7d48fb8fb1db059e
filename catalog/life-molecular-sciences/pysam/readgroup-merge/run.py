"""Per-sample BAMs with read groups (@RG, RG tags) written and indexed with pysam, merged with samtools merge and
filtered by region, MAPQ and flags with samtools view (pysam dispatchers); the filtered BAM and per-read-group
counts (AlignmentFile.count, fetch, get_tag) are the outputs."""

import os
import random
import tempfile

import pysam

CONTIGS = (("chrA", 5000), ("chrB", 3000))


def sample_bam(path: str, rng: random.Random, s: int, scn: dict) -> None:
    rg = {"ID": f"rg{s}", "SM": f"sample{s}", "LB": f"lib{s}", "PL": "ILLUMINA"}
    header = {"HD": {"VN": "1.6", "SO": "coordinate"}, "SQ": [{"SN": n, "LN": ln} for n, ln in CONTIGS], "RG": [rg]}
    reads = []
    for i in range(int(scn["reads_per_sample"])):
        tid = rng.randrange(2)
        start = rng.randrange(CONTIGS[tid][1] - 100 + 1)
        flag = (16 if rng.random() < 0.5 else 0) | (256 if rng.random() < 0.05 else 0) \
            | (512 if rng.random() < 0.05 else 0) | (1024 if rng.random() < float(scn["duplicate_rate"]) else 0)
        reads.append((tid, start, flag, rng.randint(0, 60), "".join(rng.choices("ACGT", k=100)), f"s{s}r{i:04d}"))
    reads.sort(key=lambda r: (r[0], r[1]))
    with pysam.AlignmentFile(path, "wb", header=header) as out:
        for tid, start, flag, mapq, bases, name in reads:
            a = pysam.AlignedSegment(out.header)
            a.query_name, a.flag, a.reference_id, a.reference_start = name, flag, tid, start
            a.mapping_quality, a.query_sequence, a.cigartuples = mapq, bases, [(0, 100)]
            a.query_qualities = pysam.qualitystring_to_array("F" * 100)
            a.set_tag("RG", f"rg{s}")
            out.write(a)
    pysam.index(path)


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    n = int(scn["n_samples"])
    start = int(float(scn["region_start_fraction"]) * CONTIGS[0][1])
    end = start + int(scn["region_length"])
    region = f"chrA:{start + 1}-{end}"
    exclude = (256 if scn["exclude_secondary"] else 0) | (512 if scn["exclude_qcfail"] else 0) \
        | (1024 if scn["exclude_duplicates"] else 0)
    out_path = os.path.join(os.environ["SWR_ARTIFACTS"], "filtered.bam")
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, f"sample{s}.bam") for s in range(n)]
        for s, p in enumerate(paths):
            sample_bam(p, rng, s, scn)
        merged = os.path.join(tmp, "merged.bam")
        pysam.merge("--no-PG", "-f", merged, *paths)
        pysam.index(merged)
        with pysam.AlignmentFile(merged) as bam:
            merged_total = bam.mapped
            in_region = bam.count(region=region)
        pysam.view("--no-PG", "-b", "-q", str(int(scn["min_mapq"])), "-F", str(exclude), "-o", out_path, merged, region,
                   catch_stdout=False)
    per_rg = {f"rg{s}": 0 for s in range(n)}
    mapq = []
    with pysam.AlignmentFile(out_path) as bam:
        for a in bam:
            per_rg[a.get_tag("RG")] += 1
            mapq.append(a.mapping_quality)
        read_groups = sorted(rg["ID"] for rg in bam.header.to_dict()["RG"])
    return {
        "filtered_bam": "filtered.bam",
        "region": region,
        "merged_mapped": int(merged_total),
        "merged_in_region": int(in_region),
        "header_read_groups": read_groups,
        "kept_per_read_group": [per_rg[f"rg{s}"] for s in range(n)],
        "kept_total": len(mapq),
        "kept_mean_mapq": sum(mapq) / len(mapq) if mapq else 0.0,
    }
