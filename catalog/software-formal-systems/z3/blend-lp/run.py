"""Least-cost blending (the diet / feed-mix problem) solved exactly with z3's linear real (or integer) arithmetic
optimisation: z3.Optimize over Real or Int amounts, lexicographic objectives, exact rational optimum (as_fraction)."""

import random
from fractions import Fraction

import z3


def draw(scn):
    """Ingredient costs and contents, then the nutrient requirements, in the summary's order."""
    rng = random.Random(int(scn["seed"]))
    n_nut = int(scn["n_nutrients"])
    ingredients = []
    for _ in range(int(scn["n_ingredients"])):
        cost = rng.randint(1, 20)
        ingredients.append((cost, [rng.randint(0, 9) for _ in range(n_nut)]))
    need = [rng.randint(10, int(scn["max_requirement"])) for _ in range(n_nut)]
    return ingredients, need


def value(model, expr):
    """Exact value of an arithmetic term in the model, as a Fraction."""
    val = model.evaluate(expr, model_completion=True)
    if z3.is_int_value(val):
        return Fraction(val.as_long())
    return Fraction(val.as_fraction())


def essential(rules, x):
    """Ingredients without which no blend meets the rules (a plain z3.Solver: rules plus x_i == 0 is unsat);
    [-1] if none, every ingredient ([0, 1, ..]) when the rules are infeasible anyway."""
    solver = z3.Solver()
    solver.add(rules)
    out = []
    for i, v in enumerate(x):
        solver.push()
        solver.add(v == 0)
        if solver.check() == z3.unsat:
            out.append(i)
        solver.pop()
    return out or [-1]


def main(scn):
    ingredients, need = draw(scn)
    cap, whole = int(scn["cap"]), bool(scn["whole_units"])
    x = [(z3.Int if whole else z3.Real)(f"x{i}") for i in range(len(ingredients))]
    supply = [z3.Sum([c[j] * v for (_, c), v in zip(ingredients, x)]) for j in range(len(need))]
    rules = [b for v in x for b in (v >= 0, v <= cap)] + [s >= req for s, req in zip(supply, need)]
    opt = z3.Optimize()
    opt.add(rules)
    opt.minimize(z3.Sum([cost * v for (cost, _), v in zip(ingredients, x)]))
    opt.minimize(z3.Sum([(i + 1) * v for i, v in enumerate(x)]))  # lexicographic tie-break
    base = {"costs": [c for c, _ in ingredients], "contents": [c for _, c in ingredients], "requirements": need}
    if opt.check() != z3.sat:
        return {
            **base,
            "feasible": False,
            "amounts": ["-1"],
            "amounts_float": [-1.0],
            "total_cost": "-1",
            "binding": [-1],
            "slack": ["-1"],
            "essential": essential(rules, x),
        }
    m = opt.model()
    amounts = [value(m, v) for v in x]
    slack = [value(m, s - req) for s, req in zip(supply, need)]
    total = sum(cost * a for (cost, _), a in zip(ingredients, amounts))
    return {
        **base,
        "feasible": True,
        "amounts": [str(a) for a in amounts],
        "amounts_float": [float(a) for a in amounts],
        "total_cost": str(total),
        "binding": [j for j, sl in enumerate(slack) if sl == 0] or [-1],
        "slack": [str(sl) for sl in slack],
        "essential": essential(rules, x),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
