"""Bounded verification of small array programs with z3's theory of arrays: the program is executed symbolically
(Store/Select terms over an unknown input array), its postcondition is negated and checked, and a failing program
gets its lexicographically smallest counterexample, fixed element by element."""

import z3


def run_program(name, a, n, bug):
    """Symbolic execution: the output array (or index) as z3 terms over the input array a."""
    if name == "reverse":
        b = a
        for i in range((n - 1) // 2 if bug else n // 2):  # bug: one swap short for even n
            x, y = z3.Select(b, i), z3.Select(b, n - 1 - i)
            b = z3.Store(z3.Store(b, i, y), n - 1 - i, x)
        return b
    if name == "prefix_sum":
        b = z3.Store(a, 0, z3.Select(a, 0))
        for i in range(1, n):
            add = z3.Select(a, i - 1) if bug else z3.Select(a, i)  # bug: adds the previous element
            b = z3.Store(b, i, z3.Select(b, i - 1) + add)
        return b
    if name == "max_index":
        best = z3.IntVal(0)
        for i in range(1, n):
            better = z3.Select(a, i) >= z3.Select(a, best) if bug else z3.Select(a, i) > z3.Select(a, best)
            best = z3.If(better, z3.IntVal(i), best)  # bug: >= returns the last maximum
        return best
    b = a  # bubble_pass
    for i in range(n - 2 if bug else n - 1):  # bug: stops one compare early
        x, y = z3.Select(b, i), z3.Select(b, i + 1)
        b = z3.Store(z3.Store(b, i, z3.If(x > y, y, x)), i + 1, z3.If(x > y, x, y))
    return b


def postcondition(name, a, out, n):
    el = [z3.Select(a, i) for i in range(n)]
    if name == "reverse":
        return z3.And([z3.Select(out, i) == el[n - 1 - i] for i in range(n)])
    if name == "prefix_sum":
        return z3.And([z3.Select(out, i) == z3.Sum(el[: i + 1]) for i in range(n)])
    if name == "max_index":
        first = [z3.And([el[j] < el[i] for j in range(i)] + [el[j] <= el[i] for j in range(i, n)]) for i in range(n)]
        return z3.Or([z3.And(out == i, first[i]) for i in range(n)])
    return z3.And([z3.Select(out, n - 1) >= z3.Select(out, i) for i in range(n - 1)])


def main(scn):
    name, n, bug = str(scn["program"]), int(scn["length"]), bool(scn["bug"])
    hi = int(scn["max_value"])
    lo = -hi if scn["signed"] else 0
    a = z3.Array("a", z3.IntSort(), z3.IntSort())
    out = run_program(name, a, n, bug)
    s = z3.Solver()
    s.add([z3.And(z3.Select(a, i) >= lo, z3.Select(a, i) <= hi) for i in range(n)])
    s.add(z3.Not(postcondition(name, a, out, n)))
    verified = s.check() == z3.unsat
    cex = []
    if not verified:
        for i in range(n):  # smallest value per position, left to right
            for v in range(lo, hi + 1):
                s.push()
                s.add(z3.Select(a, i) == v)
                if s.check() == z3.sat:
                    s.pop()
                    s.add(z3.Select(a, i) == v)
                    cex.append(v)
                    break
                s.pop()
        assert s.check() == z3.sat
        m = s.model()
        result = (
            [m.eval(out, model_completion=True).as_long()]
            if name == "max_index"
            else [m.eval(z3.Select(out, i), model_completion=True).as_long() for i in range(n)]
        )
    return {
        "verified": verified,
        "counterexample": ",".join(map(str, cex)),
        "output_on_counterexample": ",".join(map(str, result)) if cex else "",
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
