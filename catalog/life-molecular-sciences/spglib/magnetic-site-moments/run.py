"""Symmetry-allowed magnetic moments on a site of a magnetic space group from spglib's database
(get_magnetic_symmetry_from_database, get_magnetic_spacegroup_type, get_magnetic_spacegroup_type_from_symmetry),
as a neutron crystallographer finds which moment directions a Shubnikov group allows on an atom and how the moment
repeats over the orbit.

Entry workflow: main(dict) -> dict.
"""

import math

import numpy as np
import spglib

SAME = 1e-6  # two fractional points are one site if every wrapped coordinate difference is below this
RANK_TOL = 1e-9


def seed_point(xyz, special):
    x, y, z = xyz
    if special == "x,x,z":
        y = x
    elif special == "x,y,0":
        z = 0.0
    elif special == "0,0,z":
        x = y = 0.0
    elif special == "0,0,0":
        x = y = z = 0.0
    return [x, y, z]


def wrap(v):
    w = v - math.floor(v)
    return 0.0 if w > 1.0 - SAME else w


def same(a, b):
    return all(abs((u - v + 0.5) % 1.0 - 0.5) < SAME for u, v in zip(a, b))


def main(scn):
    uni = int(scn["uni_number"])
    ops = spglib.get_magnetic_symmetry_from_database(uni)
    mtype = spglib.get_magnetic_spacegroup_type(uni)
    back = spglib.get_magnetic_spacegroup_type_from_symmetry(ops["rotations"], ops["translations"],
                                                             ops["time_reversals"])
    p = seed_point([float(v) for v in scn["point"]], str(scn["special"]))
    # Axial vector in lattice components: m' = (-1)^theta det(W) W m
    acts = [(-1.0 if int(tr) else 1.0) * round(float(np.linalg.det(w))) * np.asarray(w, dtype=float)
            for w, tr in zip(ops["rotations"], ops["time_reversals"])]
    images = []
    for w, t in zip(ops["rotations"], ops["translations"]):
        images.append([wrap(sum(int(w[i][j]) * p[j] for j in range(3)) + float(t[i])) for i in range(3)])
    stab = [k for k, img in enumerate(images) if same(img, p)]
    proj = sum(acts[k] for k in stab) / len(stab)
    m = np.array([float(v) for v in scn["moment"]])
    m_site = proj @ m
    sites, moments = [], []
    for k, img in enumerate(images):
        if not any(same(img, s) for s in sites):
            sites.append(img)
            moments.append(acts[k] @ m_site)

    def clean(v):
        return [round(float(x), 10) + 0.0 for x in v]

    return {
        "bns_number": mtype.bns_number,
        "og_number": mtype.og_number,
        "family_space_group": int(mtype.number),
        "msg_type": int(mtype.type),
        "n_operations": len(acts),
        "n_time_reversed": int(sum(int(v) for v in ops["time_reversals"])),
        "uni_from_symmetry": int(back.uni_number),
        "seed_point": p,
        "multiplicity": len(sites),
        "site_symmetry_order": len(stab),
        "allowed_moment_dimension": int(np.linalg.matrix_rank(proj, tol=RANK_TOL)),
        "site_moment": clean(m_site),
        "orbit": [{"position": s, "moment": clean(mm)} for s, mm in zip(sites, moments)],
    }
