"""Probe: what the compiled kd-tree answers on fixed point clouds, as one JSON object (recorded from the original
natively; a ported build must print the same). It leans on the compiled paths: tree construction in float32 and
float64, k-nearest queries with several leaf sizes, approximate (eps) and bounded (distance_upper_bound) searches,
a query set larger than the tree, and the errors the wrapper raises."""
import json

import numpy as np

from pykdtree.kdtree import KDTree

rs = np.random.RandomState(20180622)  # RandomState's stream is fixed across numpy releases
data = rs.uniform(-100.0, 100.0, size=(2000, 3))
query = rs.uniform(-100.0, 100.0, size=(300, 3))
out = {}
for dtype in ("float64", "float32"):
    d, q = data.astype(dtype), query.astype(dtype)
    for leafsize in (1, 16, 64):
        tree = KDTree(d, leafsize=leafsize)
        dist, idx = tree.query(q, k=4)
        out["%s_leaf%d" % (dtype, leafsize)] = {
            "idx": idx[:40].tolist(),
            "dist": [float(x) for x in dist[:40].ravel()],
            "dist_sum": float(np.sum(dist.astype("float64"))),
            "idx_sum": int(np.sum(idx.astype("int64"))),
        }
    tree = KDTree(d)
    dist, idx = tree.query(q, k=3, eps=0.5)
    out[dtype + "_eps"] = {"idx_sum": int(np.sum(idx.astype("int64"))), "dist_sum": float(np.sum(dist.astype("float64")))}
    dist, idx = tree.query(q, k=6, distance_upper_bound=9.0)
    missing = idx >= len(d)
    out[dtype + "_bounded"] = {
        "missing": int(missing.sum()),
        "found_idx_sum": int(idx[~missing].astype("int64").sum()),
        "found_dist_sum": float(dist[~missing].astype("float64").sum()),
    }
line = KDTree(np.arange(50, dtype="float64").reshape(50, 1))
dist, idx = line.query(np.array([[10.4], [-3.0], [49.5]]), k=2)
out["line"] = {"idx": idx.tolist(), "dist": dist.tolist()}
errors = []
for bad in (lambda: KDTree(data).query(query.astype("float32")), lambda: KDTree(data).query(query[:, :2])):
    try:
        bad()
        errors.append(None)
    except (TypeError, ValueError) as e:
        errors.append(type(e).__name__)
out["errors"] = errors
print(json.dumps(out, sort_keys=True))
