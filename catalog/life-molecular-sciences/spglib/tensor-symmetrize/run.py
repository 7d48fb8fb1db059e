"""Crystal point group (spglib.get_pointgroup on the rotations of a space group from get_symmetry_from_database) and
the symmetrisation of a measured second-rank property tensor (dielectric, conductivity) by averaging over the point
group, as a physicist imposes Neumann's principle on a noisy measurement and counts its independent components.

Entry workflow: main(dict) -> dict.
"""

import math

import numpy as np
import spglib

A_A, B_A, C_A, BETA_DEG = 4.0, 4.8, 6.0, 105.0  # fixed conventional cell (the point group ignores the lengths)
DEGENERATE = 1e-9  # relative eigenvalue difference below which two principal values are equal by symmetry


def hall_of(number):
    """Lowest Hall number whose space-group type has ITA number `number` (the standard setting)."""
    return next(h for h in range(1, 531) if spglib.get_spacegroup_type(h).number == number)


def lattice_for(number, a, b_ratio, c_ratio, beta_deg):
    """Conventional lattice rows fitting the crystal system (the rules stated in the summary)."""
    b, c = a * b_ratio, a * c_ratio
    if number >= 195:
        b = c = a
    elif number >= 143:
        return np.array([[a, 0.0, 0.0], [-a / 2, a * math.sqrt(3) / 2, 0.0], [0.0, 0.0, c]])
    elif number >= 75:
        b = a
    if number <= 15:
        beta = math.radians(beta_deg)
        return np.array([[a, 0.0, 0.0], [0.0, b, 0.0], [c * math.cos(beta), 0.0, c * math.sin(beta)]])
    return np.array([[a, 0.0, 0.0], [0.0, b, 0.0], [0.0, 0.0, c]])


def cartesian_rotations(rotations, lattice):
    """Fractional rotations W (x' = W x, lattice rows L) as Cartesian matrices L^T W L^-T, without duplicates."""
    lt, lt_inv = lattice.T, np.linalg.inv(lattice.T)
    seen, out = set(), []
    for w in rotations:
        key = tuple(int(v) for v in np.asarray(w).ravel())
        if key not in seen:
            seen.add(key)
            out.append(lt @ np.asarray(w, dtype=float) @ lt_inv)
    return out


def symmetrize(t, rots):
    return sum(r @ t @ r.T for r in rots) / len(rots)


def main(scn):
    number = int(scn["space_group"])
    ops = spglib.get_symmetry_from_database(hall_of(number))
    symbol, pg_number, _ = spglib.get_pointgroup(ops["rotations"])
    lattice = lattice_for(number, A_A, B_A / A_A, C_A / A_A, BETA_DEG)
    rots = cartesian_rotations(ops["rotations"], lattice)
    rng = np.random.default_rng(int(scn["seed"]))
    noise = rng.normal(0.0, float(scn["noise"]), size=(3, 3))
    general = bool(scn["antisymmetric"])
    measured = float(scn["mean_value"]) * np.eye(3) + (noise if general else 0.5 * (noise + noise.T))
    sym = symmetrize(measured, rots)
    basis = []
    for i in range(3):
        for j in range(3 if general else i + 1):
            e = np.zeros((3, 3))
            e[i, j] = 1.0
            if not general:
                e[j, i] = 1.0
            basis.append(symmetrize(e, rots).ravel())
    n_indep = int(np.linalg.matrix_rank(np.array(basis), tol=1e-9))
    ev = np.linalg.eigvalsh(0.5 * (sym + sym.T))
    scale = float(np.max(np.abs(ev)))
    distinct = 1 + sum(1 for k in range(2) if ev[k + 1] - ev[k] > DEGENERATE * scale)
    return {
        "point_group": symbol,
        "point_group_number": int(pg_number),
        "n_point_operations": len(rots),
        "measured_tensor": measured.tolist(),
        "symmetrized_tensor": [[round(float(v), 12) + 0.0 for v in row] for row in sym],
        "principal_values": [float(v) for v in ev],
        "optical_class": {1: "isotropic", 2: "uniaxial", 3: "biaxial"}[distinct],
        "n_independent_components": n_indep,
        "antisymmetric_part_norm": round(float(np.linalg.norm(0.5 * (sym - sym.T))), 12) + 0.0,
        "removed_norm": float(np.linalg.norm(measured - sym)),
    }
