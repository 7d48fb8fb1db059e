"""Distance tree of a simulated DNA alignment with Bio.Phylo.TreeConstruction (DistanceCalculator, NJ or UPGMA),
midpoint rooting, and the alignment trimmed of gappy columns and written in the tree's leaf order with Bio.AlignIO."""

import os
import random

from Bio import AlignIO
from Bio.Align import MultipleSeqAlignment
from Bio.Phylo.TreeConstruction import DistanceCalculator, DistanceTreeConstructor
from Bio.Seq import Seq
from Bio.SeqRecord import SeqRecord

OTHER = {b: [x for x in "ACGT" if x != b] for b in "ACGT"}


def evolve(scn: dict) -> list[str]:
    """Sequence 0 random; sequence k copies a uniformly chosen earlier one, substituting and gapping per column."""
    rng = random.Random(int(scn["seed"]))
    seqs = ["".join(rng.choices("ACGT", k=int(scn["length"])))]
    sub, gap = float(scn["substitution_rate"]), float(scn["gap_rate"])
    for k in range(1, int(scn["n_taxa"])):
        parent, out = seqs[rng.randrange(k)], []
        for ch in parent:
            r = rng.random()
            if ch == "-" or r < gap:
                out.append("-")
            elif r < gap + sub:
                out.append(rng.choice(OTHER[ch]))
            else:
                out.append(ch)
        seqs.append("".join(out))
    return seqs


def main(scn: dict) -> dict:
    seqs = evolve(scn)
    msa = MultipleSeqAlignment([SeqRecord(Seq(s), id=f"taxon{k}", description="") for k, s in enumerate(seqs)])
    dm = DistanceCalculator(str(scn["model"])).get_distance(msa)
    tree = DistanceTreeConstructor().nj(dm) if scn["method"] == "nj" else DistanceTreeConstructor().upgma(dm)
    if scn["method"] == "nj":
        tree.root_at_midpoint()
    order = [t.name for t in tree.get_terminals()]
    clades = []
    for clade in tree.get_nonterminals():
        if clade is not tree.root:
            clades.append({"taxa": sorted((t.name for t in clade.get_terminals()), key=lambda n: int(n[5:])),
                           "branch_length": float(clade.branch_length or 0.0)})
    clades.sort(key=lambda c: (len(c["taxa"]), [int(n[5:]) for n in c["taxa"]]))
    max_gap = float(scn["max_gap_fraction"])
    n = len(seqs)
    keep = [c for c in range(msa.get_alignment_length()) if msa[:, c].count("-") <= max_gap * n]
    by_name = {r.id: r for r in msa}
    trimmed = MultipleSeqAlignment([SeqRecord(Seq("".join(str(by_name[name].seq)[c] for c in keep)), id=name,
                                              description="") for name in order])
    AlignIO.write(trimmed, os.path.join(os.environ["SWR_ARTIFACTS"], "trimmed.fasta"), "fasta")
    return {
        "trimmed_alignment": "trimmed.fasta",
        "kept_columns": len(keep),
        "leaf_order": order,
        "distances": [[float(dm[i, j]) for j in range(i)] for i in range(n)],
        "total_branch_length": float(tree.total_branch_length()),
        "clades": clades,
    }
