"""Madelung energies of ionic crystals by Ewald summation with OpenMM (NonbondedForce with Ewald or PME, its error
tolerance, getPMEParametersInContext, Reference platform), as a solid-state chemist computes the lattice electrostatic
energy and Madelung constant of a structure type and checks it against the tabulated value.

Entry workflow: main(dict) -> dict.
"""

import itertools
import math
import tomllib
from pathlib import Path

import openmm
from openmm import unit

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
COULOMB = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]["COULOMB"]["value"]

# name -> (cation charge, anion charge, [(fractional position, is_cation)], nearest cation-anion distance / a)
STRUCTURES = {
    "rocksalt": (1, -1, [((0, 0, 0), True), ((0, .5, .5), True), ((.5, 0, .5), True), ((.5, .5, 0), True),
                         ((.5, 0, 0), False), ((0, .5, 0), False), ((0, 0, .5), False), ((.5, .5, .5), False)], 0.5),
    "cesium_chloride": (1, -1, [((0, 0, 0), True), ((.5, .5, .5), False)], math.sqrt(3) / 2),
    "zincblende": (2, -2, [((0, 0, 0), True), ((0, .5, .5), True), ((.5, 0, .5), True), ((.5, .5, 0), True),
                           ((.25, .25, .25), False), ((.25, .75, .75), False), ((.75, .25, .75), False),
                           ((.75, .75, .25), False)], math.sqrt(3) / 4),
    "fluorite": (2, -1, [((0, 0, 0), True), ((0, .5, .5), True), ((.5, 0, .5), True), ((.5, .5, 0), True)]
                 + [((x, y, z), False) for x, y, z in itertools.product((.25, .75), repeat=3)], math.sqrt(3) / 4),
}


def main(scn):
    qc, qa, basis, nn = STRUCTURES[str(scn["structure"])]
    a, n = float(scn["a_nm"]), int(scn["supercell"])
    system = openmm.System()
    box = a * n
    system.setDefaultPeriodicBoxVectors(openmm.Vec3(box, 0, 0), openmm.Vec3(0, box, 0), openmm.Vec3(0, 0, box))
    nb = openmm.NonbondedForce()
    method = openmm.NonbondedForce.PME if str(scn["method"]) == "PME" else openmm.NonbondedForce.Ewald
    nb.setNonbondedMethod(method)
    nb.setCutoffDistance(float(scn["cutoff_fraction"]) * box)
    nb.setEwaldErrorTolerance(float(scn["ewald_tolerance"]))
    positions, n_cations = [], 0
    for cell in itertools.product(range(n), repeat=3):
        for frac, cation in basis:
            system.addParticle(20.0)
            nb.addParticle(qc if cation else qa, 0.3, 0.0)
            positions.append(openmm.Vec3(*((cell[i] + frac[i]) * a for i in range(3))))
            n_cations += cation
    system.addForce(nb)
    ctx = openmm.Context(system, openmm.VerletIntegrator(0.001), openmm.Platform.getPlatformByName("Reference"))
    ctx.setPositions(positions * unit.nanometer)
    energy = ctx.getState(getEnergy=True).getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
    alpha, nx, ny, nz = 0.0, 0, 0, 0
    if method == openmm.NonbondedForce.PME:
        alpha, nx, ny, nz = nb.getPMEParametersInContext(ctx)
    r0 = nn * a
    madelung = -energy / n_cations * r0 / (COULOMB * abs(qc * qa))
    return {
        "n_ions": len(positions),
        "n_formula_units": n_cations,
        "energy_kJ_mol": energy,
        "energy_per_formula_unit_kJ_mol": energy / n_cations,
        "nearest_neighbour_nm": r0,
        "madelung_constant": madelung,
        "pme_alpha_per_nm": float(alpha),
        "pme_grid": [int(nx), int(ny), int(nz)],
    }
