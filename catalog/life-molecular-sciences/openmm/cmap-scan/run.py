"""A backbone-style two-dihedral energy correction map with OpenMM's CMAPTorsionForce (a tabulated (phi, psi) map
with bicubic interpolation), scanned over a (phi, psi) grid built by placing five atoms from internal coordinates, as
a force-field developer checks how well a tabulated correction reproduces its analytic target between grid nodes.

Entry workflow: main(dict) -> dict.
"""

import math

import numpy as np
import openmm
from openmm import unit

BOND_NM, ANGLE_DEG = 0.15, 110.0  # chain geometry (stated in the summary); only the dihedrals matter


def target(phi, psi, a, b, c):
    """Analytic map (kJ/mol), angles in radians."""
    return a * math.cos(phi) + b * math.sin(2 * psi) + c * math.cos(phi - psi)


def place(prev3, torsion):
    """Next atom from the previous three (NeRF): bond BOND_NM, angle ANGLE_DEG, dihedral `torsion` (rad)."""
    a, b, c = prev3
    bc = (c - b) / np.linalg.norm(c - b)
    n = np.cross(b - a, bc)
    n /= np.linalg.norm(n)
    m = np.cross(n, bc)
    theta = math.radians(ANGLE_DEG)
    d2 = BOND_NM * np.array([-math.cos(theta), math.sin(theta) * math.cos(torsion), math.sin(theta) * math.sin(torsion)])
    return c + d2[0] * bc + d2[1] * m + d2[2] * n


def dihedral(p0, p1, p2, p3):
    """IUPAC dihedral angle (rad, in (-pi, pi]): atan2(|b2| b1 . (b2 x b3), (b1 x b2) . (b2 x b3))."""
    b1, b2, b3 = p1 - p0, p2 - p1, p3 - p2
    return math.atan2(float(np.linalg.norm(b2) * np.dot(b1, np.cross(b2, b3))),
                      float(np.dot(np.cross(b1, b2), np.cross(b2, b3))))


def main(scn):
    size = int(scn["map_size"])
    a, b, c = float(scn["A_kJ_mol"]), float(scn["B_kJ_mol"]), float(scn["C_kJ_mol"])
    nodes = [2 * math.pi * i / size for i in range(size)]  # OpenMM: entry (i, j) is at (2 pi i/size, 2 pi j/size)
    energy = [target(nodes[i], nodes[j], a, b, c) for j in range(size) for i in range(size)]  # phi fastest
    system = openmm.System()
    for _ in range(5):
        system.addParticle(12.0)
    cmap = openmm.CMAPTorsionForce()
    cmap.addMap(size, energy)
    cmap.addTorsion(0, 0, 1, 2, 3, 1, 2, 3, 4)
    system.addForce(cmap)
    ctx = openmm.Context(system, openmm.VerletIntegrator(0.001), openmm.Platform.getPlatformByName("Reference"))
    m = int(scn["scan_points"])
    offset = math.radians(float(scn["scan_offset_deg"]))
    scan = [-math.pi + offset + 2 * math.pi * k / m for k in range(m)]
    base = [np.array([0.0, 0.0, 0.0]), np.array([BOND_NM, 0.0, 0.0])]
    th = math.radians(ANGLE_DEG)
    base.append(base[1] + BOND_NM * np.array([-math.cos(th), math.sin(th), 0.0]))
    rows, worst = [], 0.0
    for t1 in scan:
        p3 = place(base, t1)
        for t2 in scan:
            p4 = place([base[1], base[2], p3], t2)
            phi, psi = dihedral(base[0], base[1], base[2], p3), dihedral(base[1], base[2], p3, p4)
            ctx.setPositions(np.array(base + [p3, p4]) * unit.nanometer)
            e = ctx.getState(getEnergy=True).getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
            err = e - target(phi, psi, a, b, c)
            worst = max(worst, abs(err))
            rows.append({"phi_deg": math.degrees(t1), "psi_deg": math.degrees(t2), "energy": e})
    return {
        "scan": rows,
        "max_interpolation_error_kJ_mol": worst,
        "map_min_kJ_mol": min(energy),
        "map_max_kJ_mol": max(energy),
    }
