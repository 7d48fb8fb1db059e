"""Floating-point rounding studied with z3's IEEE-754 theory: a sum or dot product is evaluated step by step in a
small binary format (fpAdd / fpMul / fpFMA under a rounding mode, folded by z3.simplify), each step's result
compared with the exact rational, and the final value compared with the exact result."""

from fractions import Fraction

import z3

FORMATS = {"float16": (5, 11), "bfloat16": (8, 8), "float32": (8, 24), "e4m3": (4, 4)}
MODES = {"RNE": z3.RNE, "RNA": z3.RNA, "RTP": z3.RTP, "RTN": z3.RTN, "RTZ": z3.RTZ}


def exact(v):
    """A finite z3 FP value as an exact Fraction."""
    r = z3.simplify(z3.fpToReal(v))
    return Fraction(r.numerator_as_long(), r.denominator_as_long())


def main(scn):
    eb, sb = FORMATS[str(scn["format"])]
    sort = z3.FPSort(eb, sb)
    rm = MODES[str(scn["rounding"])]()
    xs = [float(v) for v in scn["values"]]
    ys = [float(v) for v in scn["weights"]][: len(xs)]
    ys += [1.0] * (len(xs) - len(ys))
    fx = [z3.simplify(z3.fpToFP(rm, z3.FPVal(v, z3.Float64()), sort)) for v in xs]  # inputs rounded to the format
    fy = [z3.simplify(z3.fpToFP(rm, z3.FPVal(v, z3.Float64()), sort)) for v in ys]
    acc = z3.simplify(z3.FPVal(0.0, sort))
    inexact, true_acc = 0, Fraction(0)
    for a, b in zip(fx, fy):
        if scn["fused"]:
            nxt = z3.simplify(z3.fpFMA(rm, a, b, acc))
            want = exact(a) * exact(b) + exact(acc)
        else:
            prod = z3.simplify(z3.fpMul(rm, a, b))
            inexact += int(exact(prod) != exact(a) * exact(b))
            nxt = z3.simplify(z3.fpAdd(rm, acc, prod))
            want = exact(acc) + exact(prod)
        if z3.is_true(z3.simplify(z3.fpIsInf(nxt))) or z3.is_true(z3.simplify(z3.fpIsNaN(nxt))):
            raise ValueError("overflow in the chosen format")
        inexact += int(exact(nxt) != want)
        true_acc += exact(a) * exact(b)
        acc = nxt
    bits = z3.simplify(z3.fpToIEEEBV(acc)).as_long()
    result = exact(acc)
    return {
        "inputs_rounded": [float(exact(v)) for v in fx],
        "result": float(result),
        "result_bits": format(bits, f"0{(eb + sb + 3) // 4}x"),
        "exact_dot": float(true_acc),
        "abs_error": float(abs(result - true_acc)),
        "inexact_operations": inexact,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
