"""Alignment-free phylogeny with biotite: k-mer sets of DNA sequences (KmerAlphabet.create_kmers, optionally
canonical), Jaccard or Mash distances, a neighbour-joining tree (biotite.sequence.phylo.neighbor_joining), its
Newick topology and patristic distances."""

import math
import random

import biotite.sequence as seq
import biotite.sequence.align as align
import biotite.sequence.phylo as phylo
import numpy as np

OTHER = {b: [x for x in "ACGT" if x != b] for b in "ACGT"}


def evolve(scn: dict) -> list[str]:
    rng = random.Random(int(scn["seed"]))
    seqs = ["".join(rng.choices("ACGT", k=int(scn["length"])))]
    rate = float(scn["substitution_rate"])
    for k in range(1, int(scn["n_taxa"])):
        parent = seqs[rng.randrange(k)]
        seqs.append("".join(rng.choice(OTHER[b]) if rng.random() < rate else b for b in parent))
    return seqs


def kmer_set(text: str, kmers: align.KmerAlphabet, canonical: bool) -> set[int]:
    nuc = seq.NucleotideSequence(text)
    fwd = kmers.create_kmers(nuc.code)
    if not canonical:
        return {int(c) for c in fwd}
    rev = kmers.create_kmers(nuc.reverse().complement().code)[::-1]
    return {int(c) for c in np.minimum(fwd, rev)}


def main(scn: dict) -> dict:
    seqs = evolve(scn)
    k = int(scn["k"])
    kmers = align.KmerAlphabet(seq.NucleotideSequence.unambiguous_alphabet(), k)
    sets = [kmer_set(s, kmers, bool(scn["canonical"])) for s in seqs]
    n = len(seqs)
    dist = np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            jac = len(sets[i] & sets[j]) / len(sets[i] | sets[j])
            if scn["distance"] == "jaccard":
                d = 1.0 - jac
            else:
                d = 1.0 if jac == 0 else -math.log(2 * jac / (1 + jac)) / k
            dist[i, j] = dist[j, i] = d
    tree = phylo.neighbor_joining(dist)
    labels = [f"t{i}" for i in range(n)]
    return {
        "kmer_counts": [len(s) for s in sets],
        "distances": [float(dist[i, j]) for i in range(n) for j in range(i + 1, n)],
        "newick_topology": tree.to_newick(labels=labels, include_distance=False),
        "patristic": [float(tree.get_distance(i, j)) for i in range(n) for j in range(i + 1, n)],
        "topological": [int(tree.get_distance(i, j, topological=True)) for i in range(n) for j in range(i + 1, n)],
    }
