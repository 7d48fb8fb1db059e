"""Microcanonical molecular dynamics of a thermalised fcc metal crystal with ASE: EMT forces, velocity Verlet
integration (ase.md.verlet), and the trajectory written in the AMBER NetCDF convention by
ase.io.netcdftrajectory, as a materials modeller archives an MD run for VMD or MDAnalysis.

Entry workflow: main(dict) -> dict; the trajectory goes to $SWR_ARTIFACTS.
"""

import os

import numpy as np
from ase import units
from ase.build import bulk
from ase.calculators.emt import EMT
from ase.data import atomic_numbers, reference_states
from ase.io.netcdftrajectory import NetCDFTrajectory
from ase.md.velocitydistribution import Stationary
from ase.md.verlet import VelocityVerlet


def main(scn):
    el = str(scn["element"])
    a0 = float(reference_states[atomic_numbers[el]]["a"])
    rep = int(scn["repeat"])
    atoms = bulk(el, "fcc", a=a0, cubic=True).repeat((rep, rep, rep))
    atoms.calc = EMT()
    kt = float(scn["temperature_K"]) * units.kB
    rng = np.random.default_rng(int(scn["seed"]))
    xi = rng.standard_normal((len(atoms), 3))
    atoms.set_momenta(xi * np.sqrt(atoms.get_masses() * kt)[:, None])
    Stationary(atoms)
    every = int(scn["write_interval"])
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "md.nc")
    traj = NetCDFTrajectory(path, mode="w", atoms=atoms)
    dyn = VelocityVerlet(atoms, timestep=float(scn["timestep_fs"]) * units.fs)
    log = []

    def record():
        epot, ekin = atoms.get_potential_energy(), atoms.get_kinetic_energy()
        log.append({"step": dyn.nsteps, "epot_eV": epot, "ekin_eV": ekin,
                    "temperature_K": atoms.get_temperature()})

    dyn.attach(record, interval=every)
    dyn.attach(traj.write, interval=every)
    dyn.run(int(scn["n_steps"]))
    traj.close()
    etot = np.array([r["epot_eV"] + r["ekin_eV"] for r in log])
    return {
        "n_atoms": len(atoms),
        "n_frames": len(log),
        "frames": log,
        "total_energy_drift_eV": float(etot[-1] - etot[0]),
        "max_total_energy_deviation_eV": float(np.max(np.abs(etot - etot[0]))),
        "mean_temperature_K": float(np.mean([r["temperature_K"] for r in log])),
        "final_rms_displacement_A": float(np.sqrt(np.mean(np.sum(
            (atoms.get_positions() - bulk(el, "fcc", a=a0, cubic=True).repeat((rep, rep, rep)).get_positions()) ** 2,
            axis=1)))),
        "trajectory": "md.nc",
    }
