"""Variant annotation against a tabix-indexed gene BED with pysam: the BED is bgzip-compressed and indexed
(pysam.tabix_index, preset bed), queried per variant with TabixFile.fetch(parser=pysam.asBed()), and the variants
written as a VCF whose INFO carries the overlapping and nearby genes (pysam.VariantFile)."""

import os
import random
import tempfile

import pysam

CONTIG, LENGTH = "chrT", 50000
HEADER = (
    f"##contig=<ID={CONTIG},length={LENGTH}>",
    '##INFO=<ID=GENE,Number=.,Type=String,Description="Genes overlapping the variant">',
    '##INFO=<ID=NEAR,Number=.,Type=String,Description="Genes within the flank but not overlapping">',
    '##INFO=<ID=STRAND,Number=.,Type=String,Description="Strand of each overlapping gene">',
    '##FILTER=<ID=Intergenic,Description="No gene overlaps the variant">',
)


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    genes = []
    for g in range(int(scn["n_genes"])):
        length = rng.randint(200, int(scn["max_gene_length"]))
        start = rng.randrange(LENGTH - length)
        genes.append((start, start + length, f"gene{g:02d}", rng.choice("+-")))
    genes.sort()
    positions = sorted(rng.sample(range(LENGTH), int(scn["n_variants"])))
    variants = [(p, rng.choice("ACGT")) for p in positions]
    flank = int(scn["flank"])
    header = pysam.VariantHeader()
    for line in HEADER:
        header.add_line(line)
    per_gene = {name: 0 for _, _, name, _ in genes}
    n_genic = n_near = 0
    with tempfile.TemporaryDirectory() as tmp:
        bed = os.path.join(tmp, "genes.bed")
        with open(bed, "w") as fh:
            fh.writelines(f"{CONTIG}\t{s}\t{e}\t{n}\t0\t{st}\n" for s, e, n, st in genes)
        bgz = pysam.tabix_index(bed, preset="bed", force=True)
        out_path = os.path.join(os.environ["SWR_ARTIFACTS"], "annotated.vcf")
        with pysam.TabixFile(bgz, parser=pysam.asBed()) as tbx, \
                pysam.VariantFile(out_path, "w", header=header) as out:
            for pos, ref in variants:
                hits = list(tbx.fetch(CONTIG, pos, pos + 1))
                near = [b for b in tbx.fetch(CONTIG, max(0, pos - flank), min(LENGTH, pos + flank + 1))
                        if not b.start <= pos < b.end]
                alt = rng.choice([b for b in "ACGT" if b != ref])
                rec = out.new_record(contig=CONTIG, start=pos, alleles=(ref, alt), qual=40.0,
                                     filter="PASS" if hits else "Intergenic")
                if hits:
                    rec.info["GENE"] = tuple(b.name for b in hits)
                    rec.info["STRAND"] = tuple(b.strand for b in hits)
                    n_genic += 1
                    for b in hits:
                        per_gene[b.name] += 1
                if near:
                    rec.info["NEAR"] = tuple(b.name for b in near)
                    n_near += 1
                out.write(rec)
    return {
        "annotated_vcf": "annotated.vcf",
        "n_variants": len(variants),
        "n_genic": n_genic,
        "n_with_nearby_gene": n_near,
        "variants_per_gene": [per_gene[name] for _, _, name, _ in genes],
        "gene_order": [name for _, _, name, _ in genes],
    }
