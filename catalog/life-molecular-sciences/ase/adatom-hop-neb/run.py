"""Nudged-elastic-band estimate of the hopping barrier of a metal adatom between neighbouring hollow sites of an
fcc(100) surface with ASE (ase.mep.NEB with linear interpolation and optional climbing image, ase.optimize.MDMin, FixAtoms,
EMT), as a surface scientist estimates a diffusion barrier.

Entry workflow: main(dict) -> dict.
"""

import numpy as np
from ase.build import add_adsorbate, fcc100
from ase.calculators.emt import EMT
from ase.constraints import FixAtoms
from ase.mep import NEB
from ase.optimize import MDMin

TIE = 1e-9  # eV: images this close to the highest energy tie (mirror images of a symmetric band differ by rounding)
START, END = (0.5, 0.5), (1.5, 0.5)  # neighbouring hollow sites, in units of the 1x1 surface cell


def endpoint(el, layers, frac, height):
    """2x2xlayers fcc(100) slab (vacuum 6 A) with the adatom at in-plane fractional position `frac` of the 1x1 cell."""
    slab = fcc100(el, size=(2, 2, layers), vacuum=6.0)
    cell = slab.info["adsorbate_info"]["cell"]
    add_adsorbate(slab, el, height, position=tuple(np.dot(frac, cell)))
    slab.set_constraint(FixAtoms(indices=list(range(len(slab) - 1))))
    slab.calc = EMT()
    return slab


def main(scn):
    el, layers = str(scn["element"]), int(scn["layers"])
    h = float(scn["height_A"])
    initial, final = endpoint(el, layers, START, h), endpoint(el, layers, END, h)
    images = [initial] + [initial.copy() for _ in range(int(scn["n_images"]))] + [final]
    for im in images[1:-1]:
        im.calc = EMT()
    neb = NEB(images, k=float(scn["spring_eV_A2"]), climb=bool(scn["climb"]), method=str(scn["method"]))
    neb.interpolate(method="linear")
    opt = MDMin(neb, dt=float(scn["mdmin_dt"]), logfile=None)
    opt.run(fmax=1e-12, steps=int(scn["steps"]))
    energies = [float(im.get_potential_energy()) for im in images]
    top = next(i for i, e in enumerate(energies) if e >= max(energies) - TIE)
    path = [0.0]
    for a, b in zip(images[:-1], images[1:]):
        path.append(path[-1] + float(np.linalg.norm(b.positions[-1] - a.positions[-1])))
    return {
        "interior_image_energies_eV": [e - energies[0] for e in energies[1:-1]],
        "barrier_eV": max(energies) - energies[0],
        "highest_image": top,
        "reaction_coordinate_A": path,
        "saddle_height_A": float(images[top].positions[-1, 2] - images[top].positions[:-1, 2].max()),
        "hop_distance_A": float(np.linalg.norm(final.positions[-1, :2] - initial.positions[-1, :2])),
    }
