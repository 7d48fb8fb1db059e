"""Adsorption site, finite-difference vibrations and harmonic thermochemistry of a metal adatom on an fcc surface with
ASE (ase.build.add_adsorbate, ase.constraints.FixAtoms, ase.optimize.FIRE, ase.vibrations.Vibrations,
ase.thermochemistry.HarmonicThermo) under EMT, as a surface scientist tells a stable site from a saddle point and
estimates the adatom's vibrational free energy.

Entry workflow: main(dict) -> dict. Vibrations' displacement cache lives in a fresh temporary directory.
"""

import os
import tempfile

from ase.build import add_adsorbate, fcc100, fcc111
from ase.calculators.emt import EMT
from ase.constraints import FixAtoms
from ase.optimize import FIRE
from ase.thermochemistry import HarmonicThermo
from ase.vibrations import Vibrations

SITES = {"fcc100": {"ontop": "ontop", "hollow": "hollow", "alternate": "bridge"},
         "fcc111": {"ontop": "ontop", "hollow": "fcc", "alternate": "hcp"}}
FMAX = 1e-5  # eV/A: FIRE stops when the adatom's largest force component is below this


def main(scn):
    el, surface = str(scn["element"]), str(scn["surface"])
    build = fcc100 if surface == "fcc100" else fcc111
    slab = build(el, size=(2, 2, 3), vacuum=6.0)
    add_adsorbate(slab, el, float(scn["height_A"]), SITES[surface][str(scn["site"])])
    n_slab = len(slab) - 1
    slab.set_constraint(FixAtoms(indices=list(range(n_slab))))
    slab.calc = EMT()
    e_start = slab.get_potential_energy()
    opt = FIRE(slab, logfile=None)
    opt.run(fmax=FMAX, steps=500)
    e_relaxed = slab.get_potential_energy()
    height = float(slab.positions[-1, 2] - slab.positions[:n_slab, 2].max())
    with tempfile.TemporaryDirectory() as tmp:
        vib = Vibrations(slab, indices=[n_slab], name=os.path.join(tmp, "vib"),
                         delta=float(scn["delta_A"]), nfree=int(scn["nfree"]))
        vib.run()
        energies = vib.get_energies()
    real = sorted(float(e.real) for e in energies if abs(e.imag) < 1e-12 and e.real > 0)
    imag = sorted(float(e.imag) for e in energies if abs(e.imag) >= 1e-12)
    t = float(scn["temperature_K"])
    thermo = HarmonicThermo(vib_energies=real, potentialenergy=e_relaxed) if real else None
    return {
        "energy_start_eV": float(e_start),
        "energy_relaxed_eV": float(e_relaxed),
        "height_above_top_layer_A": height,
        "real_mode_energies_meV": [1000.0 * e for e in real],
        "imaginary_mode_energies_meV": [1000.0 * e for e in imag],
        "n_imaginary": len(imag),
        "helmholtz_eV": float(thermo.get_helmholtz_energy(t, verbose=False)) if thermo else None,
        "vibrational_entropy_eV_K": float(thermo.get_entropy(t, verbose=False)) if thermo else None,
    }
