"""Simulate a diploid sample's reads with true SNVs, write a sorted, indexed BAM with pysam, call SNVs from
AlignmentFile.pileup columns, and write the calls as a VCF with pysam.VariantFile."""

import os
import random
import tempfile

import pysam

OTHER = {b: [x for x in "ACGT" if x != b] for b in "ACGT"}
FORMAT = (
    '##INFO=<ID=DP,Number=1,Type=Integer,Description="Bases counted in the pileup">',
    '##INFO=<ID=REV,Number=1,Type=Integer,Description="Alternate bases on reverse-strand reads">',
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '##FORMAT=<ID=AD,Number=R,Type=Integer,Description="Reference and alternate base counts">',
)


def simulate(rng: random.Random, scn: dict) -> tuple[str, dict, list]:
    """Reference, true sites {pos: (alt, homozygous)}, and reads (start, reverse, bases, quals, mapq) by start."""
    length, read_len = int(scn["ref_length"]), int(scn["read_length"])
    ref = "".join(rng.choice("ACGT") for _ in range(length))
    sites = {}
    for pos in range(length):
        if rng.random() < float(scn["snv_rate"]):
            sites[pos] = (rng.choice(OTHER[ref[pos]]), rng.random() < 0.3)
    reads = []
    for _ in range(round(float(scn["depth"]) * length / read_len)):
        start, hap, reverse = rng.randrange(length - read_len + 1), rng.randrange(2), rng.random() < 0.5
        bases, quals = [], []
        for pos in range(start, start + read_len):
            alt, hom = sites.get(pos, (None, False))
            true = alt if alt and (hom or hap == 1) else ref[pos]
            q = rng.randint(5, 40)
            bases.append(rng.choice(OTHER[true]) if rng.random() < 10 ** (-q / 10) else true)
            quals.append(q)
        reads.append((start, reverse, "".join(bases), quals, rng.randint(0, 60)))
    reads.sort(key=lambda r: r[0])
    return ref, sites, reads


def write_bam(path: str, length: int, reads: list) -> None:
    header = {"HD": {"VN": "1.6", "SO": "coordinate"}, "SQ": [{"SN": "chrP", "LN": length}]}
    with pysam.AlignmentFile(path, "wb", header=header) as out:
        for i, (start, reverse, bases, quals, mapq) in enumerate(reads):
            a = pysam.AlignedSegment(out.header)
            a.query_name, a.query_sequence, a.flag = f"r{i:05d}", bases, 16 if reverse else 0
            a.reference_id, a.reference_start, a.mapping_quality = 0, start, mapq
            a.cigartuples, a.query_qualities = [(0, len(bases))], pysam.qualitystring_to_array(
                "".join(chr(q + 33) for q in quals))
            out.write(a)
    pysam.index(path)


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    ref, sites, reads = simulate(rng, scn)
    header = pysam.VariantHeader()
    header.add_line(f"##contig=<ID=chrP,length={len(ref)}>")
    for line in FORMAT:
        header.add_line(line)
    header.add_sample("SIM")
    calls = []
    with tempfile.TemporaryDirectory() as tmp:
        bam = os.path.join(tmp, "reads.bam")
        write_bam(bam, len(ref), reads)
        with pysam.AlignmentFile(bam) as aln, pysam.VariantFile(
                os.path.join(os.environ["SWR_ARTIFACTS"], "calls.vcf"), "w", header=header) as out:
            for col in aln.pileup("chrP", 0, len(ref), truncate=True, min_base_quality=int(scn["min_base_quality"]),
                                  min_mapping_quality=int(scn["min_mapping_quality"])):
                seqs = col.get_query_sequences()
                counts = {b: sum(s.upper() == b for s in seqs) for b in "ACGT"}
                r = ref[col.reference_pos]
                alt = max(OTHER[r], key=lambda b: counts[b])  # first of A, C, G, T on ties
                dp, n_alt = sum(counts.values()), counts[alt]
                if n_alt < int(scn["min_alt_reads"]) or 100 * n_alt < int(scn["min_vaf_percent"]) * dp:
                    continue
                rec = out.new_record(contig="chrP", start=col.reference_pos, stop=col.reference_pos + 1,
                                     alleles=(r, alt), qual=float(n_alt), filter="PASS")
                rec.info["DP"], rec.info["REV"] = dp, sum(s == alt.lower() for s in seqs)
                rec.samples["SIM"]["GT"] = (1, 1) if 5 * n_alt >= 4 * dp else (0, 1)
                rec.samples["SIM"]["AD"] = (counts[r], n_alt)
                out.write(rec)
                calls.append((col.reference_pos, alt))
    true_calls = sum(sites.get(p, ("",))[0] == a for p, a in calls)
    return {
        "calls": "calls.vcf",
        "n_true_snvs": len(sites),
        "n_called": len(calls),
        "true_positives": true_calls,
        "false_positives": len(calls) - true_calls,
        "sensitivity": true_calls / len(sites) if sites else 0.0,
    }
