"""Nearest-neighbour search over fixed-size DOUBLE arrays in DuckDB (array_cosine_similarity, array_inner_product,
array_distance), top-k per query with QUALIFY, and a k-nearest-neighbour class vote, as in spectral library
matching."""

import os

import duckdb
import numpy as np

SCORE = {  # metric -> (score expression, order of the best first)
    "cosine": ("array_cosine_similarity(q.vec, i.vec)", "DESC"),
    "inner": ("array_inner_product(q.vec, i.vec)", "DESC"),
    "euclidean": ("array_distance(q.vec, i.vec)", "ASC"),
}

QUERY = """
CREATE TEMP TABLE hits AS
SELECT q.query_id, i.item_id, i.class, {score} AS score,
       row_number() OVER (PARTITION BY q.query_id ORDER BY {score} {order}, i.item_id) AS rank
FROM queries q, items i
QUALIFY rank <= {k};
CREATE TEMP TABLE votes AS
SELECT query_id, class AS predicted
FROM (SELECT query_id, class, count(*) AS n, min(rank) AS best FROM hits GROUP BY query_id, class)
QUALIFY row_number() OVER (PARTITION BY query_id ORDER BY n DESC, {tie}) = 1;
"""


def tables(scn):
    """Items (vectors, classes) and queries (noisy copies of drawn items), drawn in the summary's order."""
    rng = np.random.default_rng(int(scn["seed"]))
    n, d, m = int(scn["n_items"]), int(scn["dim"]), int(scn["n_queries"])
    centres = rng.normal(0.0, 1.0, (int(scn["n_classes"]), d))
    cls = rng.integers(0, len(centres), n)
    vecs = centres[cls] + 0.5 * rng.normal(0.0, 1.0, (n, d))
    src = rng.integers(0, n, m)
    qvecs = vecs[src] + float(scn["noise"]) * rng.normal(0.0, 1.0, (m, d))
    return (cls, vecs), (src, qvecs)


def main(scn):
    (cls, vecs), (src, qvecs) = tables(scn)
    d, k = int(scn["dim"]), int(scn["k"])
    con = duckdb.connect(config={"threads": 1})
    try:
        con.execute(f"CREATE TEMP TABLE items (item_id INTEGER, class INTEGER, vec DOUBLE[{d}])")
        con.executemany(
            "INSERT INTO items VALUES (?, ?, ?)", [(i, int(c), v.tolist()) for i, (c, v) in enumerate(zip(cls, vecs))]
        )
        con.execute(f"CREATE TEMP TABLE queries (query_id INTEGER, source INTEGER, vec DOUBLE[{d}])")
        con.executemany(
            "INSERT INTO queries VALUES (?, ?, ?)",
            [(j, int(s), v.tolist()) for j, (s, v) in enumerate(zip(src, qvecs))],
        )
        tie = "best" if scn["tie_by_rank"] else "class"
        score, order = SCORE[str(scn["metric"])]
        con.execute(QUERY.format(score=score, order=order, k=k, tie=tie))
        path = os.path.join(os.environ["SWR_ARTIFACTS"], "neighbours.parquet")
        con.execute(
            "COPY (SELECT query_id, rank, item_id, class, score FROM hits ORDER BY query_id, rank) "
            f"TO '{path}' (FORMAT parquet)"
        )
        recall, acc = con.execute(
            """SELECT avg(((SELECT count(*) FROM hits h
                            WHERE h.query_id = q.query_id AND h.item_id = q.source) > 0)::INTEGER),
                      avg((v.predicted = i.class)::INTEGER)
               FROM queries q JOIN votes v USING (query_id) JOIN items i ON i.item_id = q.source"""
        ).fetchone()
        predicted = [int(r[0]) for r in con.execute("SELECT predicted FROM votes ORDER BY query_id").fetchall()]
    finally:
        con.close()
    return {
        "table": "neighbours.parquet",
        "predicted_classes": predicted,
        "recall_at_k": float(recall),
        "vote_accuracy": float(acc),
    }
