"""Shortest, lexicographically least string meeting a naming policy, found with z3's string and regular-expression
theory (z3.String, Length, PrefixOf, InRe over Intersect/Complement/Concat/Star of character ranges), as in
generating test identifiers or checking that a policy admits any name at all."""

import random

import z3

LETTERS = "abcdef"


def words(scn):
    """Alphabet, required, forbidden and prefix words, drawn in the summary's order."""
    rng = random.Random(int(scn["seed"]))
    letters = LETTERS[: int(scn["alphabet_size"])]

    def draw(n):
        return "".join(rng.choice(letters) for _ in range(n))

    return letters, draw(int(scn["required_len"])), draw(int(scn["forbidden_len"])), draw(int(scn["prefix_len"]))


def least(solver, s, length, letters):
    """The lexicographically least model of s with Length(s) == length, fixed one position at a time."""
    solver.push()
    solver.add(z3.Length(s) == length)
    word = ""
    for _ in range(length):
        for c in letters:
            solver.push()
            solver.add(z3.PrefixOf(z3.StringVal(word + c), s))
            ok = solver.check() == z3.sat
            solver.pop()
            if ok:
                word += c
                break
    solver.pop()
    return word


def policy(letters, required, forbidden, prefix, max_run):
    """The regular language of admissible names: over the letters, containing required, not forbidden, after prefix,
    no letter more than max_run times in a row."""
    sigma = z3.Star(z3.Range(letters[0], letters[-1]))

    def containing(w):
        return z3.Concat(sigma, z3.Re(w), sigma)

    parts = [sigma, containing(required), z3.Complement(containing(forbidden))]
    parts += [z3.Complement(containing(c * (max_run + 1))) for c in letters]
    if prefix:
        parts.append(z3.Concat(z3.Re(prefix), sigma))
    return z3.Intersect(*parts)


def main(scn):
    letters, required, forbidden, prefix = words(scn)
    s = z3.String("s")
    solver = z3.Solver()
    solver.add(z3.InRe(s, policy(letters, required, forbidden, prefix, int(scn["max_run"]))))
    lo, hi = int(scn["min_length"]), int(scn["max_length"])
    feasible = []
    for n in range(lo, hi + 1):
        solver.push()
        solver.add(z3.Length(s) == n)
        feasible.append(solver.check() == z3.sat)
        solver.pop()
    shortest = next((lo + i for i, ok in enumerate(feasible) if ok), -1)
    word = least(solver, s, shortest, letters) if shortest >= 0 else ""
    return {
        "required": required,
        "forbidden": forbidden,
        "prefix": prefix,
        "shortest_length": shortest,
        "least_word": word,
        "feasible_lengths": [lo + i for i, ok in enumerate(feasible) if ok] or [-1],
        "first_required_at": word.find(required) if word else -1,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
