"""Variable-cell relaxation of a distorted metal crystal under hydrostatic pressure with ASE (ase.filters
UnitCellFilter with scalar_pressure and optionally hydrostatic_strain, ase.optimize.LBFGS, Atoms.get_stress, Cell.cellpar) and EMT,
as a materials scientist finds the equilibrium lattice and enthalpy of a phase at a given pressure.

Entry workflow: main(dict) -> dict.
"""

import numpy as np
from ase.build import bulk
from ase.calculators.emt import EMT
from ase.data import atomic_numbers, reference_states
from ase.filters import UnitCellFilter
from ase.optimize import LBFGS
from ase.units import GPa

FMAX = 1e-5  # eV/A (and eV per cell for the cell degrees of freedom): the LBFGS convergence criterion
MAX_STEPS = 400


def main(scn):
    el = str(scn["element"])
    a0 = float(reference_states[atomic_numbers[el]]["a"])
    atoms = bulk(el, "fcc", a=a0, cubic=True)
    e = np.array([float(v) for v in scn["strain_voigt"]])  # xx, yy, zz, yz, xz, xy
    strain = np.array([[e[0], e[5] / 2, e[4] / 2], [e[5] / 2, e[1], e[3] / 2], [e[4] / 2, e[3] / 2, e[2]]])
    atoms.set_cell(atoms.cell @ (np.eye(3) + strain), scale_atoms=True)
    atoms.positions[0] += np.array([float(v) for v in scn["displacement_A"]])
    atoms.calc = EMT()
    e_start = atoms.get_potential_energy()
    p = float(scn["pressure_GPa"]) * GPa
    filt = UnitCellFilter(atoms, scalar_pressure=p, hydrostatic_strain=bool(scn["hydrostatic_strain"]))
    LBFGS(filt, logfile=None).run(fmax=FMAX, steps=MAX_STEPS)
    a, b, c, alpha, beta, gamma = (float(v) for v in atoms.cell.cellpar())
    energy = float(atoms.get_potential_energy())
    volume = float(atoms.get_volume())
    stress = atoms.get_stress(voigt=True) / GPa
    return {
        "energy_start_eV": float(e_start),
        "energy_eV": energy,
        "enthalpy_eV": energy + p * volume,
        "volume_per_atom_A3": volume / len(atoms),
        "cellpar": {"a": a, "b": b, "c": c, "alpha": alpha, "beta": beta, "gamma": gamma},
        "mean_normal_stress_GPa": float(np.mean(stress[:3])),
    }
