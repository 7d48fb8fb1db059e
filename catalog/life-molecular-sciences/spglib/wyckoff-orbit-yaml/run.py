"""Generate the crystallographic orbit of a point under a space group taken from spglib's database
(get_spacegroup_type, get_symmetry_from_database, get_spacegroup_type_from_symmetry), as a crystallographer
places an atom at a Wyckoff position, and write the resulting structure as a YAML file (phonopy-like layout).

Entry workflow: main(dict) -> dict; the YAML file goes to $SWR_ARTIFACTS.
"""

import math
import os

import numpy as np
import spglib
import yaml

SAME = 1e-6  # two fractional points are one site if every wrapped coordinate difference is below this


def default_hall(number):
    """The lowest Hall number (1..530) whose space-group type has this ITA number: the standard setting."""
    for hall in range(1, 531):
        if spglib.get_spacegroup_type(hall).number == number:
            return hall
    raise ValueError(number)


def lattice_for(number, a, b_ratio, c_ratio, beta_deg):
    """Conventional lattice rows a, b, c (Cartesian, A) fitting the crystal system of ITA `number`."""
    b, c = a * b_ratio, a * c_ratio
    if number >= 195:
        b = c = a
    elif number >= 143:
        return [[a, 0.0, 0.0], [-a / 2, a * math.sqrt(3) / 2, 0.0], [0.0, 0.0, c]]
    elif number >= 75:
        b = a
    if number <= 15:
        beta = math.radians(beta_deg)
        return [[a, 0.0, 0.0], [0.0, b, 0.0], [c * math.cos(beta), 0.0, c * math.sin(beta)]]
    return [[a, 0.0, 0.0], [0.0, b, 0.0], [0.0, 0.0, c]]


def seed_point(xyz, special):
    x, y, z = xyz
    if special == "x,x,z":
        y = x
    elif special == "x,y,0":
        z = 0.0
    elif special == "x,x,x":
        y = z = x
    elif special == "0,0,z":
        x = y = 0.0
    return [x, y, z]


def orbit(point, rotations, translations):
    """Images R p + t wrapped into [0, 1), in operation order, keeping the first of coincident ones."""
    sites = []
    for rot, tr in zip(rotations, translations):
        img = [sum(int(rot[i][j]) * point[j] for j in range(3)) + float(tr[i]) for i in range(3)]
        img = [v - math.floor(v) for v in img]
        img = [0.0 if v > 1.0 - SAME else v for v in img]
        if not any(all(abs((u - v + 0.5) % 1.0 - 0.5) < SAME for u, v in zip(img, s)) for s in sites):
            sites.append(img)
    return sites


def main(scn):
    number = int(scn["space_group"])
    hall = default_hall(number)
    sg = spglib.get_spacegroup_type(hall)
    ops = spglib.get_symmetry_from_database(hall)
    back = spglib.get_spacegroup_type_from_symmetry(ops["rotations"], ops["translations"])
    lat = lattice_for(number, float(scn["a"]), float(scn["b_over_a"]), float(scn["c_over_a"]), float(scn["beta_deg"]))
    p = seed_point([float(v) for v in scn["point"]], str(scn["special"]))
    sites = orbit(p, ops["rotations"], ops["translations"])
    cart = (np.array(sites) @ np.array(lat)).tolist() if sites else []
    n_ops = len(ops["rotations"])
    doc = {
        "space_group": {"number": sg.number, "international": sg.international_short, "hall_number": hall,
                        "hall_symbol": sg.hall_symbol, "point_group": sg.pointgroup_international},
        "lattice": lat,
        "points": [{"symbol": str(scn["element"]), "coordinates": s, "cartesian": c} for s, c in zip(sites, cart)],
    }
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "structure.yaml"), "w") as fh:
        yaml.safe_dump(doc, fh, sort_keys=False)
    return {
        "hall_number": hall,
        "hall_symbol": sg.hall_symbol,
        "international_short": sg.international_short,
        "schoenflies": sg.schoenflies,
        "arithmetic_crystal_class": sg.arithmetic_crystal_class_symbol,
        "n_operations": n_ops,
        "n_centring_translations": sum(1 for r in ops["rotations"] if (np.array(r) == np.eye(3, dtype=int)).all()),
        "hall_number_from_symmetry": back.hall_number,
        "seed_point": p,
        "multiplicity": len(sites),
        "site_symmetry_order": n_ops // len(sites),
        "structure": "structure.yaml",
    }
