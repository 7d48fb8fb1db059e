"""Lennard-Jones fluid on OpenMM's Reference platform: seeded Maxwell-Boltzmann velocities, Langevin dynamics."""

import json
import sys
import tomllib
from pathlib import Path

import numpy as np
import openmm
from openmm import unit


# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]

PLATFORM = openmm.Platform.getPlatformByName("Reference")
KB = CONSTANTS["KB_KJ_MOL_K"]  # kJ/mol/K (openmm.unit.MOLAR_GAS_CONSTANT_R)


def main(scn):
    n_side = int(scn["n_side"])
    n = n_side ** 3
    sigma = float(scn["sigma_nm"])
    eps = float(scn["epsilon_kJmol"])
    mass = float(scn["mass_amu"])
    rho = float(scn["reduced_density"])
    temp = float(scn["temperature_K"])
    box = (n / rho) ** (1.0 / 3.0) * sigma
    cutoff = min(2.5 * sigma, 0.49 * box)

    system = openmm.System()
    system.setDefaultPeriodicBoxVectors(openmm.Vec3(box, 0, 0), openmm.Vec3(0, box, 0), openmm.Vec3(0, 0, box))
    nb = openmm.NonbondedForce()
    nb.setNonbondedMethod(openmm.NonbondedForce.CutoffPeriodic)
    nb.setCutoffDistance(cutoff)
    nb.setUseDispersionCorrection(bool(scn["dispersion_correction"]))
    nb.setUseSwitchingFunction(False)
    for _ in range(n):
        system.addParticle(mass)
        nb.addParticle(0.0, sigma, eps)
    system.addForce(nb)

    spacing = box / n_side
    pos = [openmm.Vec3((i + 0.5) * spacing, (j + 0.5) * spacing, (k + 0.5) * spacing)
           for i in range(n_side) for j in range(n_side) for k in range(n_side)]
    seed = int(scn["seed"])
    integ = openmm.LangevinMiddleIntegrator(temp, float(scn["friction_per_ps"]), float(scn["timestep_fs"]) / 1000.0)
    integ.setRandomNumberSeed(seed)
    ctx = openmm.Context(system, integ, PLATFORM)
    ctx.setPositions(pos)
    ctx.setVelocitiesToTemperature(temp, seed)

    steps = int(scn["steps"])
    chunk = int(scn["report_interval"])
    start = np.array(ctx.getState(getPositions=True).getPositions(asNumpy=True).value_in_unit(unit.nanometer))
    records = []
    done = 0
    while done < steps:
        k = min(chunk, steps - done)
        integ.step(k)
        done += k
        st = ctx.getState(getEnergy=True)
        pe = st.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
        ke = st.getKineticEnergy().value_in_unit(unit.kilojoule_per_mole)
        records.append({"step": done, "potential_kJmol": float(pe), "kinetic_kJmol": float(ke)})
    st = ctx.getState(getPositions=True, getForces=True, enforcePeriodicBox=False)
    end = np.array(st.getPositions(asNumpy=True).value_in_unit(unit.nanometer))
    f = np.array(st.getForces(asNumpy=True).value_in_unit(unit.kilojoule_per_mole / unit.nanometer))
    msd = float(((end - start) ** 2).sum(axis=1).mean())
    kes = [r["kinetic_kJmol"] for r in records]
    dof = 3 * n
    return {
        "n_particles": n,
        "box_nm": float(box),
        "cutoff_nm": float(cutoff),
        "trajectory": records,
        "final_temperature_K": float(2.0 * kes[-1] / (dof * KB)),
        "mean_temperature_K": float(2.0 * float(np.mean(kes)) / (dof * KB)),
        "mean_potential_per_particle_kJmol": float(np.mean([r["potential_kJmol"] for r in records]) / n),
        "msd_nm2": msd,
        "final_max_force_kJmol_nm": float(np.linalg.norm(f, axis=1).max()),
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
