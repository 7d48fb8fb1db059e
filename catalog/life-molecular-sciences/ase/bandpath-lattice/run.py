"""Brillouin-zone band path and k-point mesh of a Bravais lattice with ASE (ase.lattice classes, Cell.bandpath,
BandPath.get_linear_kpoint_axis, Cell.get_bravais_lattice, kptdensity2monkhorstpack, ase.dft.kpoints.monkhorst_pack),
as a band-structure calculation is set up: the Setyawan-Curtarolo special points and path, the sampled k-points and
the x axis a band plot uses, and a Monkhorst-Pack mesh for a target k-point density.

Entry workflow: main(dict) -> dict.
"""

from ase import Atoms
from ase.calculators.calculator import kptdensity2monkhorstpack
from ase.dft.kpoints import monkhorst_pack
from ase.lattice import BCC, BCT, FCC, HEX, ORC, RHL, TET


def make_lattice(kind, a, b_ratio, c_ratio, alpha):
    if kind == "FCC":
        return FCC(a)
    if kind == "BCC":
        return BCC(a)
    if kind == "HEX":
        return HEX(a, a * c_ratio)
    if kind == "TET":
        return TET(a, a * c_ratio)
    if kind == "BCT":
        return BCT(a, a * c_ratio)
    if kind == "RHL":
        return RHL(a, alpha)
    lengths = sorted([a, a * b_ratio, a * c_ratio])  # ORC wants a < b < c
    return ORC(*lengths)


def main(scn):
    lat = make_lattice(str(scn["lattice"]), float(scn["a_A"]), float(scn["b_over_a"]), float(scn["c_over_a"]),
                       float(scn["alpha_deg"]))
    cell = lat.tocell()
    canon = cell.get_bravais_lattice()
    path = cell.bandpath(npoints=int(scn["npoints"]))
    x, xs, labels = path.get_linear_kpoint_axis()
    atoms = Atoms(cell=cell, pbc=True)
    mesh = [int(v) for v in kptdensity2monkhorstpack(atoms, kptdensity=float(scn["kpt_density"]),
                                                     even=bool(scn["even_mesh"]))]
    mp = monkhorst_pack(mesh)
    return {
        "lattice": canon.name,
        "variant": canon.variant,
        "special_path": path.path,
        "special_points": [{"label": k, "kpt": [float(v) for v in path.special_points[k]]}
                           for k in sorted(path.special_points)],
        "n_kpts": len(path.kpts),
        "kpts": [[float(v) for v in k] for k in path.kpts],
        "axis_x": [float(v) for v in x],
        "special_x": [float(v) for v in xs],
        "special_labels": list(labels),
        "cell_volume_A3": float(cell.volume),
        "mp_mesh": mesh,
        "mp_n_kpts": len(mp),
        "mp_first_kpt": [float(v) for v in mp[0]],
    }
