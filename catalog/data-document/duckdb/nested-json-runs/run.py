"""Query nested NDJSON spectrometer runs with DuckDB: read_json, struct access, UNNEST, list lambdas, window ranking."""

import duckdb

GROUPS = {"instrument": "instrument.name", "operator": "operator"}

FLAT = """
CREATE TEMP TABLE flat AS
SELECT run_id, {key} AS grp, r.wavelength_nm AS wl, r.absorbance - {baseline} AS a, r.flag AS flag
FROM (SELECT run_id, instrument, operator, unnest(readings) AS r FROM runs)
WHERE r.wavelength_nm BETWEEN {wl_min} AND {wl_max} {flag_filter}
"""

GROUP_STATS = """
WITH ranked AS (
    SELECT *, row_number() OVER (PARTITION BY grp ORDER BY a DESC, wl, run_id) AS pos FROM flat
)
SELECT grp, count(DISTINCT run_id) AS n_runs, count(*) AS n_readings, avg(a) AS mean_a, max(a) AS max_a,
       any_value(wl) FILTER (WHERE pos = 1) AS wl_at_max, any_value(run_id) FILTER (WHERE pos = 1) AS run_at_max
FROM ranked GROUP BY grp ORDER BY grp
"""

TAGS = """
SELECT tag, count(*) AS n_runs, avg(temperature_c) AS mean_temp_c
FROM (SELECT unnest(tags) AS tag, temperature_c FROM runs) GROUP BY tag ORDER BY tag
"""

HOT = """
SELECT run_id,
       length(list_filter(readings, lambda r: r.absorbance - {baseline} > {thr})) AS n_hot,
       list_max(list_transform(readings, lambda r: r.absorbance - {baseline})) AS peak,
       instrument.serial AS serial,
       strftime(started, '%a %H:%M') AS started_label
FROM runs
WHERE length(list_filter(readings, lambda r: r.absorbance - {baseline} > {thr})) >= {min_hot}
ORDER BY run_id
"""


def main(scn):
    baseline = float(scn["baseline"])
    con = duckdb.connect(config={"threads": 1, "autoinstall_known_extensions": False})
    try:
        path = str(scn["dataset"]).replace("'", "''")
        con.execute(f"CREATE TEMP TABLE runs AS SELECT * FROM read_json('{path}', format='newline_delimited')")
        con.execute(
            FLAT.format(
                key=GROUPS[str(scn["group_by"])],
                baseline=baseline,
                wl_min=int(scn["wl_min"]),
                wl_max=int(scn["wl_max"]),
                flag_filter="AND r.flag IS NULL" if scn["drop_flagged"] else "",
            )
        )
        groups = con.execute(GROUP_STATS).fetchall()
        tags = con.execute(TAGS).fetchall()
        hot = con.execute(
            HOT.format(baseline=baseline, thr=float(scn["abs_threshold"]), min_hot=int(scn["min_hot"]))
        ).fetchall()
    finally:
        con.close()
    return {
        "groups": [
            {
                "group": g[0],
                "n_runs": float(g[1]),
                "n_readings": float(g[2]),
                "mean_absorbance": float(g[3]),
                "max_absorbance": float(g[4]),
                "wavelength_at_max_nm": float(g[5]),
                "run_at_max": g[6],
            }
            for g in groups
        ],
        "tags": [
            {"tag": t[0], "n_runs": float(t[1]), "mean_temperature_c": None if t[2] is None else float(t[2])}
            for t in tags
        ],
        "hot_runs": [
            {
                "run_id": h[0],
                "n_hot": float(h[1]),
                "peak_absorbance": float(h[2]),
                "serial": float(h[3]),
                "started": h[4],
            }
            for h in hot
        ],
    }
