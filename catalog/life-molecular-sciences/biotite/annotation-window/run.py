"""Genes of a simulated bacterial contig as a biotite AnnotatedSequence (Feature, Location), round-tripped through
a GenBank file (biotite.sequence.io.genbank), cut to a window (features crossing its ends become partial: Location
defects), the complete CDSs translated and written as protein FASTA."""

import io
import os
import random

import biotite.sequence as seq
import biotite.sequence.io.fasta as fasta
import biotite.sequence.io.genbank as gb

STOPS = ("TAA", "TAG", "TGA")
SENSE = sorted(a + b + c for a in "ACGT" for b in "ACGT" for c in "ACGT" if a + b + c not in STOPS)


def contig(scn: dict) -> seq.AnnotatedSequence:
    rng = random.Random(int(scn["seed"]))
    bases, features = "", []
    for g in range(int(scn["n_genes"])):
        bases += "".join(rng.choices("ACGT", k=rng.randint(20, int(scn["max_spacer"]))))
        reverse = rng.random() < float(scn["reverse_fraction"])
        cds = "ATG" + "".join(rng.choice(SENSE) for _ in range(rng.randint(30, 150))) + rng.choice(STOPS)
        strand = seq.Location.Strand.REVERSE if reverse else seq.Location.Strand.FORWARD
        loc = seq.Location(len(bases) + 1, len(bases) + len(cds), strand)
        bases += str(seq.NucleotideSequence(cds).reverse().complement()) if reverse else cds
        features.append(seq.Feature("CDS", [loc], {"locus_tag": f"orf{g + 1:02d}"}))
    bases += "".join(rng.choices("ACGT", k=rng.randint(20, int(scn["max_spacer"]))))
    return seq.AnnotatedSequence(seq.Annotation(features), seq.NucleotideSequence(bases))


def main(scn: dict) -> dict:
    buf = io.StringIO()
    out_gb = gb.GenBankFile()
    gb.set_annotated_sequence(out_gb, contig(scn))
    out_gb.write(buf)
    buf.seek(0)
    annotated = gb.get_annotated_sequence(gb.GenBankFile.read(buf))
    n = len(annotated.sequence)
    start = int(float(scn["window_start_fraction"]) * n) + 1
    stop = min(n + 1, start + int(float(scn["window_length_fraction"]) * n))
    window = annotated[start:stop]
    table = seq.CodonTable.load(int(scn["table"]))
    records = fasta.FastaFile()
    rows = []
    for feat in sorted(window.annotation, key=lambda f: min(loc.first for loc in f.locs)):
        (loc,) = feat.locs
        nuc = window[feat]
        complete = loc.defect == seq.Location.Defect.NONE
        tag = feat.qual["locus_tag"]
        row = {"locus_tag": tag, "first": int(loc.first), "last": int(loc.last),
               "strand": "+" if loc.strand == seq.Location.Strand.FORWARD else "-",
               "partial": {seq.Location.Defect.NONE: "no", seq.Location.Defect.MISS_LEFT: "left",
                           seq.Location.Defect.MISS_RIGHT: "right"}.get(loc.defect, "both"),
               "bases": len(nuc), "protein_length": 0, "internal_stops": 0}
        if complete:
            protein = str(nuc.translate(complete=True, codon_table=table))
            row["internal_stops"] = protein[:-1].count("*")
            row["protein_length"] = len(protein.rstrip("*"))
            records[tag] = protein.rstrip("*")
        rows.append(row)
    records.write(os.path.join(os.environ["SWR_ARTIFACTS"], "window_proteins.fasta"))
    return {"proteins": "window_proteins.fasta", "contig_length": n, "window": [start, stop - 1], "features": rows}
