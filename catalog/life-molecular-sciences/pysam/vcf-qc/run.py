"""Genotype QC of a multi-sample, multi-allelic VCF with pysam.VariantFile: subset samples (subset_samples), mask
low-depth / low-quality genotypes, recompute AC/AN, flag sites with a low call rate, drop monomorphic sites, and
write the filtered VCF with the new header lines."""

import os
import random
import tempfile
import tomllib
from pathlib import Path

import pysam

# The contig length the instruction states, read from workflow.toml's [constants] (one source for both).
CONTIG_LENGTH = int(tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]["CONTIG_LENGTH"])

HEADER = (
    f'##contig=<ID=chrV,length={CONTIG_LENGTH}>',
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '##FORMAT=<ID=DP,Number=1,Type=Integer,Description="Read depth">',
    '##FORMAT=<ID=GQ,Number=1,Type=Integer,Description="Genotype quality">',
)
ADDED = (
    '##INFO=<ID=AC,Number=A,Type=Integer,Description="Alternate allele counts in the called genotypes">',
    '##INFO=<ID=AN,Number=1,Type=Integer,Description="Called alleles">',
    '##FILTER=<ID=LowCallRate,Description="Too few samples called">',
)


def write_raw(path: str, scn: dict) -> None:
    rng = random.Random(int(scn["seed"]))
    n_samples = int(scn["n_samples"])
    header = pysam.VariantHeader()
    for line in HEADER:
        header.add_line(line)
    for s in range(n_samples):
        header.add_sample(f"S{s}")
    with pysam.VariantFile(path, "w", header=header) as out:
        for pos in sorted(rng.sample(range(1, CONTIG_LENGTH + 1), int(scn["n_sites"]))):
            ref = rng.choice("ACGT")
            n_alt = rng.randint(2, 3) if rng.random() < float(scn["multiallelic_rate"]) else 1
            alts = rng.sample([b for b in "ACGT" if b != ref], n_alt)
            freqs = [rng.uniform(0.0, 0.5 / n_alt) for _ in alts]
            rec = out.new_record(contig="chrV", start=pos - 1, alleles=(ref, *alts), qual=50.0, filter="PASS")
            for s in range(n_samples):
                gt = []
                for _ in range(2):
                    u, allele, acc = rng.random(), 0, 0.0
                    for k, f in enumerate(freqs):
                        acc += f
                        if u < acc:
                            allele = k + 1
                            break
                    gt.append(allele)
                call = rec.samples[f"S{s}"]
                call["GT"], call["DP"], call["GQ"] = tuple(sorted(gt)), rng.randint(0, 40), rng.randint(0, 99)
            out.write(rec)


def main(scn: dict) -> dict:
    n_samples = int(scn["n_samples"])
    keep = []
    for i in scn["keep_samples"]:
        if f"S{int(i) % n_samples}" not in keep:
            keep.append(f"S{int(i) % n_samples}")
    keep.sort(key=lambda s: int(s[1:]))
    min_dp, min_gq, min_pct = int(scn["min_dp"]), int(scn["min_gq"]), int(scn["min_call_percent"])
    n_in = n_low = n_mono = n_masked = 0
    with tempfile.TemporaryDirectory() as tmp:
        raw = os.path.join(tmp, "raw.vcf")
        write_raw(raw, scn)
        with pysam.VariantFile(raw) as vf:
            vf.subset_samples(keep)
            header = vf.header.copy()
            for line in ADDED:
                header.add_line(line)
            with pysam.VariantFile(os.path.join(os.environ["SWR_ARTIFACTS"], "qc.vcf"), "w", header=header) as out:
                for rec in vf:
                    n_in += 1
                    rec.translate(header)
                    called = 0
                    ac = [0] * len(rec.alts)
                    for s in keep:
                        call = rec.samples[s]
                        if call["DP"] < min_dp or call["GQ"] < min_gq:
                            call["GT"] = (None, None)
                            n_masked += 1
                            continue
                        called += 1
                        for a in call["GT"]:
                            if a:
                                ac[a - 1] += 1
                    if sum(ac) == 0 and scn["drop_monomorphic"]:
                        n_mono += 1
                        continue
                    rec.info["AC"], rec.info["AN"] = ac, 2 * called
                    if 100 * called < min_pct * len(keep):
                        rec.filter.clear()
                        rec.filter.add("LowCallRate")
                        n_low += 1
                    out.write(rec)
    return {"qc_vcf": "qc.vcf", "samples_kept": keep, "n_input_sites": n_in, "n_masked_genotypes": n_masked,
            "n_dropped_monomorphic": n_mono, "n_low_call_rate": n_low, "n_written": n_in - n_mono}
