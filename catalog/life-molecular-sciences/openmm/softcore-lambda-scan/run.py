"""Alchemical decoupling of a solute from a Lennard-Jones solvent with OpenMM: a soft-core CustomNonbondedForce with
a global lambda, an interaction group (solute-solvent only), a switching function, energy-parameter derivatives
(addEnergyParameterDerivative, State.getEnergyParameterDerivatives) and Context.setParameter, as a free-energy
practitioner inspects U(lambda) and dU/dlambda on a configuration before placing lambda windows; a trapezoid
thermodynamic-integration estimate along the scan is reported.

Entry workflow: main(dict) -> dict.
"""

import numpy as np
import openmm
from openmm import unit

SOFTCORE = ("lambda*4*eps*(1/(reff^2) - 1/reff);"
            "reff = alpha*(1-lambda) + (r/sigma)^6;"
            "eps = sqrt(eps1*eps2); sigma = 0.5*(sigma1+sigma2)")


def main(scn):
    n = int(scn["n_solvent"])
    box = float(scn["box_nm"])
    rng = np.random.default_rng(int(scn["seed"]))
    centre = np.full(3, box / 2)
    # Solvent outside a cavity: draw 20 n candidates at once, keep the first n at least cavity_nm from the solute
    cand = rng.uniform(0.0, box, size=(20 * n, 3))
    solvent = cand[np.linalg.norm(cand - centre, axis=1) >= float(scn["cavity_nm"])][:n]
    system = openmm.System()
    system.setDefaultPeriodicBoxVectors(openmm.Vec3(box, 0, 0), openmm.Vec3(0, box, 0), openmm.Vec3(0, 0, box))
    force = openmm.CustomNonbondedForce(SOFTCORE)
    force.addGlobalParameter("lambda", 1.0)
    force.addGlobalParameter("alpha", float(scn["softcore_alpha"]))
    force.addEnergyParameterDerivative("lambda")
    force.addPerParticleParameter("sigma")
    force.addPerParticleParameter("eps")
    force.setNonbondedMethod(openmm.CustomNonbondedForce.CutoffPeriodic)
    cutoff = float(scn["cutoff_nm"])
    force.setCutoffDistance(cutoff)
    if bool(scn["switching"]):
        force.setUseSwitchingFunction(True)
        force.setSwitchingDistance(cutoff - 0.1)
    system.addParticle(40.0)
    force.addParticle([float(scn["solute_sigma_nm"]), float(scn["solute_eps_kJ_mol"])])
    for _ in range(n):
        system.addParticle(18.0)
        force.addParticle([0.315, 0.65])
    force.addInteractionGroup([0], list(range(1, n + 1)))
    system.addForce(force)
    ctx = openmm.Context(system, openmm.VerletIntegrator(0.001), openmm.Platform.getPlatformByName("Reference"))
    ctx.setPositions(np.vstack([centre, solvent]) * unit.nanometer)
    lambdas = np.linspace(0.0, 1.0, int(scn["n_lambda"]))
    energies, derivs = [], []
    for lam in lambdas:
        ctx.setParameter("lambda", float(lam))
        st = ctx.getState(getEnergy=True, getParameterDerivatives=True)
        energies.append(st.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole))
        derivs.append(float(st.getEnergyParameterDerivatives()["lambda"]))
    ti = float(np.sum(0.5 * (np.array(derivs[1:]) + np.array(derivs[:-1])) * np.diff(lambdas)))
    dist = np.linalg.norm(solvent - centre, axis=1)
    return {
        "lambdas": [float(v) for v in lambdas],
        "energies_kJ_mol": energies,
        "dU_dlambda_kJ_mol": derivs,
        "ti_estimate_kJ_mol": ti,
        "endpoint_difference_kJ_mol": energies[-1] - energies[0],
        "solvent_within_cutoff": int(np.sum(dist < cutoff)),
        "closest_solvent_nm": float(dist.min()),
    }
