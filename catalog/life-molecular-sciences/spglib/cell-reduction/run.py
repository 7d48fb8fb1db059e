"""Reduction of a skewed lattice basis with spglib (niggli_reduce, delaunay_reduce), as a crystallographer
recovers the reduced cell of a crystal indexed in an awkward setting; reports both reduced bases, their cell
parameters and the integer matrices relating them to the input basis.

Entry workflow: main(dict) -> dict.
"""

import math

import numpy as np
import spglib


def rows_from_parameters(a, b, c, alpha, beta, gamma):
    """Lattice rows with a along x and b in the xy plane (angles in degrees)."""
    al, be, ga = (math.radians(v) for v in (alpha, beta, gamma))
    cx = c * math.cos(be)
    cy = c * (math.cos(al) - math.cos(be) * math.cos(ga)) / math.sin(ga)
    cz = math.sqrt(c * c - cx * cx - cy * cy)
    return np.array([[a, 0.0, 0.0], [b * math.cos(ga), b * math.sin(ga), 0.0], [cx, cy, cz]])


def parameters(rows):
    """(a, b, c, alpha, beta, gamma) of lattice rows, angles in degrees."""
    la = [float(np.linalg.norm(v)) for v in rows]

    def ang(i, j):
        return math.degrees(math.acos(float(np.dot(rows[i], rows[j])) / (la[i] * la[j])))

    return {"a": la[0], "b": la[1], "c": la[2], "alpha": ang(1, 2), "beta": ang(0, 2), "gamma": ang(0, 1)}


EPS = 1e-5  # tolerance passed to both reductions
CENTRING = {  # rows of a primitive basis of the centred lattice, in units of the conventional rows
    "P": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    "I": [[-0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0.5, 0.5, -0.5]],
    "F": [[0, 0.5, 0.5], [0.5, 0, 0.5], [0.5, 0.5, 0]],
    "C": [[0.5, 0.5, 0], [-0.5, 0.5, 0], [0, 0, 1]],
}


def clean(rows):
    """Lattice rows rounded to 1e-10 A: entries that are zero up to rounding noise become exactly 0."""
    return [[round(float(v), 10) + 0.0 for v in row] for row in rows]


def main(scn):
    conventional = rows_from_parameters(*(float(scn[k]) for k in ("a_A", "b_A", "c_A", "alpha_deg", "beta_deg",
                                                                  "gamma_deg")))
    base = np.array(CENTRING[str(scn["centring"])]) @ conventional
    s = [int(v) for v in scn["shear"]]
    t = np.array([[1, s[0], s[1]], [0, 1, s[2]], [0, 0, 1]])
    if bool(scn["left_handed"]):
        t[2] = -t[2]
    skewed = t @ base
    out = {"input_lattice": clean(skewed), "input_parameters": parameters(skewed)}
    for name, fn in (("niggli", spglib.niggli_reduce), ("delaunay", spglib.delaunay_reduce)):
        red = np.array(fn(skewed, eps=EPS))
        m = np.rint(red @ np.linalg.inv(skewed)).astype(int)
        out[name] = {"lattice": clean(red), "parameters": parameters(red),
                     "transformation": m.tolist(), "det_transformation": int(round(np.linalg.det(m)))}
    out["volume_A3"] = float(abs(np.linalg.det(skewed)))
    return out
