"""Shortest paths with negative arc weights (no negative cycle: reduced costs of a potential) with networkx:
Bellman-Ford, Goldberg-Radzik, Johnson all-pairs and Floyd-Warshall."""

import json
import math
import random
import sys

import networkx as nx


def build(n, p, seed, low, span, scale):
    g = nx.fast_gnp_random_graph(n, p, seed=seed, directed=True)
    g.add_edges_from((i, i + 1) for i in range(n - 1))  # backbone: every node reachable from 0
    rng = random.Random(seed + 1)
    cost = {e: low + span * rng.random() for e in sorted(g.edges())}
    phi = [scale * rng.random() for _ in range(n)]
    for (u, v), c in cost.items():
        g[u][v]["weight"] = c + phi[u] - phi[v]
    return g


def compute(scn):
    n = int(scn["n_nodes"])
    g = build(
        n,
        float(scn["edge_prob"]),
        int(scn["seed"]),
        float(scn["cost_low"]),
        float(scn["cost_span"]),
        float(scn["potential_scale"]),
    )
    if nx.negative_edge_cycle(g, weight="weight"):  # impossible by construction (reduced costs)
        raise SystemExit("negative cycle")
    pred, dist = nx.bellman_ford_predecessor_and_distance(g, 0, weight="weight")
    path = nx.bellman_ford_path(g, 0, n - 1, weight="weight")
    _, dist_back = nx.goldberg_radzik(g, n - 1, weight="weight")
    allp = nx.johnson(g, weight="weight")
    fw = nx.floyd_warshall(g, weight="weight")
    finite = [d for u in fw for v, d in fw[u].items() if u != v and math.isfinite(d)]
    johnson_hops = [len(allp[u][v]) - 1 for u in allp for v in allp[u] if u != v]
    return {
        "n_arcs": g.number_of_edges(),
        "n_negative_arcs": sum(1 for _, _, w in g.edges(data="weight") if w < 0),
        "dist_from_0": [float(dist[v]) for v in range(n)],
        "path_0_to_last": [int(v) for v in path],
        "n_predecessor_tree_leaves": sum(1 for v in range(n) if not any(v in pred[w] for w in pred)),
        "reachable_from_last": len(dist_back),
        "mean_dist_from_last": float(sum(dist_back.values()) / len(dist_back)),
        "n_reachable_pairs": len(finite),
        "n_negative_pairs": sum(1 for d in finite if d < 0),
        "min_pair_distance": float(min(finite)),
        "max_pair_distance": float(max(finite)),
        "mean_hops": float(sum(johnson_hops) / len(johnson_hops)),
    }


if __name__ == "__main__":
    json.dump(compute(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
