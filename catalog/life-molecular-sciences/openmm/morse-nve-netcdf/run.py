"""Microcanonical vibration of a Morse-bonded diatomic molecule with OpenMM (CustomBondForce with per-bond
parameters, VerletIntegrator, Reference platform), as in a study of anharmonic vibrational frequencies; the bond
length and energies are written as a NetCDF time series.

Entry workflow: main(dict) -> dict; the NetCDF file goes to $SWR_ARTIFACTS.
"""

import math
import os

import netCDF4
import numpy as np
import openmm
from openmm import unit

MORSE = "D*(1-exp(-alpha*(r-r0)))^2"


def main(scn):
    m1, m2 = float(scn["mass1_amu"]), float(scn["mass2_amu"])
    depth, alpha, r0 = float(scn["well_depth_kJ_mol"]), float(scn["alpha_per_nm"]), float(scn["r0_nm"])
    system = openmm.System()
    system.addParticle(m1)
    system.addParticle(m2)
    bond = openmm.CustomBondForce(MORSE)
    for name in ("D", "alpha", "r0"):
        bond.addPerBondParameter(name)
    bond.addBond(0, 1, [depth, alpha, r0])
    system.addForce(bond)
    dt = float(scn["timestep_fs"]) * 1e-3
    integ = openmm.VerletIntegrator(dt * unit.picosecond)
    ctx = openmm.Context(system, integ, openmm.Platform.getPlatformByName("Reference"))
    r_start = r0 * (1.0 + float(scn["stretch"]))
    ctx.setPositions([openmm.Vec3(0, 0, 0), openmm.Vec3(r_start, 0, 0)] * unit.nanometer)
    ctx.setVelocities([openmm.Vec3(0, 0, 0)] * 2 * (unit.nanometer / unit.picosecond))
    n_steps, every = int(scn["n_steps"]), int(scn["report_interval"])
    t, r, epot, ekin = [], [], [], []
    for k in range(n_steps // every + 1):
        if k:
            integ.step(every)
        st = ctx.getState(getPositions=True, getEnergy=True)
        pos = st.getPositions(asNumpy=True).value_in_unit(unit.nanometer)
        t.append(st.getTime().value_in_unit(unit.picosecond))
        r.append(float(np.linalg.norm(pos[1] - pos[0])))
        epot.append(st.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole))
        ekin.append(st.getKineticEnergy().value_in_unit(unit.kilojoule_per_mole))
    r, etot = np.array(r), np.array(epot) + np.array(ekin)
    mu = m1 * m2 / (m1 + m2)
    omega = alpha * math.sqrt(2.0 * depth / mu)  # rad/ps with kJ/mol, amu, nm
    # Periods from successive downward crossings of r0 (linear interpolation between reads)
    down = [t[i] + (t[i + 1] - t[i]) * (r[i] - r0) / (r[i] - r[i + 1])
            for i in range(len(r) - 1) if r[i] > r0 >= r[i + 1]]
    period = float(np.mean(np.diff(down))) if len(down) > 1 else None
    with netCDF4.Dataset(os.path.join(os.environ["SWR_ARTIFACTS"], "morse.nc"), "w", format="NETCDF4_CLASSIC") as nc:
        nc.title = "Morse diatomic NVE trajectory"
        nc.createDimension("time", len(t))
        for name, data, units in (("time", t, "ps"), ("bond_length", r, "nm"), ("potential_energy", epot, "kJ/mol"),
                                  ("kinetic_energy", ekin, "kJ/mol")):
            var = nc.createVariable(name, "f8", ("time",))
            var.units = units
            var[:] = np.asarray(data)
    return {
        "harmonic_period_ps": 2.0 * math.pi / omega,
        "measured_period_ps": period,
        "n_downward_crossings": len(down),
        "r_min_nm": float(r.min()),
        "r_max_nm": float(r.max()),
        "initial_energy_kJ_mol": float(etot[0]),
        "max_energy_error_kJ_mol": float(np.max(np.abs(etot - etot[0]))),
        "trajectory": "morse.nc",
    }
