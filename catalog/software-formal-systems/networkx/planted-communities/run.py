"""Community detection on a seeded planted-partition graph with networkx.community: Louvain, Clauset-Newman-Moore
greedy modularity and semi-synchronous label propagation, scored by modularity, partition quality and Rand index."""

import json
import sys
from itertools import combinations

import networkx as nx
from networkx.algorithms import community


def rand_index(found, truth, nodes):
    """Share of node pairs on which the two partitions agree (same block in both, or different in both)."""
    a = {v: i for i, c in enumerate(found) for v in c}
    b = {v: i for i, c in enumerate(truth) for v in c}
    pairs = list(combinations(nodes, 2))
    return sum((a[u] == a[v]) == (b[u] == b[v]) for u, v in pairs) / len(pairs)


def summary(g, parts, truth, res):
    parts = sorted((sorted(c) for c in parts), key=lambda c: (-len(c), c[0]))
    cov, perf = community.partition_quality(g, parts)
    return {
        "n_communities": len(parts),
        "sizes": [len(c) for c in parts],
        "modularity": float(community.modularity(g, parts, resolution=res)),
        "coverage": float(cov),
        "performance": float(perf),
        "rand_index": float(rand_index(parts, truth, sorted(g))),
    }


def compute(scn):
    k, s = int(scn["n_communities"]), int(scn["community_size"])
    sizes = [s + 5 * (i % 3) for i in range(k)]
    seed = int(scn["seed"])
    res = float(scn["resolution"])
    g = nx.random_partition_graph(sizes, float(scn["p_in"]), float(scn["p_out"]), seed=seed)
    truth = [set(c) for c in g.graph["partition"]]
    g = nx.Graph(g)
    return {
        "n_nodes": g.number_of_nodes(),
        "n_edges": g.number_of_edges(),
        "planted_modularity": float(community.modularity(g, truth, resolution=res)),
        "louvain": summary(g, community.louvain_communities(g, resolution=res, seed=seed), truth, res),
        "greedy_modularity": summary(g, community.greedy_modularity_communities(g, resolution=res), truth, res),
        "label_propagation": summary(g, community.label_propagation_communities(g), truth, res),
    }


if __name__ == "__main__":
    json.dump(compute(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
