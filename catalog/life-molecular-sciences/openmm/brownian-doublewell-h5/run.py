"""Overdamped Brownian dynamics of independent particles in a symmetric double well with OpenMM
(BrownianIntegrator, CustomExternalForce with global parameters, Reference platform), as in a study of thermally
activated barrier crossing (Kramers rate); the x trajectories and energies are written to HDF5.

Entry workflow: main(dict) -> dict; the HDF5 file goes to $SWR_ARTIFACTS.
"""

import os

import h5py
import numpy as np
import openmm
from openmm import unit

ENERGY = "Eb*((x/x0)^2-1)^2 + 0.5*kperp*(y^2+z^2)"


def build(n, mass, barrier, x0, kperp):
    """A System of n non-interacting particles in the double well (all interactions are the external force)."""
    system = openmm.System()
    force = openmm.CustomExternalForce(ENERGY)
    force.addGlobalParameter("Eb", barrier)
    force.addGlobalParameter("x0", x0)
    force.addGlobalParameter("kperp", kperp)
    for i in range(n):
        system.addParticle(mass)
        force.addParticle(i, [])
    system.addForce(force)
    return system


def main(scn):
    n = int(scn["n_particles"])
    x0 = float(scn["x0_nm"])
    system = build(n, float(scn["mass_amu"]), float(scn["barrier_kJ_mol"]), x0, float(scn["k_perp_kJ_mol_nm2"]))
    integ = openmm.BrownianIntegrator(float(scn["temperature_K"]) * unit.kelvin,
                                      float(scn["friction_per_ps"]) / unit.picosecond,
                                      float(scn["timestep_fs"]) * unit.femtosecond)
    integ.setRandomNumberSeed(int(scn["seed"]))
    ctx = openmm.Context(system, integ, openmm.Platform.getPlatformByName("Reference"))
    ctx.setPositions(np.tile([-x0, 0.0, 0.0], (n, 1)) * unit.nanometer)
    every, n_reports = int(scn["report_interval"]), int(scn["n_reports"])
    xs, times, epots = [], [], []
    for k in range(n_reports + 1):
        if k:
            integ.step(every)
        st = ctx.getState(getPositions=True, getEnergy=True)
        pos = st.getPositions(asNumpy=True).value_in_unit(unit.nanometer)
        xs.append(pos[:, 0].copy())
        times.append(st.getTime().value_in_unit(unit.picosecond))
        epots.append(st.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole))
    x = np.array(xs)
    side = np.sign(x)
    crossings = int(np.sum(side[1:] != side[:-1]))
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "doublewell.h5")
    with h5py.File(path, "w") as h5:
        h5.attrs["potential"] = ENERGY
        h5.attrs["temperature_K"] = float(scn["temperature_K"])
        for name, data, units in (("time", np.array(times), "ps"), ("x", x, "nm"),
                                  ("potential_energy", np.array(epots), "kJ/mol")):
            ds = h5.create_dataset(name, data=data)
            ds.attrs["units"] = units
    return {
        "n_frames": len(times),
        "final_time_ps": times[-1],
        "fraction_right_final": float(np.mean(x[-1] > 0)),
        "fraction_right_time_avg": float(np.mean(x[1:] > 0)),
        "sampled_sign_changes": crossings,
        "mean_x_final_nm": float(np.mean(x[-1])),
        "mean_potential_energy_kJ_mol": float(np.mean(epots[1:])),
        "trajectory": "doublewell.h5",
    }
