"""Syntax-error reporting and recovery of sqlglot's parser: statements of a generated script, some with injected
faults, are parsed under an ErrorLevel (IMMEDIATE raises at the first error, RAISE collects then raises, WARN logs
and returns what it could build); the structured errors (line, column, description) are read back."""

import logging
import random

import sqlglot
from sqlglot.errors import ErrorLevel, ParseError

logging.getLogger("sqlglot").setLevel(logging.CRITICAL)  # WARN-level messages are read from the result, not logs

TEMPLATES = [
    "WITH t AS (SELECT station, temp FROM readings WHERE temp > {v}) SELECT station, MAX(temp) FROM t GROUP BY station",
    "SELECT station, CASE WHEN temp > {v} THEN 'hot' ELSE 'cold' END AS label FROM readings",
    "SELECT station, AVG(temp) OVER (PARTITION BY station ORDER BY ts ROWS BETWEEN {i} PRECEDING AND CURRENT ROW) "
    "FROM readings",
    "DELETE FROM readings WHERE station = 's{i}' AND temp < {v}",
]
FAULTS = ["unclosed_paren", "misspelled_keyword", "empty_where", "dangling_operator"]


def inject(sql, fault):
    if fault == "unclosed_paren":
        i = sql.rfind(")")
        return sql[:i] + sql[i + 1 :] if i >= 0 else sql + " ("
    if fault == "misspelled_keyword":
        first, rest = sql.split(" ", 1)
        return first[:-1] + " " + rest  # the leading keyword loses its last letter
    if fault == "empty_where":
        return sql.split(" WHERE")[0] + " WHERE" if " WHERE" in sql else sql + " WHERE"
    return sql + " +"  # dangling_operator


def script(scn):
    rng = random.Random(int(scn["seed"]))
    out = []
    for _ in range(int(scn["n_statements"])):  # per statement: template, v, i, then the fault draws
        sql = TEMPLATES[rng.randrange(len(TEMPLATES))].format(v=round(rng.uniform(-10, 40), 1), i=rng.randint(1, 9))
        if rng.random() < float(scn["fault_rate"]):
            fault = FAULTS[rng.randrange(len(FAULTS))] if scn["fault"] == "mixed" else str(scn["fault"])
            sql = inject(sql, fault)
        out.append(sql)
    return out


def main(scn):
    level = {"immediate": ErrorLevel.IMMEDIATE, "raise": ErrorLevel.RAISE, "warn": ErrorLevel.WARN}[scn["error_level"]]
    dialect = sqlglot.Dialect.get_or_raise(str(scn["dialect"]))
    statuses, errors, recovered = [], [], []
    for sql in script(scn):
        parser = dialect.parser(error_level=level, max_errors=5)
        try:
            trees = parser.parse(dialect.tokenize(sql), sql)
            statuses.append("warned" if parser.errors else "ok")
            recovered.append("; ".join(t.sql(dialect=dialect) for t in trees if t is not None))
            found = [d for err in parser.errors for d in err.errors]  # WARN keeps its errors here
        except ParseError as e:
            statuses.append("error")
            recovered.append("")
            found = e.errors
        errors += [f"{d['line']}:{d['col']} {d['description'].split(' for <class')[0]}" for d in found]
    return {
        "statements": script(scn),
        "status": statuses,
        "n_errors_raised": statuses.count("error"),
        "n_errors": len(errors),
        "errors": errors if errors else ["none"],
        "parsed_sql": recovered,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
