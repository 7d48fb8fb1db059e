"""Build a query programmatically with sqlglot's expression builder API (select/from_/join/where/group_by/order_by,
exp.func, exp.cast, exp.TimeToStr), render it with a dialect's generator (pretty printing, identifier quoting,
strftime formats mapped to the dialect's own), and tokenize the result with that dialect's tokenizer."""

import sqlglot
from sqlglot import exp

FILTERS = [
    "e.magnitude >= {threshold}",
    "s.network IN ('IU', 'GE', 'II')",
    "e.depth_km BETWEEN 0 AND {depth}",
    "NOT s.decommissioned",
]


def build(scn):
    threshold = repr(round(float(scn["min_magnitude"]), 2))
    day = exp.TimeToStr(this=exp.column("origin_time", "e"), format=exp.Literal.string(str(scn["date_format"])))
    q = (
        exp.select(
            day.as_("day"),
            exp.column("network", "s"),
            exp.func("COUNT", exp.Star()).as_("n_events"),
            exp.cast(exp.func("AVG", exp.column("magnitude", "e")), "DECIMAL(4, 2)").as_("mean_mag"),
            exp.func("MAX", exp.column("depth_km", "e")).as_("max_depth"),
        )
        .from_("events AS e")
        .join("stations AS s", on="e.station_id = s.id", join_type="left" if scn["left_join"] else "inner")
    )
    for f in FILTERS[: int(scn["n_filters"])]:
        q = q.where(f.format(threshold=threshold, depth=int(scn["max_depth_km"])))
    q = q.group_by("day", "s.network").order_by("n_events DESC", "day")
    if scn["rank"]:
        q = q.select(
            exp.Window(
                this=exp.func("ROW_NUMBER"),
                partition_by=[exp.column("network", "s")],
                order=exp.Order(expressions=[exp.Ordered(this=exp.column("day"))]),
            ).as_("rk")
        )
    return q.limit(int(scn["limit"]))


def main(scn):
    dialect = str(scn["dialect"])
    query = build(scn)
    sql = query.sql(dialect=dialect, pretty=bool(scn["pretty"]), identify=bool(scn["identify"]))
    tokens = sqlglot.Dialect.get_or_raise(dialect).tokenize(sql)
    again = sqlglot.parse_one(sql, read=dialect).sql(
        dialect=dialect, pretty=bool(scn["pretty"]), identify=bool(scn["identify"])
    )
    return {
        "sql": sql,
        "n_lines": sql.count("\n") + 1,
        "n_tokens": len(tokens),
        "token_types": sorted({t.token_type.name for t in tokens}),
        "n_quoted_identifiers": sum(1 for t in tokens if t.token_type.name == "IDENTIFIER"),
        "roundtrip_stable": again == sql,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
