"""Annotate a simulated genomic region with multi-exon CDS features (Bio.SeqFeature, CompoundLocation), round-trip
it through a GenBank file with Bio.SeqIO, and extract the coding sequences and their proteins as FASTA."""

import os
import random
import tempfile

from Bio import SeqIO
from Bio.Seq import Seq
from Bio.SeqFeature import CompoundLocation, SeqFeature, SimpleLocation
from Bio.SeqRecord import SeqRecord

STOPS = ("TAA", "TAG", "TGA")
SENSE = sorted(a + b + c for a in "ACGT" for b in "ACGT" for c in "ACGT" if a + b + c not in STOPS)


def gene(rng: random.Random, max_codons: int, max_exons: int, max_intron: int) -> tuple[str, list[int], int]:
    """The gene's bases 5'->3', its exon (start, end) pairs in gene coordinates (flattened), CDS length."""
    cds = "ATG" + "".join(rng.choice(SENSE) for _ in range(rng.randint(20, max_codons))) + rng.choice(STOPS)
    n_exons = rng.randint(1, max_exons)
    cuts = [0, *sorted(rng.sample(range(1, len(cds)), n_exons - 1)), len(cds)]
    parts, spans, pos = [], [], 0
    for k in range(n_exons):
        exon = cds[cuts[k]:cuts[k + 1]]
        parts.append(exon)
        spans.append((pos, pos + len(exon)))
        pos += len(exon)
        if k < n_exons - 1:
            intron = "GT" + "".join(rng.choices("ACGT", k=rng.randint(20, max_intron) - 4)) + "AG"
            parts.append(intron)
            pos += len(intron)
    return "".join(parts), spans, len(cds)


def build(scn: dict) -> SeqRecord:
    rng = random.Random(int(scn["seed"]))
    seq, features = "", []
    for g in range(int(scn["n_genes"])):
        seq += "".join(rng.choices("ACGT", k=rng.randint(50, 200)))
        strand = rng.choice([1, -1])
        bases, spans, _ = gene(rng, int(scn["max_codons"]), int(scn["max_exons"]), int(scn["max_intron"]))
        off, n = len(seq), len(bases)
        if strand == 1:
            parts = [SimpleLocation(off + a, off + b, strand=1) for a, b in spans]
        else:
            bases = str(Seq(bases).reverse_complement())
            parts = [SimpleLocation(off + n - b, off + n - a, strand=-1) for a, b in spans]
        seq += bases
        loc = parts[0] if len(parts) == 1 else CompoundLocation(parts)
        tag = f"SIM_{g + 1:04d}"
        features.append(SeqFeature(loc, type="CDS", qualifiers={"locus_tag": [tag], "product": [f"protein {g + 1}"]}))
    seq += "".join(rng.choices("ACGT", k=rng.randint(50, 200)))
    rec = SeqRecord(Seq(seq), id="SIM000001.1", name="SIM000001", description="simulated genomic region",
                    features=features, annotations={"molecule_type": "DNA"})
    return rec


def cds_locations(lines: list[str]) -> list[str]:
    """The CDS location strings of a GenBank feature table as written (continuation lines joined)."""
    out, open_loc = [], False
    for line in lines:
        if line.startswith("     CDS "):
            out.append(line[21:].strip())
            open_loc = True
        elif open_loc and line.startswith(" " * 21) and not line[21:].startswith("/"):
            out[-1] += line[21:].strip()
        else:
            open_loc = False
    return out


def main(scn: dict) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "region.gb")
        SeqIO.write(build(scn), path, "genbank")
        rec = SeqIO.read(path, "genbank")
        with open(path) as fh:
            locations = cds_locations(fh.read().splitlines())
    keep_stop = bool(scn["cds_with_stop"])
    nucs, prots, genes = [], [], []
    for feat, loc_text in zip((f for f in rec.features if f.type == "CDS"), locations):
        tag = feat.qualifiers["locus_tag"][0]
        cds = feat.extract(rec.seq)
        protein = cds.translate(table=1, cds=True)
        nucs.append(SeqRecord(cds if keep_stop else cds[:-3], id=tag, description=""))
        prots.append(SeqRecord(protein, id=tag, description=""))
        third = str(cds)[2::3]
        genes.append({"locus_tag": tag, "location": loc_text, "strand": int(feat.location.strand),
                      "exons": len(feat.location.parts), "cds_length": len(cds), "protein_length": len(protein),
                      "gc3": (third.count("G") + third.count("C")) / len(third)})
    art = os.environ["SWR_ARTIFACTS"]
    SeqIO.write(nucs, os.path.join(art, "cds.fna"), "fasta")
    SeqIO.write(prots, os.path.join(art, "proteins.faa"), "fasta")
    return {"cds_fasta": "cds.fna", "protein_fasta": "proteins.faa", "region_length": len(rec), "genes": genes}
