"""Simulate per-sample read counts at random SNV sites, call genotypes from allele fractions, and write the calls
as a VCF with pysam.VariantFile (INFO, FORMAT and FILTER declared in the header)."""

import os
import random

import pysam

SAMPLES = ("S1", "S2", "S3", "S4", "S5", "S6")
HEADER = (
    '##INFO=<ID=DP,Number=1,Type=Integer,Description="Total read depth over samples">',
    '##INFO=<ID=AC,Number=A,Type=Integer,Description="Alternate allele count in called genotypes">',
    '##INFO=<ID=AF,Number=A,Type=Float,Description="Alternate read fraction over samples">',
    '##INFO=<ID=MULTI,Number=0,Type=Flag,Description="More than one sample carries the alternate allele">',
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Read depth">',
    '##FORMAT=<ID=AD,Number=R,Type=Integer,Description="Reads per allele">',
    '##FORMAT=<ID=VAF,Number=A,Type=Float,Description="Alternate read fraction">',
)


def genotype(alt, depth, het_low, het_high):
    if depth == 0:
        return (None, None)
    vaf = alt / depth
    return (0, 0) if vaf < het_low else (0, 1) if vaf < het_high else (1, 1)


def main(scn):
    rng = random.Random(int(scn["seed"]))
    length = int(scn["contig_length"])
    samples = SAMPLES[: int(scn["n_samples"])]
    ref = "".join(rng.choice("ACGT") for _ in range(length))
    header = pysam.VariantHeader()
    header.add_line(f"##contig=<ID=chrS,length={length}>")
    header.add_line(f'##FILTER=<ID=LowDP,Description="Total depth below {int(scn["min_total_depth"])}">')
    header.add_line('##FILTER=<ID=LowQual,Description="QUAL below 20">')
    for line in HEADER:
        header.add_line(line)
    for s in samples:
        header.add_sample(s)
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "calls.vcf")
    n, n_pass, n_alt_gt = 0, 0, 0
    with pysam.VariantFile(path, "w", header=header) as out:
        for pos in range(length):
            if rng.random() >= float(scn["site_rate"]):
                continue
            alt_base = rng.choice([b for b in "ACGT" if b != ref[pos]])
            true_vaf = rng.choice([0.0, 0.5, 1.0])
            counts = []
            for _ in samples:
                depth = rng.randint(0, int(scn["max_depth"]))
                alt = sum(rng.random() < max(0.02, min(0.98, true_vaf)) for _ in range(depth))
                counts.append((depth - alt, alt))
            gts = [genotype(a, r + a, float(scn["het_low"]), float(scn["het_high"])) for r, a in counts]
            dp, alt_reads = sum(r + a for r, a in counts), sum(a for _, a in counts)
            ac = sum(g.count(1) for g in gts)
            rec = out.new_record(contig="chrS", start=pos, stop=pos + 1, alleles=(ref[pos], alt_base))
            rec.id = f"snv{pos + 1}"
            rec.qual = round(min(99.0, 3.0 * alt_reads), 1)
            rec.info["DP"], rec.info["AC"] = dp, (ac,)
            rec.info["AF"] = (round(alt_reads / dp, 5) if dp else 0.0,)
            if sum(1 for g in gts if 1 in g) > 1:
                rec.info["MULTI"] = True
            if dp < int(scn["min_total_depth"]):
                rec.filter.add("LowDP")
            if rec.qual < 20:
                rec.filter.add("LowQual")
            if not rec.filter.keys():
                rec.filter.add("PASS")
            for s, (r, a), gt in zip(samples, counts, gts):
                call = rec.samples[s]
                call["GT"], call["DP"], call["AD"] = gt, r + a, (r, a)
                call["VAF"] = (round(a / (r + a), 5) if r + a else None,)
            out.write(rec)
            n += 1
            n_pass += "PASS" in rec.filter.keys()
            n_alt_gt += ac
    return {"vcf": "calls.vcf", "n_records": n, "n_pass": n_pass, "alt_alleles_called": n_alt_gt}
