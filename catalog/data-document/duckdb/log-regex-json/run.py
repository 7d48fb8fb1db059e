"""Parse plant log lines with DuckDB string and regex functions: per-device statistics, keyword hits,
fuzzy device lookup."""

import duckdb

LEVELS = ["DEBUG", "INFO", "WARN", "ERROR"]

PARSE = """
CREATE TEMP TABLE ev AS
SELECT strptime(substr(line, 1, 19), '%Y-%m-%d %H:%M:%S')                   AS ts,
       regexp_extract(line, '\\[([A-Z]+)\\]', 1)                             AS level,
       regexp_extract(line, '\\] ([a-z]+-[0-9]+):', 1)                       AS device,
       TRY_CAST(nullif(regexp_extract(line, 'pressure=([0-9.]+)bar', 1), '') AS DOUBLE) AS pressure_bar,
       TRY_CAST(nullif(regexp_extract(line, 'temp=([0-9.]+)C', 1), '') AS DOUBLE)       AS temp_c,
       regexp_extract(line, 'msg=''([^'']*)''', 1)                           AS msg
FROM read_csv('{path}', columns={{'line': 'VARCHAR'}}, delim=E'\\x01', header=false, quote='', escape='')
"""

DEVICES = """
SELECT device, count(*) AS n,
       count(*) FILTER (WHERE level = 'WARN') AS n_warn, count(*) FILTER (WHERE level = 'ERROR') AS n_error,
       avg(pressure_bar) AS mean_pressure_bar, max(temp_c) AS max_temp_c, count(temp_c) AS n_temp,
       strftime(min(ts), '%Y-%m-%d %H:%M:%S') AS first_seen, strftime(max(ts), '%Y-%m-%d %H:%M:%S') AS last_seen,
       string_agg(DISTINCT split_part(msg, ' ', 1), ',' ORDER BY split_part(msg, ' ', 1)) AS first_words
FROM ev WHERE list_position({levels}, level) >= {min_rank} AND hour(ts) BETWEEN {h0} AND {h1}
GROUP BY device ORDER BY device
"""

HITS = """
SELECT device, count(*) AS hits, max(ts) AS last_hit
FROM ev WHERE regexp_matches(msg, '{pattern}', '{flags}') GROUP BY device ORDER BY hits DESC, device
"""

FUZZY = """
SELECT device, jaro_winkler_similarity(device, '{query}') AS jw, levenshtein(device, '{query}') AS lev
FROM (SELECT DISTINCT device FROM ev) ORDER BY jw DESC, device LIMIT 3
"""


def main(scn):
    con = duckdb.connect(config={"threads": 1})
    try:
        con.execute(PARSE.format(path=str(scn["log"]).replace("'", "''")))
        levels = "[" + ", ".join(f"'{x}'" for x in LEVELS) + "]"
        devices = con.execute(
            DEVICES.format(
                levels=levels,
                min_rank=LEVELS.index(str(scn["min_level"])) + 1,
                h0=int(scn["hour_from"]),
                h1=int(scn["hour_to"]),
            )
        ).fetchall()
        dcols = [d[0] for d in con.description]
        hits = con.execute(
            HITS.format(pattern=str(scn["pattern"]), flags="i" if scn["ignore_case"] else "c")
        ).fetchall()
        fuzzy = con.execute(FUZZY.format(query=str(scn["query_device"]))).fetchall()
        n_lines = con.execute("SELECT count(*), count(pressure_bar), count(temp_c) FROM ev").fetchone()
    finally:
        con.close()

    def conv(v):
        return v if v is None or isinstance(v, str) else float(v)

    return {
        "lines": [float(x) for x in n_lines],
        "devices": [{k: conv(v) for k, v in zip(dcols, row)} for row in devices],
        "keyword_hits": [
            {"device": h[0], "hits": float(h[1]), "last_hit": h[2].strftime("%Y-%m-%d %H:%M:%S")} for h in hits
        ],
        "similar_devices": [{"device": f[0], "jaro_winkler": float(f[1]), "levenshtein": float(f[2])} for f in fuzzy],
    }
