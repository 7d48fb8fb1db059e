"""Product-line configuration with z3: feature-model rules as tracked Boolean constraints, the backbone of a
satisfiable request (features forced on or off, from assumption-based checks) or, when the request is
impossible, a minimal unsatisfiable subset of the rules found by ordered deletion."""

import random

import z3


def instance(scn):
    """Rules in generation order: (label, kind, i, j)."""
    n = int(scn["n_features"])
    rng = random.Random(int(scn["seed"]))
    p_req, p_exc = float(scn["p_requires"]), float(scn["p_excludes"])
    rules = []
    for i in range(n):
        for j in range(i + 1, n):
            r = rng.random()
            if r < p_req:
                rules.append((f"requires {i} {j}", "requires", i, j))
            elif r < p_req + p_exc:
                rules.append((f"excludes {i} {j}", "excludes", i, j))
    requests = list(dict.fromkeys(int(k) % n for k in scn["requested"]))
    return n, rules, requests


def main(scn):
    n, rules, requests = instance(scn)
    f = [z3.Bool(f"f{i}") for i in range(n)]
    solver = z3.Solver()
    solver.add(z3.AtMost(*f, int(scn["max_selected"])))  # hard: the cardinality budget
    tracked = []  # (label, literal): requests first, then rules
    for k in requests:
        lit = z3.Bool(f"request_{k}")
        solver.add(z3.Implies(lit, f[k]))
        tracked.append((f"request {k}", lit))
    for label, kind, i, j in rules:
        lit = z3.Bool(label.replace(" ", "_"))
        body = z3.Implies(f[i], f[j]) if kind == "requires" else z3.Not(z3.And(f[i], f[j]))
        solver.add(z3.Implies(lit, body))
        tracked.append((label, lit))
    lits = [lit for _, lit in tracked]
    sat = solver.check(*lits) == z3.sat
    forced_on, forced_off, mus = [], [], []
    if sat:
        for i in range(n):  # backbone: a literal is forced when its negation is unsatisfiable with everything
            if solver.check(*lits, z3.Not(f[i])) == z3.unsat:
                forced_on.append(i)
            elif solver.check(*lits, f[i]) == z3.unsat:
                forced_off.append(i)
    else:
        keep = list(range(len(tracked)))
        for idx in range(len(tracked)):  # ordered deletion: drop a constraint while the rest stays unsat
            trial = [t for t in keep if t != idx]
            if solver.check(*[lits[t] for t in trial]) == z3.unsat:
                keep = trial
        mus = [tracked[t][0] for t in keep]
    return {
        "n_rules": len(rules),
        "n_requires": sum(1 for r in rules if r[1] == "requires"),
        "requests": requests,
        "satisfiable": sat,
        "backbone": [
            "-" if not sat else "on" if i in forced_on else "off" if i in forced_off else "free" for i in range(n)
        ],
        "n_forced": len(forced_on) + len(forced_off),
        "mus": "; ".join(mus),
        "mus_size": len(mus),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
