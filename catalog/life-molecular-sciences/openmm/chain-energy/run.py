"""Energy decomposition and forces of a bead-spring chain force field built in code, OpenMM Reference platform."""

import json
import math
import sys

import numpy as np
import openmm
from openmm import unit

PLATFORM = openmm.Platform.getPlatformByName("Reference")
GROUPS = ["bond", "angle", "torsion", "nonbonded", "restraint"]


def chain_positions(rng, n, r0, min_dist):
    """Self-avoiding random walk: each step a random unit vector times r0*(1 + 0.05 N(0,1)); up to 100 redraws
    of a step whose new bead lies closer than min_dist to any bead three or more positions back (the last draw is
    kept)."""
    pts = [np.zeros(3)]
    for i in range(1, n):
        for _ in range(100):
            v = rng.normal(size=3)
            v /= np.linalg.norm(v)
            p = pts[-1] + v * r0 * (1.0 + 0.05 * rng.normal())
            if i < 3 or float(np.linalg.norm(np.array(pts[:-2]) - p, axis=1).min()) >= min_dist:
                break
        pts.append(p)
    return np.array(pts)


def main(scn):
    n = int(scn["n_beads"])
    r0 = float(scn["bond_length_nm"])
    sigma = float(scn["sigma_nm"])
    rng = np.random.default_rng(int(scn["seed"]))
    xyz = chain_positions(rng, n, r0, 0.8 * sigma)

    system = openmm.System()
    for _ in range(n):
        system.addParticle(float(scn["mass_amu"]))
    bonds = openmm.HarmonicBondForce()
    for i in range(n - 1):
        bonds.addBond(i, i + 1, r0, float(scn["k_bond"]))
    angles = openmm.HarmonicAngleForce()
    theta0 = math.radians(float(scn["theta0_deg"]))
    for i in range(n - 2):
        angles.addAngle(i, i + 1, i + 2, theta0, float(scn["k_angle"]))
    tors = openmm.PeriodicTorsionForce()
    for i in range(n - 3):
        tors.addTorsion(i, i + 1, i + 2, i + 3, int(scn["torsion_periodicity"]),
                        math.radians(float(scn["torsion_phase_deg"])), float(scn["k_torsion"]))
    nb = openmm.NonbondedForce()
    nb.setNonbondedMethod(openmm.NonbondedForce.NoCutoff)
    q = float(scn["charge"])
    for i in range(n):
        nb.addParticle(q if i % 2 == 0 else -q, sigma, float(scn["epsilon_kJmol"]))
    nb.createExceptionsFromBonds([(i, i + 1) for i in range(n - 1)], float(scn["coulomb14scale"]),
                                 float(scn["lj14scale"]))
    restr = openmm.CustomExternalForce("0.5*kr*(x^2+y^2+z^2)")
    restr.addGlobalParameter("kr", float(scn["k_restraint"]))
    for i in range(n):
        restr.addParticle(i, [])
    for g, force in enumerate([bonds, angles, tors, nb, restr]):
        force.setForceGroup(g)
        system.addForce(force)

    ctx = openmm.Context(system, openmm.VerletIntegrator(0.001), PLATFORM)
    ctx.setPositions([openmm.Vec3(*map(float, p)) for p in xyz])
    kjmol = unit.kilojoule_per_mole
    terms = {name: float(ctx.getState(getEnergy=True, groups={g}).getPotentialEnergy().value_in_unit(kjmol))
             for g, name in enumerate(GROUPS)}
    st = ctx.getState(getEnergy=True, getForces=True)
    f = np.array(st.getForces(asNumpy=True).value_in_unit(kjmol / unit.nanometer))
    fn = np.linalg.norm(f, axis=1)
    com = xyz.mean(axis=0)
    return {
        "energy_terms_kJmol": terms,
        "total_energy_kJmol": float(st.getPotentialEnergy().value_in_unit(kjmol)),
        "n_exceptions": int(nb.getNumExceptions()),
        "max_force_kJmol_nm": float(fn.max()),
        "max_force_bead": int(np.argmax(fn)),
        "rms_force_kJmol_nm": float(np.sqrt((fn ** 2).mean())),
        "net_force_norm_kJmol_nm": float(np.linalg.norm(f.sum(axis=0))),
        "end_to_end_nm": float(np.linalg.norm(xyz[-1] - xyz[0])),
        "radius_of_gyration_nm": float(np.sqrt(((xyz - com) ** 2).sum(axis=1).mean())),
        "end_bead_forces_kJmol_nm": [[float(x) for x in f[0]], [float(x) for x in f[-1]]],
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
