"""Route a pipe-inspection robot through every segment of a damaged grid network (route inspection, the Chinese
postman problem) with networkx: nx.eulerize duplicates edges between odd-degree junctions (via a maximum-weight
matching), nx.eulerian_circuit walks the result; Euler-path and bridge checks describe the network.

Entry workflow: warm workers import this module once; main() builds a new graph per call.
"""

import random

import networkx as nx


def network(scenario: dict) -> nx.Graph:
    rows, cols = int(scenario["rows"]), int(scenario["cols"])
    rng = random.Random(int(scenario["seed"]))
    g = nx.grid_2d_graph(rows, cols)
    if scenario["diagonals"]:
        g.add_edges_from(((r, c), (r + 1, c + 1)) for r in range(rows - 1) for c in range(cols - 1))
    for u, v in sorted(g.edges()):
        if rng.random() < float(scenario["removal_fraction"]):
            g.remove_edge(u, v)
    h = g.subgraph(max(nx.connected_components(g), key=lambda c: (len(c), min(c)))).copy()
    for u, v in sorted(h.edges()):
        h.edges[u, v]["length"] = 1.0 if scenario["lengths"] == "unit" else round(rng.uniform(1.0, 5.0), 3)
    return h


def main(scenario: dict) -> dict:
    g = network(scenario)
    odd = sorted(n for n, d in g.degree() if d % 2)
    euler = nx.eulerize(g) if g.number_of_edges() else nx.MultiGraph(g)
    start = min(g.nodes) if scenario["start"] == "first" else max(g.nodes)
    circuit = list(nx.eulerian_circuit(euler, source=start)) if euler.number_of_edges() else []
    walk = sum(g.edges[u, v]["length"] for u, v in circuit)
    base = g.size(weight="length")
    return {
        "junctions": g.number_of_nodes(),
        "segments": g.number_of_edges(),
        "odd_junctions": len(odd),
        "has_euler_path": bool(nx.has_eulerian_path(g)),
        "bridges": len(list(nx.bridges(g))),
        "duplicated_segments": euler.number_of_edges() - g.number_of_edges(),
        "network_length": base,
        "route_length": walk,
        "route_overhead": walk / base if base else 0.0,
        "route_start": list(start),
        "route_first_steps": [list(v) for _, v in circuit[:8]],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
