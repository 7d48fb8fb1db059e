"""A simulated protein family scored with biotite: optimal pairwise alignments (substitution matrix), UPGMA tree."""

import json
import random
import sys

import biotite.sequence as seq
import biotite.sequence.align as align
import biotite.sequence.phylo as phylo
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


def family(seed: int, length: int, n: int, sub: float, indel: float) -> list[str]:
    """Sequence 0 is the random ancestor; each later one mutates a uniformly chosen earlier one."""
    rng = random.Random(seed)
    seqs = ["".join(rng.choices(AMINO_ACIDS, k=length))]
    for k in range(1, n):
        seqs.append(mutate(seqs[rng.randrange(k)], rng, sub, indel))
    return seqs


def clusters(tree: phylo.Tree) -> list[dict]:
    """Internal nodes of the UPGMA tree: their leaves and height above the leaves, ordered by size then leaves."""
    out, stack = [], [tree.root]
    while stack:
        node = stack.pop()
        if node.is_leaf():
            continue
        height, below = 0.0, node
        while not below.is_leaf():
            below = below.children[0]
            height += float(below.distance)
        out.append({"leaves": sorted(int(i) for i in node.get_indices()), "height": height})
        stack.extend(node.children)
    return sorted(out, key=lambda c: (len(c["leaves"]), c["leaves"]))


def main(scn: dict) -> dict:
    """One scenario in, the family's alignment scores and guide tree out."""
    seqs = family(int(scn["seed"]), int(scn["length"]), int(scn["n_sequences"]), float(scn["substitution_rate"]),
                  float(scn["indel_rate"]))
    alphabet = seq.ProteinSequence.alphabet
    matrix = align.SubstitutionMatrix(alphabet, alphabet, str(scn["matrix"]))
    mode = str(scn["mode"])
    gaps = (int(scn["gap_open"]), int(scn["gap_extend"]))
    prot = [seq.ProteinSequence(s) for s in seqs]
    n = len(prot)
    scores = [[0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            best = align.align_optimal(prot[i], prot[j], matrix, gap_penalty=gaps, terminal_penalty=mode == "global",
                                       local=mode == "local", max_number=1)[0]
            scores[i][j] = scores[j][i] = int(best.score)
    dist = [[1.0 - scores[i][j] / min(scores[i][i], scores[j][j]) for j in range(n)] for i in range(n)]
    inner = clusters(phylo.upgma(np.array(dist)))
    return {
        "sequences": seqs,
        "scores": scores,
        "distances": [dist[i][j] for i in range(n) for j in range(i + 1, n)],
        "upgma_clusters": inner[:-1],
        "upgma_root_height": inner[-1]["height"],
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
