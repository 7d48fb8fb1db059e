"""Reviewer-paper assignment on a seeded random bipartite graph with networkx.algorithms.bipartite: Hopcroft-Karp
matching, Konig vertex cover, weighted/Newman/Jaccard projections and bipartite clustering coefficients."""

import json
import sys

from networkx.algorithms import bipartite


def compute(scn):
    nr, npap = int(scn["n_reviewers"]), int(scn["n_papers"])
    g = bipartite.random_graph(nr, npap, float(scn["edge_prob"]), seed=int(scn["seed"]))
    reviewers = set(range(nr))
    papers = set(range(nr, nr + npap))
    matching = bipartite.hopcroft_karp_matching(g, reviewers)
    size = len(matching) // 2
    cover = bipartite.to_vertex_cover(g, matching, reviewers)
    side = papers if scn["project_onto"] == "papers" else reviewers
    shared = bipartite.weighted_projected_graph(g, side)
    newman = bipartite.collaboration_weighted_projected_graph(g, side)
    jaccard = bipartite.overlap_weighted_projected_graph(g, side, jaccard=True)
    return {
        "n_edges": g.number_of_edges(),
        "density": float(bipartite.density(g, reviewers)),
        "matching_size": size,
        "unassigned_papers": npap - size,
        "cover_reviewers": len(cover & reviewers),
        "cover_papers": len(cover & papers),
        "projection": {
            "n_edges": shared.number_of_edges(),
            "max_shared": max((d["weight"] for _, _, d in shared.edges(data=True)), default=0),
            "newman_total": float(sum(d["weight"] for _, _, d in newman.edges(data=True))),
            "max_jaccard": float(max((d["weight"] for _, _, d in jaccard.edges(data=True)), default=0.0)),
        },
        "average_clustering": float(bipartite.average_clustering(g, mode=str(scn["clustering_mode"]))),
        "robins_alexander_clustering": float(bipartite.robins_alexander_clustering(g)),
    }


if __name__ == "__main__":
    json.dump(compute(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
