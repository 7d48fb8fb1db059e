"""Project scheduling on a seeded random task DAG with networkx: topological generations, lexicographic topological
order, transitive reduction, critical path (dag_longest_path) and slack, ancestors/descendants."""

import json
import random
import sys

import networkx as nx


def build(n, p, seed, low, span):
    raw = nx.gnp_random_graph(n, p, seed=seed, directed=True)
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from((u, v) for u, v in raw.edges() if u < v)
    rng = random.Random(seed + 1)
    dur = {v: low + span * rng.random() for v in range(n)}
    return g, dur


def compute(scn):
    n = int(scn["n_tasks"])
    seed = int(scn["seed"])
    g, dur = build(n, float(scn["edge_prob"]), seed, float(scn["duration_low"]), float(scn["duration_span"]))
    # Critical path: a start and an end node, arc weight = duration of the task the arc leaves (0 from start).
    h = nx.DiGraph()
    h.add_edges_from((u, v, {"w": dur[u]}) for u, v in g.edges())
    h.add_edges_from(("start", v, {"w": 0.0}) for v in g if g.in_degree(v) == 0)
    h.add_edges_from((v, "end", {"w": dur[v]}) for v in g if g.out_degree(v) == 0)
    path = nx.dag_longest_path(h, weight="w")
    makespan = float(nx.path_weight(h, path, weight="w"))

    order = list(nx.topological_sort(g))
    early = {}
    for v in order:
        early[v] = max((early[u] + dur[u] for u in g.predecessors(v)), default=0.0)
    late = {}
    for v in reversed(order):
        late[v] = min((late[w] for w in g.successors(v)), default=makespan) - dur[v]
    critical = [v for v in range(n) if late[v] - early[v] <= 1e-9 * makespan]
    gens = [sorted(s) for s in nx.topological_generations(g)]
    first = path[1]
    last = path[-2]
    return {
        "n_edges": g.number_of_edges(),
        "n_edges_transitive_reduction": nx.transitive_reduction(g).number_of_edges(),
        "n_generations": len(gens),
        "widest_generation": max(len(s) for s in gens),
        "priority_order_head": list(nx.lexicographical_topological_sort(g, key=lambda v: -dur[v]))[:15],
        "critical_path": [int(v) for v in path[1:-1]],
        "makespan": makespan,
        "n_zero_slack_tasks": len(critical),
        "total_slack": float(sum(late[v] - early[v] for v in range(n))),
        "descendants_of_first_critical": len(nx.descendants(g, first)),
        "ancestors_of_last_critical": len(nx.ancestors(g, last)),
    }


if __name__ == "__main__":
    json.dump(compute(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
