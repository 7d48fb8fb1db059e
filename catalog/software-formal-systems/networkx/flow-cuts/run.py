"""Directed capacitated random graph: max flow / min cut, strong components, dominators, PageRank (networkx)."""

import random

import networkx as nx


def build(n, m, seed, cap_low, cap_span):
    g = nx.gnm_random_graph(n, m, seed=seed, directed=True)
    for i in range(n - 1):  # backbone path 0 -> 1 -> ... -> n-1 keeps the sink reachable
        g.add_edge(i, i + 1)
    rng = random.Random(seed + 1)
    for u, v in sorted(g.edges()):
        g[u][v]["capacity"] = cap_low + cap_span * rng.random()
    return g


def main(scn):
    n = int(scn["n_nodes"])
    m = int(round(float(scn["mean_out_degree"]) * n))
    m = min(m, n * (n - 1))
    seed = int(scn["seed"])
    alpha = float(scn["pagerank_alpha"])
    g = build(n, m, seed, float(scn["capacity_low"]), float(scn["capacity_span"]))
    s, t = 0, n - 1

    flow_value, flow = nx.maximum_flow(g, s, t, capacity="capacity",
                                       flow_func=nx.algorithms.flow.preflow_push)
    cut_value, (side_s, _side_t) = nx.minimum_cut(g, s, t, capacity="capacity",
                                                 flow_func=nx.algorithms.flow.edmonds_karp)
    side_s = set(side_s)
    cut_edges = sorted([u, v] for u, v in g.edges() if u in side_s and v not in side_s)
    saturated = sum(1 for u, v, d in g.edges(data=True) if flow[u][v] >= d["capacity"] - 1e-9)

    sccs = sorted((sorted(c) for c in nx.strongly_connected_components(g)), key=lambda c: (-len(c), c[0]))
    cond = nx.condensation(g)
    # networkx < 3.5 maps the start node to itself, later versions omit it: drop it either way.
    idom = {v: u for v, u in nx.immediate_dominators(g, s).items() if v != s}
    dom_depth = {}
    for v in sorted(idom):
        d, x = 0, v
        while x != s:
            x = idom[x]
            d += 1
        dom_depth[v] = d
    dominated_by_source_only = sum(1 for v in idom if idom[v] == s)
    chain, x = [], t
    while x != s:  # dominators of the sink: walk the dominator tree from t up to s
        x = idom[x]
        chain.append(x)

    pr = nx.pagerank(g, alpha=alpha, weight="capacity", tol=1e-12, max_iter=10000)
    ranked = sorted(pr, key=lambda v: (-pr[v], v))

    return {
        "n_edges": int(g.number_of_edges()),
        "max_flow": float(flow_value),
        "min_cut_value": float(cut_value),
        "source_side_size": int(len(side_s)),
        "cut_edges": cut_edges,
        "saturated_edges": int(saturated),
        "n_strong_components": int(len(sccs)),
        "largest_strong_component": int(len(sccs[0])),
        "condensation_longest_path": int(nx.dag_longest_path_length(cond)),
        "dominator_tree_depth": int(max(dom_depth.values())),
        "immediately_dominated_by_source": int(dominated_by_source_only),
        "sink_dominators": sorted(chain),
        "pagerank_top": [int(v) for v in ranked[:3]],
        "pagerank_max": float(pr[ranked[0]]),
        "pagerank_source": float(pr[s]),
        "pagerank_sink": float(pr[t]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
