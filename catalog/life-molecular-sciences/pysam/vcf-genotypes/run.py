"""Simulate population genotypes on a random reference, write a bgzipped, tabix-indexed VCF with pysam.VariantFile
(REF alleles read back through a faidx-indexed FastaFile), then query a region and compute genotype statistics."""

import json
import os
import random
import sys
import tempfile

import pysam

TRANSITION = {"A": "G", "G": "A", "C": "T", "T": "C"}
TRANSVERSIONS = {"A": "CT", "G": "CT", "C": "AG", "T": "AG"}


def genotype(rng, p_alt, f, missing):
    if rng.random() < missing:
        return (None, None)
    q, p = 1.0 - p_alt, p_alt
    u = rng.random()
    if u < q * q + f * p * q:
        return (0, 0)
    if u < q * q + f * p * q + 2.0 * p * q * (1.0 - f):
        return (0, 1)
    return (1, 1)


def main(scn):
    rng = random.Random(int(scn["seed"]))
    L = int(scn["ref_length"])
    n_samples = int(scn["n_samples"])
    rate = float(scn["variant_rate"])
    ti_prob = float(scn["transition_prob"])
    a, b = float(scn["af_alpha"]), float(scn["af_beta"])
    f = float(scn["inbreeding"])
    missing = float(scn["missing_rate"])
    min_qual = float(scn["min_qual"])
    ref = "".join(rng.choice("ACGT") for _ in range(L))
    samples = [f"S{i:02d}" for i in range(n_samples)]
    r0 = int(float(scn["region_start_fraction"]) * L)
    r1 = min(L, r0 + int(float(scn["region_length_fraction"]) * L))

    with tempfile.TemporaryDirectory() as tmp:
        fa = os.path.join(tmp, "ref.fa")
        with open(fa, "w", encoding="ascii") as fh:
            fh.write(">chrSim\n")
            for i in range(0, L, 60):
                fh.write(ref[i:i + 60] + "\n")
        pysam.faidx(fa)
        fasta = pysam.FastaFile(fa)

        header = pysam.VariantHeader()
        header.contigs.add("chrSim", length=L)
        header.filters.add("LowQual", None, None, f"QUAL below {min_qual}")
        header.info.add("DP", 1, "Integer", "Total depth")
        header.formats.add("GT", 1, "String", "Genotype")
        for s in samples:
            header.add_sample(s)
        vcf_path = os.path.join(tmp, "sim.vcf.gz")
        n_written = 0
        with pysam.VariantFile(vcf_path, "wz", header=header) as out:
            for pos in range(L):
                if rng.random() >= rate:
                    continue
                rb = fasta.fetch("chrSim", pos, pos + 1)
                alt = TRANSITION[rb] if rng.random() < ti_prob else rng.choice(TRANSVERSIONS[rb])
                p_alt = rng.betavariate(a, b)
                qual = round(rng.uniform(1.0, 100.0), 2)
                rec = out.new_record(contig="chrSim", start=pos, alleles=(rb, alt), qual=qual)
                rec.filter.add("PASS" if qual >= min_qual else "LowQual")
                rec.info["DP"] = rng.randint(5 * n_samples, 40 * n_samples)
                for s in samples:
                    rec.samples[s]["GT"] = genotype(rng, p_alt, f, missing)
                out.write(rec)
                n_written += 1
        pysam.tabix_index(vcf_path, preset="vcf", force=True)
        region_seq = fasta.fetch("chrSim", r0, r1)
        fasta.close()

        ti = tv = n_pass = singletons = 0
        het = {s: 0 for s in samples}
        hom_alt = {s: 0 for s in samples}
        miss = {s: 0 for s in samples}
        ac_total = an_total = 0
        exp_het = obs_het = 0.0
        positions = []
        with pysam.VariantFile(vcf_path) as vf:
            for rec in vf.fetch("chrSim", r0, r1):
                if "PASS" not in rec.filter.keys():
                    continue
                n_pass += 1
                positions.append(rec.pos)
                ref_a, alt_a = rec.alleles
                if TRANSITION[ref_a] == alt_a:
                    ti += 1
                else:
                    tv += 1
                ac = an = nhet = 0
                for s in samples:
                    gt = rec.samples[s]["GT"]
                    if gt[0] is None:
                        miss[s] += 1
                        continue
                    an += 2
                    ac += sum(gt)
                    if sum(gt) == 1:
                        het[s] += 1
                        nhet += 1
                    elif sum(gt) == 2:
                        hom_alt[s] += 1
                ac_total += ac
                an_total += an
                if ac == 1:
                    singletons += 1
                if an:
                    pa = ac / an
                    exp_het += 2.0 * pa * (1.0 - pa)
                    obs_het += nhet / (an / 2)

    gc = sum(region_seq.count(c) for c in "GC") / max(len(region_seq), 1)
    return {
        "n_records_written": n_written,
        "region": [r0 + 1, r1],
        "region_gc_fraction": float(gc),
        "n_pass_in_region": n_pass,
        "first_positions": positions[:3] + [0] * (3 - len(positions[:3])),
        "transitions": ti,
        "transversions": tv,
        "ti_tv_ratio": float(ti / max(tv, 1)),
        "singletons": singletons,
        "alt_allele_frequency": float(ac_total / an_total) if an_total else 0.0,
        "mean_expected_heterozygosity": float(exp_het / n_pass) if n_pass else 0.0,
        "mean_observed_heterozygosity": float(obs_het / n_pass) if n_pass else 0.0,
        "per_sample": [{"sample": s, "het": het[s], "hom_alt": hom_alt[s], "missing": miss[s]} for s in samples],
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
