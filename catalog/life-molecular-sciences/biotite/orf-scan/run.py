"""Every ORF of a random contig on both strands with biotite (NucleotideSequence.translate under an NCBI
CodonTable), written as a protein FASTA with biotite.sequence.io.fasta."""

import os
import random

import biotite.sequence as seq
import biotite.sequence.io.fasta as fasta


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    gc = float(scn["gc_content"])
    bases = "".join(rng.choices("ACGT", weights=[(1 - gc) / 2, gc / 2, gc / 2, (1 - gc) / 2], k=int(scn["length"])))
    table = seq.CodonTable.load(int(scn["table"]))
    min_aa, need_stop = int(scn["min_protein_length"]), bool(scn["require_stop"])
    dna = seq.NucleotideSequence(bases)
    out = fasta.FastaFile()
    lengths, weights, n_stop = [], [], 0
    for strand, nuc in (("+", dna), ("-", dna.reverse().complement())):
        proteins, spans = nuc.translate(codon_table=table, met_start=bool(scn["met_start"]))
        for prot, (start, stop) in zip(proteins, spans):
            text = str(prot)
            has_stop = text.endswith("*")
            body = text.rstrip("*")
            if len(body) < min_aa or (need_stop and not has_stop):
                continue
            n_stop += has_stop
            out[f"orf{strand}{int(start)}-{int(stop)} length={len(body)}"] = body
            lengths.append(len(body))
            weights.append(float(seq.ProteinSequence(body).get_molecular_weight()))
    out.write(os.path.join(os.environ["SWR_ARTIFACTS"], "orfs.fasta"))
    return {
        "proteins": "orfs.fasta",
        "n_orfs": len(lengths),
        "n_with_stop": n_stop,
        "longest_aa": max(lengths, default=0),
        "max_molecular_weight": max(weights, default=0.0),
        "start_codons": sorted(table.start_codons()),
    }
