"""A harmonic bead chain integrated with OpenMM's CustomIntegrator (a splitting scheme written as per-DOF update
expressions, global variables and a per-DOF sum), as an integrator developer compares the energy error of velocity
Verlet against position Verlet; the energy time series is written to HDF5 and the chain's normal-mode frequencies are
computed from its stiffness matrix.

Entry workflow: main(dict) -> dict; the HDF5 file goes to $SWR_ARTIFACTS.
"""

import math
import os

import h5py
import numpy as np
import openmm
from openmm import unit


def integrator(scheme, dt_ps):
    """CustomIntegrator for the scheme, counting steps and accumulating the kinetic energy after each step."""
    it = openmm.CustomIntegrator(dt_ps)
    it.addGlobalVariable("nsteps", 0)
    it.addGlobalVariable("ke_sum", 0)
    it.addUpdateContextState()
    if scheme == "velocity_verlet":
        it.addComputePerDof("v", "v+0.5*dt*f/m")
        it.addComputePerDof("x", "x+dt*v")
        it.addComputePerDof("v", "v+0.5*dt*f/m")
    else:  # position Verlet: drift half, kick, drift half
        it.addComputePerDof("x", "x+0.5*dt*v")
        it.addComputePerDof("v", "v+dt*f/m")
        it.addComputePerDof("x", "x+0.5*dt*v")
    it.addComputeSum("ke", "0.5*m*v*v")
    it.addComputeGlobal("ke_sum", "ke_sum+ke")
    it.addComputeGlobal("nsteps", "nsteps+1")
    return it


def main(scn):
    n, k, r0, mass = int(scn["n_beads"]), float(scn["k_kJ_mol_nm2"]), float(scn["r0_nm"]), float(scn["mass_amu"])
    system = openmm.System()
    bonds = openmm.HarmonicBondForce()
    for i in range(n):
        system.addParticle(mass)
        if i:
            bonds.addBond(i - 1, i, r0, k)
    system.addForce(bonds)
    dt = float(scn["timestep_fs"]) * 1e-3
    it = integrator(str(scn["scheme"]), dt)
    ctx = openmm.Context(system, it, openmm.Platform.getPlatformByName("Reference"))
    x = [[i * r0, 0.0, 0.0] for i in range(n)]
    x[0][0] -= float(scn["stretch_nm"])
    ctx.setPositions(x * unit.nanometer)
    every, n_steps = int(scn["report_interval"]), int(scn["n_steps"])
    t, etot, ekin, length = [], [], [], []
    for rep in range(n_steps // every + 1):
        if rep:
            it.step(every)
        st = ctx.getState(getEnergy=True, getPositions=True)
        pos = st.getPositions(asNumpy=True).value_in_unit(unit.nanometer)
        t.append(st.getTime().value_in_unit(unit.picosecond))
        ek = st.getKineticEnergy().value_in_unit(unit.kilojoule_per_mole)
        ekin.append(ek)
        etot.append(ek + st.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole))
        length.append(float(pos[-1][0] - pos[0][0]))
    steps_done = int(round(it.getGlobalVariableByName("nsteps")))
    ke_mean = it.getGlobalVariableByName("ke_sum") / steps_done
    # Normal modes of the free chain: eigenvalues of the stiffness matrix (path-graph Laplacian) times k / m.
    lap = np.diag([1.0] + [2.0] * (n - 2) + [1.0]) - np.eye(n, k=1) - np.eye(n, k=-1)
    omega = np.sqrt(np.clip(np.linalg.eigvalsh(lap * k / mass), 0.0, None))
    etot = np.array(etot)
    with h5py.File(os.path.join(os.environ["SWR_ARTIFACTS"], "chain.h5"), "w") as h5:
        h5.attrs["scheme"] = str(scn["scheme"])
        for name, data, units in (("time", t, "ps"), ("total_energy", etot, "kJ/mol"),
                                  ("kinetic_energy", ekin, "kJ/mol"), ("end_to_end", length, "nm")):
            h5.create_dataset(name, data=np.asarray(data, dtype=float)).attrs["units"] = units
    return {
        "steps_done": steps_done,
        "initial_energy_kJ_mol": float(etot[0]),
        "max_energy_error_kJ_mol": float(np.max(np.abs(etot - etot[0]))),
        "mean_kinetic_per_step_kJ_mol": float(ke_mean),
        "mode_frequencies_THz": [float(w / (2 * math.pi)) for w in omega[1:]],
        "highest_mode_steps_per_period": float(2 * math.pi / omega[-1] / dt),
        "final_end_to_end_nm": length[-1],
        "series": "chain.h5",
    }
