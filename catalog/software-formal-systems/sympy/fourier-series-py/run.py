"""Fourier series of a periodic waveform with sympy.fourier_series (sympy.series.fourier), optionally with Lanczos
sigma factors against the Gibbs overshoot, and the partial sum printed as a Python function graded by running it."""

import os

import sympy as sp
from sympy.printing.pycode import pycode

X = sp.Symbol("x", real=True)


def waveform(kind, amp, offset, half):
    """One period on (-half, half) of the chosen waveform, amplitude amp, plus offset."""
    return {
        "square": sp.Piecewise((-amp, X < 0), (amp, True)),
        "sawtooth": amp * X / half,
        "triangle": sp.Piecewise((-amp * X / half, X < 0), (amp * X / half, True)),  # amp*|x|/half
        "parabola": amp * (X / half) ** 2,
        "pulse": sp.Piecewise((amp, sp.Abs(X) < half / 2), (0, True)),
    }[kind] + offset


def main(scn):
    half = sp.Integer(int(scn["half_period"]))
    amp, offset = sp.Integer(int(scn["amplitude"])), sp.Integer(int(scn["offset"]))
    n = int(scn["n_harmonics"])
    f = waveform(str(scn["waveform"]), amp, offset, half)
    fs = sp.fourier_series(f, (X, -half, half))
    a0 = sp.nsimplify(fs.a0)
    a, b = [], []
    for k in range(1, n + 1):
        a.append(sp.nsimplify(fs.an.coeff(k).subs(X, 0)))  # a_k*cos(0) = a_k
        b.append(sp.nsimplify(fs.bn.coeff(k).subs(X, half / (2 * k))))  # b_k*sin(pi/2) = b_k
    sigma = [sp.sinc(k * sp.pi / (n + 1)) if scn["sigma_factors"] else sp.Integer(1) for k in range(1, n + 1)]
    partial = a0 + sum(
        s * (ak * sp.cos(k * sp.pi * X / half) + bk * sp.sin(k * sp.pi * X / half))
        for k, (s, ak, bk) in enumerate(zip(sigma, a, b), start=1)
    )
    mean_square = sp.integrate(f**2, (X, -half, half)) / (2 * half)
    captured = a0**2 + sum(ak**2 + bk**2 for ak, bk in zip(a, b)) / 2
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "fourier.py"), "w", encoding="utf-8") as fh:
        fh.write(f"import math\n\n\ndef s(x):\n    return {pycode(partial, fully_qualified_modules=True)}\n")
    return {
        "py_source": "fourier.py",
        "a0": float(a0),
        "cos_coeffs": [float(s * ak) for s, ak in zip(sigma, a)],
        "sin_coeffs": [float(s * bk) for s, bk in zip(sigma, b)],
        "mean_square": float(mean_square),
        "energy_fraction": float(captured / mean_square) if mean_square != 0 else 1.0,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
