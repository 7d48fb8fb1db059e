"""Count network motifs of a gene-regulatory network with networkx's VF2 matcher: isomorphism.DiGraphMatcher
subgraph isomorphisms (induced) or monomorphisms (not induced) of a small motif, unique node sets, the
participation of each gene, and the triadic census for comparison.

Entry workflow: warm workers import this module once; main() builds a new graph per call.
"""

from collections import Counter

import networkx as nx
from networkx.algorithms import isomorphism

MOTIFS = {
    "feed_forward": [(0, 1), (1, 2), (0, 2)],
    "cycle3": [(0, 1), (1, 2), (2, 0)],
    "bifan": [(0, 2), (0, 3), (1, 2), (1, 3)],
    "chain3": [(0, 1), (1, 2)],
}


def main(scenario: dict) -> dict:
    n, p, seed = int(scenario["n_genes"]), float(scenario["edge_probability"]), int(scenario["seed"])
    g = nx.gnp_random_graph(n, p, seed=seed, directed=True)
    k = int(scenario["min_degree"])
    g = g.subgraph([v for v, d in g.degree() if d >= k]).copy()
    motif = nx.DiGraph(MOTIFS[scenario["motif"]])
    gm = isomorphism.DiGraphMatcher(g, motif)
    maps = gm.subgraph_isomorphisms_iter() if scenario["induced"] else gm.subgraph_monomorphisms_iter()
    sets, mappings, roles = set(), 0, Counter()
    for m in maps:
        mappings += 1
        key = frozenset(m)
        if key not in sets:
            sets.add(key)
            roles.update(m)
    top = sorted(roles.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    auto = sum(1 for _ in isomorphism.DiGraphMatcher(motif, motif).isomorphisms_iter())
    census = nx.triadic_census(g)
    return {
        "edges": g.number_of_edges(),
        "occurrences": len(sets),
        "mappings": mappings,
        "automorphisms": auto,
        "top_genes": [[int(k), int(v)] for k, v in top],
        "triad_030T": int(census["030T"]),
        "triad_030C": int(census["030C"]),
        "triad_021C": int(census["021C"]),
        "reciprocity": float(nx.reciprocity(g)) if g.number_of_edges() else 0.0,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
