"""Variant normalization with bcftools norm through pysam: indels written right-shifted in tandem repeats are
left-aligned against the reference FASTA and multi-allelic records optionally split; the normalized VCF is the
artifact, the shifts are read back with pysam.VariantFile."""

import os
import random
import tempfile

import pysam
from pysam import bcftools

OTHER = {b: [x for x in "ACGT" if x != b] for b in "ACGT"}


def simulate(scn: dict) -> tuple[str, list[tuple[int, str, tuple[str, ...], str]]]:
    """Reference and variants (0-based pos, REF, ALTs, ID), indels right-shifted in their repeat."""
    rng = random.Random(int(scn["seed"]))
    ref, repeats, plain = [], [], []
    while len(ref) < int(scn["ref_length"]):
        if len(ref) > 0 and rng.random() < float(scn["repeat_rate"]):
            unit = "".join(rng.choices("ACGT", k=rng.randint(1, 3)))
            start = len(ref)
            ref.extend(unit * rng.randint(3, 8))
            repeats.append((start, len(ref), len(unit)))
        else:
            plain.append(len(ref))
            ref.append(rng.choice("ACGT"))
    seq = "".join(ref)
    variants = []
    for start, end, ulen in repeats:
        if rng.random() < float(scn["indel_rate"]):
            anchor = end - ulen - 1 if rng.random() < 0.5 else end - 1
            if anchor == end - ulen - 1:  # delete the last unit copy
                variants.append((anchor, seq[anchor:end], (seq[anchor],)))
            else:  # insert one more copy after the repeat's last base
                variants.append((anchor, seq[anchor], (seq[anchor] + seq[end - ulen:end],)))
    for pos in plain:
        if rng.random() < float(scn["snv_rate"]):
            alts = rng.sample(OTHER[seq[pos]], 2 if rng.random() < float(scn["multiallelic_fraction"]) else 1)
            variants.append((pos, seq[pos], tuple(alts)))
    variants.sort(key=lambda v: (v[0], len(v[1])))
    return seq, [(p, r, a, f"v{k:03d}") for k, (p, r, a) in enumerate(variants)]


def main(scn: dict) -> dict:
    ref, variants = simulate(scn)
    out_path = os.path.join(os.environ["SWR_ARTIFACTS"], "normalized.vcf")
    with tempfile.TemporaryDirectory() as tmp:
        fa, raw = os.path.join(tmp, "ref.fa"), os.path.join(tmp, "raw.vcf")
        with open(fa, "w") as fh:
            fh.write(">chrN\n" + "".join(ref[i:i + 60] + "\n" for i in range(0, len(ref), 60)))
        pysam.faidx(fa)
        header = pysam.VariantHeader()
        header.add_line(f"##contig=<ID=chrN,length={len(ref)}>")
        with pysam.VariantFile(raw, "w", header=header) as vf:
            for pos, r, alts, vid in variants:
                vf.write(vf.new_record(contig="chrN", start=pos, alleles=(r, *alts), id=vid, qual=30.0,
                                       filter="PASS"))
        args = ["--no-version", "-f", fa]
        if scn["split_multiallelic"]:
            args += ["-m", "-any"]
        text = bcftools.norm(*args, raw)  # pysam returns what bcftools writes to stdout
    with open(out_path, "w") as fh:
        fh.write(text)
    before = {vid: pos + 1 for pos, _, _, vid in variants}
    shifts, n_records, n_indel = [], 0, 0
    with pysam.VariantFile(out_path) as vf:
        for rec in vf:
            n_records += 1
            if any(len(a) != len(rec.ref) for a in rec.alts):
                n_indel += 1
                shifts.append({"id": rec.id, "before": before[rec.id], "after": rec.pos, "ref": rec.ref,
                               "alt": rec.alts[0]})
    return {
        "normalized_vcf": "normalized.vcf",
        "n_input_records": len(variants),
        "n_output_records": n_records,
        "n_indels": n_indel,
        "n_left_shifted": sum(s["after"] < s["before"] for s in shifts),
        "total_shift_bp": sum(s["before"] - s["after"] for s in shifts),
        "indels": shifts,
    }
