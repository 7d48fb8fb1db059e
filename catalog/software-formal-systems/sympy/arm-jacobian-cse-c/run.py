"""Symbolic differential kinematics of a planar three-joint arm with sympy matrices: forward kinematics, the
Jacobian (Matrix.jacobian), the manipulability measure det(J J^T), and a C function for it built from common
subexpression elimination (sympy.cse) and the C99 printer, graded by compiling and running it."""

import os

import sympy as sp

Q = sp.symbols("q1 q2 q3", real=True)


def kinematics(scn):
    """End-effector pose (x, y[, phi]) as a column Matrix of the joint variables."""
    l1, l2, l3 = (sp.Rational(repr(float(scn[k]))) for k in ("l1", "l2", "l3"))
    q1, q2, q3 = Q
    t1, t2 = q1, q1 + q2
    if scn["joint3"] == "revolute":
        t3 = t2 + q3
        x = l1 * sp.cos(t1) + l2 * sp.cos(t2) + l3 * sp.cos(t3)
        y = l1 * sp.sin(t1) + l2 * sp.sin(t2) + l3 * sp.sin(t3)
    else:                                              # prismatic: link 3 slides along link 2 by q3
        t3 = t2
        x = l1 * sp.cos(t1) + (l2 + l3 + q3) * sp.cos(t2)
        y = l1 * sp.sin(t1) + (l2 + l3 + q3) * sp.sin(t2)
    rows = [x, y, t3] if scn["task_space"] == "pose" else [x, y]
    return sp.Matrix(rows)


def main(scn):
    pose = kinematics(scn)
    J = pose.jacobian(sp.Matrix(Q))
    w2 = (J * J.T).det(method="berkowitz")
    subs, (reduced,) = sp.cse(w2, symbols=sp.numbered_symbols("t"))
    body = "".join(f"    const double {s} = {sp.ccode(e, standard='c99')};\n" for s, e in subs)
    source = ("#include <math.h>\n\ndouble manipulability2(double q1, double q2, double q3) {\n"
              f"{body}    return {sp.ccode(reduced, standard='c99')};\n}}\n")
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "manip.c"), "w", encoding="utf-8") as fh:
        fh.write(source)
    at = dict(zip(Q, (sp.Rational(repr(float(scn[k]))) for k in ("q1", "q2", "q3"))))
    Jq = J.subs(at).evalf(30)
    w2q = sp.N(w2.subs(at), 30)
    return {
        "c_source": "manip.c",
        "end_effector": [float(v) for v in pose.subs(at).evalf(30)],
        "jacobian": [[float(v) for v in Jq.row(i)] for i in range(Jq.rows)],
        "manipulability": float(sp.sqrt(w2q)) if w2q > 0 else 0.0,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
