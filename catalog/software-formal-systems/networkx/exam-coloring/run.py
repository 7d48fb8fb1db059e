"""Exam timetabling as graph colouring with networkx: greedy_color strategies, maximal cliques (find_cliques),
maximum-weight clique (max_weight_clique) and clique-based lower bounds."""

import json
import random
import sys
from collections import Counter

import networkx as nx


def compute(scn):
    n = int(scn["n_exams"])
    seed = int(scn["seed"])
    g = nx.gnp_random_graph(n, float(scn["conflict_prob"]), seed=seed)
    rng = random.Random(seed + 1)
    for v in range(n):
        g.nodes[v]["students"] = rng.randint(1, int(scn["max_students"]))
    colors = nx.greedy_color(g, strategy=str(scn["strategy"]))
    slots = Counter(colors.values())
    load = Counter()
    for v, c in colors.items():
        load[c] += g.nodes[v]["students"]
    cliques = list(nx.find_cliques(g))
    omega = max(len(c) for c in cliques)
    _, weight = nx.max_weight_clique(g, weight="students")
    return {
        "n_conflicts": g.number_of_edges(),
        "n_slots": len(slots),
        "slot_sizes": sorted(slots.values(), reverse=True),
        "max_slot_students": max(load.values()),
        "exams_in_slot0": sorted(v for v, c in colors.items() if c == 0),
        "clique_number": omega,
        "n_maximal_cliques": len(cliques),
        "n_maximum_cliques": sum(len(c) == omega for c in cliques),
        "max_weight_clique_students": int(weight),
        "max_degree": max((d for _, d in g.degree()), default=0),
    }


if __name__ == "__main__":
    json.dump(compute(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
