"""Vehicle route through must-visit stops of a seeded random geometric road network with networkx.approximation:
traveling_salesman_problem over the shortest-path metric closure with Christofides and greedy tours."""

import json
import math
import random
import sys

import networkx as nx
from networkx.algorithms import approximation as ap


def network(n, radius, seed, scale):
    g = nx.random_geometric_graph(n, radius, seed=seed)
    comp = sorted(nx.connected_components(g), key=lambda c: (-len(c), min(c)))[0]
    g = g.subgraph(comp).copy()
    for u, v in g.edges():
        (x1, y1), (x2, y2) = g.nodes[u]["pos"], g.nodes[v]["pos"]
        g[u][v]["weight"] = scale * math.hypot(x1 - x2, y1 - y2)
    return g


def compute(scn):
    seed = int(scn["seed"])
    g = network(int(scn["n_nodes"]), float(scn["radius"]), seed, float(scn["scale_km"]))
    stops = random.Random(seed + 1).sample(sorted(g), min(int(scn["n_stops"]), g.number_of_nodes()))
    cycle = scn["route_type"] == "closed"
    chris = ap.traveling_salesman_problem(g, nodes=stops, cycle=cycle, method=ap.christofides)
    greedy = ap.traveling_salesman_problem(g, nodes=stops, cycle=cycle, method=ap.greedy_tsp)
    dist = {s: nx.single_source_dijkstra_path_length(g, s, weight="weight") for s in stops}
    closure = nx.Graph()
    closure.add_weighted_edges_from((a, b, dist[a][b]) for i, a in enumerate(stops) for b in stops[i + 1 :])
    return {
        "network_nodes": g.number_of_nodes(),
        "network_edges": g.number_of_edges(),
        "network_length_km": float(g.size(weight="weight")),
        "n_stops": len(stops),
        "christofides_km": float(nx.path_weight(g, chris, weight="weight")),
        "christofides_hops": len(chris) - 1,
        "greedy_km": float(nx.path_weight(g, greedy, weight="weight")),
        "closure_mst_km": float(nx.minimum_spanning_tree(closure).size(weight="weight")),
        "farthest_stop_pair_km": float(max(dist[a][b] for a in stops for b in stops)),
    }


if __name__ == "__main__":
    json.dump(compute(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
