"""Seeded G(n, p) random graph with random edge weights: structural and flow metrics via networkx."""

import json
import random
import sys

import networkx as nx


def build_graph(n, p, seed, w_low, w_span):
    g = nx.gnp_random_graph(n, p, seed=seed)
    rng = random.Random(seed + 1)
    for u, v in sorted(g.edges()):
        g[u][v]["weight"] = w_low + w_span * rng.random()
    return g


def compute(scn):
    n = int(scn["n_nodes"])
    p = float(scn["edge_prob"])
    seed = int(scn["seed"])
    w_low = float(scn["weight_low"])
    w_span = float(scn["weight_span"])
    cap_mode = str(scn["capacity_mode"])

    g = build_graph(n, p, seed, w_low, w_span)
    src, dst = 0, n - 1
    m = g.number_of_edges()
    expected = p * n * (n - 1) / 2.0

    comps = sorted((sorted(c) for c in nx.connected_components(g)), key=lambda c: (-len(c), c[0]))
    largest = g.subgraph(comps[0])

    if nx.has_path(g, src, dst):
        path_length = float(nx.dijkstra_path_length(g, src, dst, weight="weight"))
        hops = int(nx.shortest_path_length(g, src, dst))
        path_exists = True
    else:
        path_length, hops, path_exists = -1.0, -1, False

    # Distances from the source to every node it can reach (weighted).
    dist = nx.single_source_dijkstra_path_length(g, src, weight="weight")
    reach = [dist[k] for k in sorted(dist) if k != src]

    cap = "weight" if cap_mode == "weight" else "unit_cap"
    if cap_mode == "unit":
        nx.set_edge_attributes(g, 1.0, "unit_cap")
    flow = float(nx.maximum_flow_value(g, src, dst, capacity=cap)) if path_exists else 0.0

    mst_w = float(sum(d["weight"] for _, _, d in nx.minimum_spanning_edges(g, weight="weight", data=True)))
    bet = nx.betweenness_centrality(g, normalized=True)
    clo = nx.closeness_centrality(g, distance="weight")
    core = nx.core_number(g)
    tri = nx.triangles(g)

    return {
        "n_edges": int(m),
        "density": float(nx.density(g)),
        "edges_vs_expected": float(m / expected),
        "degree_histogram": [int(c) for c in nx.degree_histogram(g)],
        "n_components": len(comps),
        "largest_component_size": len(comps[0]),
        "largest_component_diameter": int(nx.diameter(largest)) if largest.number_of_nodes() > 1 else 0,
        "n_triangles": int(sum(tri.values()) // 3),
        "average_clustering": float(nx.average_clustering(g)),
        "transitivity": float(nx.transitivity(g)),
        "degeneracy": int(max(core.values())),
        "path_exists": path_exists,
        "path_length": path_length,
        "path_hops": hops,
        "reachable_from_source": len(reach),
        "mean_distance_from_source": float(sum(reach) / len(reach)) if reach else 0.0,
        "max_flow": flow,
        "mst_weight": mst_w,
        "max_betweenness": float(max(bet.values())),
        "max_closeness": float(max(clo.values())),
    }


if __name__ == "__main__":
    scenario = json.load(sys.stdin)
    json.dump(compute(scenario), sys.stdout)
    sys.stdout.write("\n")
