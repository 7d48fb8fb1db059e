"""Keep a sample registry current by applying batches of corrections with DuckDB's MERGE INTO (conditional
DELETE / UPDATE / INSERT against a PRIMARY KEY table), each batch first reduced to its last record per key with
QUALIFY, as a LIMS does with late results and retractions."""

import os

import duckdb
import numpy as np

SITES = ["A", "B", "C"]
CONFLICT = {
    "latest": "s.conc",
    "max": "greatest(t.conc, s.conc)",
    "mean": "(t.conc * t.version + s.conc) / (t.version + 1)",
}
LAST = "(SELECT * FROM batch QUALIFY row_number() OVER (PARTITION BY sample_id ORDER BY seq DESC) = 1)"
COUNT = f"""
SELECT count(*) FILTER (WHERE s.op = 'delete' AND t.sample_id IS NOT NULL),
       count(*) FILTER (WHERE s.op = 'set' AND t.sample_id IS NULL)
FROM {LAST} s LEFT JOIN registry t USING (sample_id)
"""
MERGE = f"""
MERGE INTO registry t
USING {LAST} s
ON t.sample_id = s.sample_id
WHEN MATCHED AND s.op = 'delete' THEN DELETE
WHEN MATCHED THEN UPDATE SET conc = {{value}}, version = t.version + 1, last_batch = {{k}}
WHEN NOT MATCHED AND s.op = 'set' THEN INSERT VALUES (s.sample_id, s.site, s.conc, 1, {{k}})
"""


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    n0, size = int(scn["n_initial"]), int(scn["batch_size"])
    con = duckdb.connect(config={"threads": 1})
    try:
        con.execute(
            "CREATE TEMP TABLE registry (sample_id INTEGER PRIMARY KEY, site VARCHAR, conc DOUBLE, "
            "version INTEGER, last_batch INTEGER)"
        )
        conc0 = np.round(rng.lognormal(0.0, 1.0, n0), 3)
        con.executemany(
            "INSERT INTO registry VALUES (?, ?, ?, 1, 0)", [(i, SITES[i % 3], float(c)) for i, c in enumerate(conc0)]
        )
        con.execute("CREATE TEMP TABLE batch (seq INTEGER, sample_id INTEGER, site VARCHAR, conc DOUBLE, op VARCHAR)")
        deleted = inserted = 0
        for k in range(1, int(scn["n_batches"]) + 1):
            ids = rng.integers(0, n0 + int(scn["new_ids"]), size)
            conc = np.round(rng.lognormal(0.0, 1.0, size), 3)
            ops = np.where(rng.random(size) < float(scn["delete_prob"]), "delete", "set")
            con.execute("DELETE FROM batch")
            con.executemany(
                "INSERT INTO batch VALUES (?, ?, ?, ?, ?)",
                [(j, int(i), SITES[int(i) % 3], float(c), str(o)) for j, (i, c, o) in enumerate(zip(ids, conc, ops))],
            )
            d, i = con.execute(COUNT).fetchone()
            deleted, inserted = deleted + int(d), inserted + int(i)
            con.execute(MERGE.format(value=CONFLICT[str(scn["conflict"])], k=k))
        path = os.path.join(os.environ["SWR_ARTIFACTS"], "registry.csv")
        con.execute(f"COPY (SELECT * FROM registry ORDER BY sample_id) TO '{path}' (FORMAT csv, HEADER)")
        n, versions = con.execute("SELECT count(*), sum(version) FROM registry").fetchone()
    finally:
        con.close()
    return {
        "table": "registry.csv",
        "n_samples": int(n),
        "total_versions": int(versions or 0),
        "deleted": deleted,
        "inserted": inserted,
    }
