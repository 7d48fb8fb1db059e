"""Space-group settings with spglib: the Hall settings of a space-group type (get_spacegroup_type over all Hall
numbers), a crystal generated in a non-standard setting (get_symmetry_from_database), and its symmetry dataset in the
default standard setting and in a requested one (get_symmetry_dataset with hall_number), with the transformation
matrices and origin shifts between them, as a crystallographer converts a structure reported in Pnam or origin
choice 1 to the setting a database expects.

Entry workflow: main(dict) -> dict.
"""

import math

import numpy as np
import spglib

SAME = 1e-6  # fractional images closer than this (per wrapped coordinate) are one site


def settings_of(number):
    return [h for h in range(1, 531) if spglib.get_spacegroup_type(h).number == number]


def orbit(point, ops):
    sites = []
    for rot, tr in zip(ops["rotations"], ops["translations"]):
        img = [sum(int(rot[i][j]) * point[j] for j in range(3)) + float(tr[i]) for i in range(3)]
        img = [v - math.floor(v) for v in img]
        img = [0.0 if v > 1.0 - SAME else v for v in img]
        if not any(all(abs((u - v + 0.5) % 1.0 - 0.5) < SAME for u, v in zip(img, s)) for s in sites):
            sites.append(img)
    return sites


def clean(m):
    return [[round(float(v), 10) + 0.0 for v in row] for row in np.atleast_2d(m)]


def summary(ds):
    return {"hall_number": int(ds.hall_number), "choice": ds.choice, "hall_symbol": ds.hall,
            "transformation_matrix": clean(ds.transformation_matrix),
            "origin_shift": [round(float(v), 10) + 0.0 for v in ds.origin_shift]}


def main(scn):
    number = int(scn["space_group"])
    halls = settings_of(number)
    generate = halls[int(scn["generate_setting"]) % len(halls)]
    request = halls[int(scn["request_setting"]) % len(halls)]
    ops = spglib.get_symmetry_from_database(generate)
    a = float(scn["a_A"])
    if number >= 75:  # tetragonal and cubic groups here: b = a (and c = a for cubic)
        b, c = a, (a if number >= 195 else a * float(scn["c_over_a"]))
    else:
        b, c = a * float(scn["b_over_a"]), a * float(scn["c_over_a"])
    lattice = [[a, 0.0, 0.0], [0.0, b, 0.0], [0.0, 0.0, c]]
    sites = orbit([float(v) for v in scn["point"]], ops)
    cell = (lattice, sites, [14] * len(sites))
    default = spglib.get_symmetry_dataset(cell, symprec=1e-5)
    requested = spglib.get_symmetry_dataset(cell, symprec=1e-5, hall_number=request)
    return {
        "settings": [{"hall_number": h, "choice": spglib.get_spacegroup_type(h).choice,
                      "hall_symbol": spglib.get_spacegroup_type(h).hall_symbol} for h in halls],
        "generated_in": generate,
        "n_atoms": len(sites),
        "default_setting": summary(default),
        "requested_setting": summary(requested),
        "wyckoffs": sorted(set(default.wyckoffs)),
        "n_std_atoms": len(default.std_types),
    }
