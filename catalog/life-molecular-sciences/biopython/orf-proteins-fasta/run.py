"""Draw random contigs, find open reading frames on both strands with Biopython (Seq.translate under an NCBI
genetic code), and write the proteins as a FASTA file with Bio.SeqIO."""

import os
import random

from Bio.Seq import Seq
from Bio.SeqIO import write
from Bio.SeqRecord import SeqRecord


def orfs(seq, table, min_aa):
    """(strand, frame, aa start, protein) of every ORF: in each of the six frames, each stretch between stops
    read from its first Met (to the stop, or to the end of the frame when it has none)."""
    found = []
    for strand, nuc in (("+", seq), ("-", seq.reverse_complement())):
        for frame in range(3):
            usable = (len(nuc) - frame) // 3 * 3
            protein = str(nuc[frame:frame + usable].translate(table=table))
            pos = 0
            for chunk in protein.split("*"):
                met = chunk.find("M")
                if met >= 0 and len(chunk) - met >= min_aa:
                    found.append((strand, frame, pos + met, chunk[met:]))
                pos += len(chunk) + 1
    return found


def main(scn):
    rng = random.Random(int(scn["seed"]))
    gc = float(scn["gc_content"])
    weights = [(1 - gc) / 2, gc / 2, gc / 2, (1 - gc) / 2]
    table, min_aa = int(scn["table"]), int(scn["min_protein_length"])
    records, lengths = [], []
    for i in range(int(scn["n_contigs"])):
        seq = Seq("".join(rng.choices("ACGT", weights=weights, k=int(scn["contig_length"]))))
        for strand, frame, start, protein in orfs(seq, table, min_aa):
            rid = f"contig{i}_{strand}{frame}_{start}"
            desc = f"strand={strand} frame={frame} aa_start={start} length={len(protein)}"
            records.append(SeqRecord(Seq(protein), id=rid, description=desc))
            lengths.append(len(protein))
    write(records, os.path.join(os.environ["SWR_ARTIFACTS"], "orfs.faa"), "fasta")
    return {
        "proteins": "orfs.faa",
        "n_orfs": len(records),
        "longest_aa": max(lengths, default=0),
        "total_aa": sum(lengths),
    }
