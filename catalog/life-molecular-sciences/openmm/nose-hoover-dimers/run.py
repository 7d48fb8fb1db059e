"""Canonical (NVT) dynamics of a dilute gas of harmonic diatomic molecules with OpenMM's NoseHooverIntegrator
(Nose-Hoover chain with multiple-time-step and Yoshida-Suzuki chain propagation, heat-bath energy, Reference
platform), as a simulator checks that a deterministic thermostat heats a cold sample to its target and conserves
its extended energy.

Entry workflow: main(dict) -> dict.
"""

import tomllib
from pathlib import Path

import numpy as np
import openmm
from openmm import unit

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
KB = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]["KB_KJ_MOL_K"]


def main(scn):
    n = int(scn["n_molecules"])
    r0, k = float(scn["bond_nm"]), float(scn["k_kJ_mol_nm2"])
    system = openmm.System()
    bonds = openmm.HarmonicBondForce()
    rng = np.random.default_rng(int(scn["seed"]))
    centres = rng.uniform(0.0, 5.0, size=(n, 3))
    axes = rng.normal(size=(n, 3))
    axes /= np.linalg.norm(axes, axis=1)[:, None]
    positions = []
    for i in range(n):
        system.addParticle(float(scn["mass_amu"]))
        system.addParticle(float(scn["mass_amu"]))
        bonds.addBond(2 * i, 2 * i + 1, r0, k)
        positions += [centres[i] - 0.5 * r0 * axes[i], centres[i] + 0.5 * r0 * axes[i]]
    system.addForce(bonds)
    t_target = float(scn["temperature_K"])
    integ = openmm.NoseHooverIntegrator(t_target, float(scn["collision_per_ps"]), float(scn["timestep_fs"]) * 1e-3,
                                        int(scn["chain_length"]), int(scn["n_mts"]), int(scn["yoshida_suzuki"]))
    ctx = openmm.Context(system, integ, openmm.Platform.getPlatformByName("Reference"))
    ctx.setPositions(np.array(positions) * unit.nanometer)
    ctx.setVelocitiesToTemperature(float(scn["initial_temperature_K"]), int(scn["seed"]))
    dof = 6 * n
    temps, conserved, bath = [], [], []
    for rep in range(int(scn["n_reports"]) + 1):
        if rep:
            integ.step(int(scn["report_interval"]))
        st = ctx.getState(getEnergy=True)
        ke = st.getKineticEnergy().value_in_unit(unit.kilojoule_per_mole)
        pe = st.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
        # The chain starts at rest (zero heat-bath energy); OpenMM 8.6's computeHeatBathEnergy crashes before a step.
        hb = integ.computeHeatBathEnergy().value_in_unit(unit.kilojoule_per_mole) if rep else 0.0
        temps.append(2.0 * ke / (dof * KB))
        conserved.append(ke + pe + hb)
        bath.append(hb)
    conserved = np.array(conserved)
    half = len(temps) // 2
    return {
        "degrees_of_freedom": dof,
        "initial_temperature_K": temps[0],
        "final_temperature_K": temps[-1],
        "mean_temperature_second_half_K": float(np.mean(temps[half:])),
        "heat_bath_energy_final_kJ_mol": bath[-1],
        "conserved_energy_drift_kJ_mol": float(conserved[-1] - conserved[0]),
        "temperatures_K": temps,
    }
