"""Makespan-optimal scheduling of jobs on machines with precedences, as linear real arithmetic in z3.Optimize."""

import random
from fractions import Fraction

import z3


def instance(scn):
    dur = [Fraction(float(d)) for d in scn["durations"]]
    n = len(dur)
    n_mach = int(scn["n_machines"])
    machine = [j % n_mach for j in range(n)]
    rng = random.Random(int(scn["seed"]))
    p = float(scn["precedence_prob"])
    prec = [(i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < p]
    release = [Fraction(float(r)) for r in scn["release_times"]][:n]
    release += [Fraction(0)] * (n - len(release))
    return dur, machine, prec, release


def q(fr):
    return z3.Q(fr.numerator, fr.denominator)


def main(scn):
    dur, machine, prec, release = instance(scn)
    n = len(dur)
    start = [z3.Real(f"s{j}") for j in range(n)]
    end = [start[j] + q(dur[j]) for j in range(n)]
    mk = z3.Real("makespan")
    cons = []
    for j in range(n):
        cons += [start[j] >= q(release[j]), mk >= end[j]]
    for i, j in prec:
        cons.append(start[j] >= end[i])
    for i in range(n):
        for j in range(i + 1, n):
            if machine[i] == machine[j]:
                cons.append(z3.Or(end[i] <= start[j], end[j] <= start[i]))  # no overlap on a machine

    opt = z3.Optimize()
    opt.add(cons)
    opt.minimize(mk)                      # priority 1: makespan
    opt.minimize(z3.Sum(end))           # priority 2: total completion time
    assert opt.check() == z3.sat
    m = opt.model()

    def val(e):
        r = m.eval(e, model_completion=True)
        return Fraction(r.numerator_as_long(), r.denominator_as_long())

    makespan = val(mk)
    total_completion = val(z3.Sum(end))

    load = [Fraction(0)] * (max(machine) + 1)
    for j in range(n):
        load[machine[j]] += dur[j]
    return {
        "n_jobs": int(n),
        "n_precedences": int(len(prec)),
        "makespan": float(makespan),
        "total_completion_time": float(total_completion),
        "max_machine_load": float(max(load)),
        "idle_fraction": float(1 - sum(load) / (makespan * len(load))),
        "machine_loads": [float(v) for v in load],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
