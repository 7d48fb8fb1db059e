"""Generalized-Born implicit-solvent energies of a set of ions with OpenMM (GBSAOBCForce with and without the ACE
surface-area term, NonbondedForce for the vacuum Coulomb energy, Reference platform), as in a continuum
electrostatics estimate of solvation free energies; the isolated-ion limit is checked against the Born formula.

Entry workflow: main(dict) -> dict.
"""

import tomllib
from pathlib import Path

import numpy as np
import openmm
from openmm import unit

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
COULOMB = CONSTANTS["COULOMB"]["value"]  # kJ mol^-1 nm e^-2, OpenMM's ONE_4PI_EPS0
OFFSET = CONSTANTS["OFFSET"]["value"]  # nm, OpenMM's GB/OBC dielectric offset


def energies(pos, charges, radius, scale, eps_solvent, eps_solute, sa):
    """(GB energy, Coulomb energy) in kJ/mol, each force alone in its own group."""
    system = openmm.System()
    gb = openmm.GBSAOBCForce()
    gb.setNonbondedMethod(openmm.GBSAOBCForce.NoCutoff)
    gb.setSolventDielectric(eps_solvent)
    gb.setSoluteDielectric(eps_solute)
    gb.setSurfaceAreaEnergy(0.0 if not sa else gb.getSurfaceAreaEnergy())
    nb = openmm.NonbondedForce()
    nb.setNonbondedMethod(openmm.NonbondedForce.NoCutoff)
    for q in charges:
        system.addParticle(20.0)
        gb.addParticle(q, radius, scale)
        nb.addParticle(q, 0.3, 0.0)
    gb.setForceGroup(0)
    nb.setForceGroup(1)
    system.addForce(gb)
    system.addForce(nb)
    ctx = openmm.Context(system, openmm.VerletIntegrator(0.001), openmm.Platform.getPlatformByName("Reference"))
    ctx.setPositions(pos * unit.nanometer)
    out = [ctx.getState(getEnergy=True, groups={g}).getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
           for g in (0, 1)]
    return out[0], out[1]


def main(scn):
    n, q = int(scn["n_ions"]), float(scn["charge_e"])
    rng = np.random.default_rng(int(scn["seed"]))
    pos = rng.uniform(0.0, float(scn["box_nm"]), size=(n, 3))
    charges = [q if i % 2 == 0 else -q for i in range(n)]
    args = (float(scn["radius_nm"]), float(scn["overlap_scale"]), float(scn["solvent_dielectric"]),
            float(scn["solute_dielectric"]))
    e_gb, e_coul = energies(pos, charges, *args, sa=False)
    e_gb_sa, _ = energies(pos, charges, *args, sa=True)
    e_one, _ = energies(pos[:1], charges[:1], *args, sa=False)
    born = -0.5 * COULOMB * (1.0 / args[3] - 1.0 / args[2]) * q * q / (args[0] - OFFSET)
    return {
        "gb_polar_energy_kJ_mol": e_gb,
        "surface_area_energy_kJ_mol": e_gb_sa - e_gb,
        "coulomb_energy_kJ_mol": e_coul,
        "polar_per_ion_kJ_mol": e_gb / n,
        "isolated_ion_gb_kJ_mol": e_one,
        "isolated_ion_born_kJ_mol": born,
        "min_pair_distance_nm": float(min(np.linalg.norm(pos[i] - pos[j]) for i in range(n) for j in range(i))),
    }
