"""Phonon dispersion and density of states of an fcc metal with ASE's finite-displacement phonon code
(ase.phonons.Phonons with EMT forces: run, read with acoustic sum rule, band_structure along a band path, get_dos
sampled on an energy grid), written to HDF5, as a materials scientist checks lattice dynamics before a
thermal-transport study.

Entry workflow: main(dict) -> dict. Phonons' displacement cache lives in a fresh temporary directory; the HDF5 file
goes to $SWR_ARTIFACTS.
"""

import os
import tempfile

import h5py
import numpy as np
from ase.build import bulk
from ase.calculators.emt import EMT
from ase.data import atomic_numbers, reference_states
from ase.phonons import Phonons

MEV = 1000.0
ZERO_MEV = 1e-3  # |energy| below this is the acoustic zero at Gamma (the sum rule makes it exact up to rounding)


def main(scn):
    el = str(scn["element"])
    a0 = float(reference_states[atomic_numbers[el]]["a"]) * (1.0 + float(scn["strain"]))
    atoms = bulk(el, "fcc", a=a0)
    n = int(scn["supercell"])
    with tempfile.TemporaryDirectory() as tmp:
        ph = Phonons(atoms, EMT(), supercell=(n, n, n), delta=float(scn["delta_A"]), name=os.path.join(tmp, "ph"))
        ph.run()
        ph.read(method=str(scn["method"]), acoustic=True)
        path = atoms.cell.bandpath("GXWKGLUWLK", npoints=int(scn["npoints"]))
        bands = ph.band_structure(path.kpts, verbose=False) * MEV
        bands[np.abs(bands) < ZERO_MEV] = 0.0
        dos = ph.get_dos(kpts=(int(scn["dos_mesh"]),) * 3, verbose=False)
    e_grid = np.linspace(0.0, float(scn["dos_emax_meV"]), 201)
    weights = dos.sample_grid(201, xmin=0.0, xmax=float(scn["dos_emax_meV"]) / MEV, width=float(scn["smearing_meV"]) / MEV)
    dos_values = weights.get_weights() / MEV  # states per meV
    x, xs, labels = path.get_linear_kpoint_axis()
    special = {lab: [float(v) for v in bands[int(np.argmin(np.abs(x - xv)))]] for xv, lab in zip(xs, labels)}
    with h5py.File(os.path.join(os.environ["SWR_ARTIFACTS"], "phonons.h5"), "w") as h5:
        h5.attrs["element"] = el
        h5.attrs["path"] = path.path
        h5.create_dataset("path_x", data=np.asarray(x, dtype=float)).attrs["units"] = "1/Angstrom"
        h5.create_dataset("band_energies", data=np.asarray(bands, dtype=float)).attrs["units"] = "meV"
        h5.create_dataset("dos_energy", data=e_grid).attrs["units"] = "meV"
        h5.create_dataset("dos", data=np.asarray(dos_values, dtype=float)).attrs["units"] = "1/meV"
    return {
        "lattice_constant_A": a0,
        "max_frequency_meV": float(bands.max()),
        "special_point_energies_meV": [{"label": lab, "energies": special[lab]} for lab in sorted(special)],
        "dos_integral": float(np.trapezoid(dos_values, e_grid)),
        "data": "phonons.h5",
    }
