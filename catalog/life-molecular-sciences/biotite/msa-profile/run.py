"""Progressive multiple alignment of a simulated protein family with biotite (align_multiple), written as gapped
FASTA, and its sequence profile (SequenceProfile): consensus, column conservation, per-sequence profile scores."""

import math
import os
import random

import biotite.sequence as seq
import biotite.sequence.align as align
import biotite.sequence.io.fasta as fasta
import numpy as np

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"


def mutate(parent: str, rng: random.Random, sub: float, indel: float) -> str:
    """Per position: delete (indel/2), keep and insert a residue after it (indel/2), substitute (sub), else keep."""
    out = []
    for aa in parent:
        r = rng.random()
        if r < indel / 2:
            continue
        if r < indel:
            out += [aa, rng.choice(AMINO_ACIDS)]
        elif r < indel + sub:
            out.append(rng.choice(AMINO_ACIDS))
        else:
            out.append(aa)
    return "".join(out)


def main(scn: dict) -> dict:
    rng = random.Random(int(scn["seed"]))
    ancestor = "".join(rng.choices(AMINO_ACIDS, k=int(scn["length"])))
    sub, indel = float(scn["substitution_rate"]), float(scn["indel_rate"])
    seqs = [mutate(ancestor, rng, sub, indel) for _ in range(int(scn["n_sequences"]))]
    prot = [seq.ProteinSequence(s) for s in seqs]
    matrix = align.SubstitutionMatrix(seq.ProteinSequence.alphabet, seq.ProteinSequence.alphabet, str(scn["matrix"]))
    ali, order, _, _ = align.align_multiple(prot, matrix, gap_penalty=(int(scn["gap_open"]), int(scn["gap_extend"])),
                                            terminal_penalty=bool(scn["terminal_penalty"]))
    out = fasta.FastaFile()
    fasta.set_alignment(out, ali, [f"seq{i}" for i in range(len(seqs))])
    out.write(os.path.join(os.environ["SWR_ARTIFACTS"], "msa.fasta"))

    profile = seq.SequenceProfile.from_alignment(ali)
    pc = float(scn["pseudocount"])
    probs = profile.probability_matrix(pseudocount=pc)
    log_odds = profile.log_odds_matrix(pseudocount=pc)
    entropy = [float(-sum(p * math.log2(p) for p in row if p > 0)) for row in probs]
    scores = []
    for i, gapped in enumerate(ali.get_gapped_sequences()):
        cols = [c for c, ch in enumerate(gapped) if ch != "-"]
        codes = seq.ProteinSequence(gapped.replace("-", "")).code
        scores.append(float(np.sum(log_odds[cols, codes])))
    return {
        "msa": "msa.fasta",
        "alignment_length": len(ali),
        "guide_tree_order": [int(i) for i in order],
        "gaps_per_sequence": [g.count("-") for g in ali.get_gapped_sequences()],
        "consensus": str(profile.to_consensus()),
        "column_entropy_bits": entropy,
        "profile_scores": scores,
        "identity_to_first": [float(v) for v in align.get_pairwise_sequence_identity(ali, mode="not_terminal")[0]],
    }
