"""Codon usage with Biopython's CodonAdaptationIndex: relative adaptiveness from highly expressed reference genes
(Sharp & Li), the CAI of test genes, and their codon-optimized versions (CodonAdaptationIndex.optimize) as FASTA."""

import os
import random

from Bio.Data import CodonTable
from Bio.SeqIO import write
from Bio.SeqRecord import SeqRecord
from Bio.SeqUtils import CodonAdaptationIndex

TABLE = CodonTable.unambiguous_dna_by_id[1]
AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
SYNONYMS = {aa: [c for c, a in TABLE.forward_table.items() if a == aa] for aa in AMINO_ACIDS}


def gene(rng: random.Random, weights: dict, biased: float) -> str:
    """ATG, then codons each biased (probability `biased`) or uniform among synonyms, then TAA."""
    codons = ["ATG"]
    for _ in range(rng.randint(100, 300)):
        aa = rng.choice(AMINO_ACIDS)
        syn = SYNONYMS[aa]
        if rng.random() < biased:
            codons.append(rng.choices(syn, weights=[weights[c] for c in syn])[0])
        else:
            codons.append(rng.choice(syn))
    return "".join(codons) + "TAA"


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    weights = {c: rng.random() ** float(scn["bias_exponent"]) for c in TABLE.forward_table}
    reference = [gene(rng, weights, 1.0) for _ in range(int(scn["n_reference"]))]
    levels = [rng.random() for _ in range(int(scn["n_test"]))]
    tests = [gene(rng, weights, e) for e in levels]
    index = CodonAdaptationIndex(reference)
    optimized = [index.optimize(t, seq_type="DNA", strict=False) for t in tests]
    records = [SeqRecord(o, id=f"gene{k}_opt", description="") for k, o in enumerate(optimized)]
    write(records, os.path.join(os.environ["SWR_ARTIFACTS"], "optimized.fasta"), "fasta")
    return {
        "optimized_genes": "optimized.fasta",
        "relative_adaptiveness": {c: float(v) for c, v in index.items()},
        "bias_levels": levels,
        "cai": [float(index.calculate(t)) for t in tests],
        "n_changed_codons": [sum(t[i:i + 3] != str(o[i:i + 3]) for i in range(0, len(t), 3))
                             for t, o in zip(tests, optimized)],
    }
