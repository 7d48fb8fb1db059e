"""Plan a cable backbone joining terminal sites of a radio network: a Steiner tree of a random geometric graph with
networkx's approximation.steiner_tree (Mehlhorn's method), written as GraphML for a network-planning tool.

Entry workflow: warm workers import this module once; main() builds a new graph per call. The GraphML graph is
built in a stated order (nodes by id, edges by sorted endpoint pair, attributes in a fixed order), since a GraphML
reader sees the document order of elements and the key ids networkx assigns follow it.
"""

import math
import os
import random

import networkx as nx
from networkx.algorithms.approximation import steiner_tree


def main(scenario: dict) -> dict:
    seed = int(scenario["seed"])
    g = nx.random_geometric_graph(int(scenario["n_nodes"]), float(scenario["radius"]), seed=seed)
    power = int(scenario["weight_power"])
    for u, v in g.edges:
        (x1, y1), (x2, y2) = g.nodes[u]["pos"], g.nodes[v]["pos"]
        length = math.hypot(x1 - x2, y1 - y2) if scenario["metric"] == "euclidean" else abs(x1 - x2) + abs(y1 - y2)
        g.edges[u, v]["length"] = length
        g.edges[u, v]["weight"] = length**power
    cc = sorted(max(nx.connected_components(g), key=lambda c: (len(c), -min(c))))
    terminals = sorted(random.Random(seed).sample(cc, min(int(scenario["n_terminals"]), len(cc))))
    tree = steiner_tree(g.subgraph(cc), terminals, weight="weight", method="mehlhorn")
    out = nx.Graph()
    for n in sorted(tree.nodes):
        x, y = g.nodes[n]["pos"]
        out.add_node(n, x=float(x), y=float(y), terminal=n in terminals)
    for u, v in sorted(tuple(sorted(e)) for e in tree.edges):
        out.add_edge(u, v, weight=g.edges[u, v]["weight"], length=g.edges[u, v]["length"])
    nx.write_graphml(out, os.path.join(os.environ["SWR_ARTIFACTS"], "backbone.xml"))
    hops = [
        nx.shortest_path_length(out, a, b, weight="length") for i, a in enumerate(terminals) for b in terminals[i + 1 :]
    ]
    return {
        "backbone": "backbone.xml",
        "component_size": len(cc),
        "terminals": terminals,
        "tree_weight": float(out.size(weight="weight")),
        "tree_length": float(out.size(weight="length")),
        "n_tree_nodes": out.number_of_nodes(),
        "steiner_nodes": sorted(set(out.nodes) - set(terminals)),
        "max_terminal_distance": float(max(hops)) if hops else 0.0,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
