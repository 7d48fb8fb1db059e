"""Latin-square completion with z3: integer cells with Distinct rows and columns, the givens of a hidden random
square, the number of completions counted by blocking clauses (up to a cap), and the lexicographically smallest
completion found cell by cell under push/pop."""

import random

import z3


def hidden_square(n, rng):
    """L[i][j] = sym[(row[i] + col[j]) mod n] with row, col, sym random permutations (drawn in that order)."""
    row, col, sym = (rng.sample(range(n), n) for _ in range(3))
    return [[sym[(row[i] + col[j]) % n] for j in range(n)] for i in range(n)]


def main(scn):
    n = int(scn["n"])
    rng = random.Random(int(scn["seed"]))
    square = hidden_square(n, rng)
    givens = {(i, j): square[i][j] for i in range(n) for j in range(n) if rng.random() < float(scn["reveal_prob"])}
    cells = [[z3.Int(f"c_{i}_{j}") for j in range(n)] for i in range(n)]
    s = z3.Solver()
    s.add([z3.And(c >= 0, c < n) for row in cells for c in row])
    s.add([z3.Distinct(*row) for row in cells])
    s.add([z3.Distinct(*[cells[i][j] for i in range(n)]) for j in range(n)])
    s.add([cells[i][j] == v for (i, j), v in givens.items()])
    order = [(i, j) for i in range(n) for j in range(n)]
    if scn["scan_order"] == "column_major":
        order = [(i, j) for j in range(n) for i in range(n)]
    s.push()  # count completions, blocking each one found
    count, cap = 0, int(scn["max_count"])
    while count < max(cap, 2) and s.check() == z3.sat:  # at least 2, to decide uniqueness
        m = s.model()
        count += 1
        s.add(z3.Or([c != m.eval(c, model_completion=True) for row in cells for c in row]))
    s.pop()
    smallest = {}
    for i, j in order:  # lexicographically smallest completion in scan order
        for v in range(n):
            s.push()
            s.add(cells[i][j] == v)
            if s.check() == z3.sat:
                smallest[(i, j)] = v
                break
            s.pop()
    return {
        "n_givens": len(givens),
        "n_completions": min(count, cap),
        "unique": count == 1,
        "smallest_completion": [smallest[(i, j)] for i in range(n) for j in range(n)],
        "differs_from_hidden": sum(1 for i in range(n) for j in range(n) if smallest[(i, j)] != square[i][j]),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
