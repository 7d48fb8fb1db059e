"""Single-point energies of a water droplet cut from a pre-equilibrated box under different water models with the
OpenMM application layer (app.PDBFile, app.Modeller: delete, addExtraParticles; app.ForceField.createSystem with
cutoff/reaction-field electrostatics), as a modeller compares water models on one configuration.

Entry workflow: main(dict) -> dict.
"""

import tomllib
from pathlib import Path

import numpy as np
import openmm
from openmm import app, unit

MODELS = {"tip3p": "tip3p.xml", "tip3pfb": "amber14/tip3pfb.xml", "spce": "spce.xml", "tip4pew": "tip4pew.xml",
          "opc": "opc.xml"}
# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
E_NM_TO_DEBYE = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]["E_NM_TO_DEBYE"]


def main(scn):
    pdb = app.PDBFile(str(scn["structure"]))
    centre = np.array([float(v) for v in scn["centre_nm"]])
    pos = pdb.getPositions(asNumpy=True).value_in_unit(unit.nanometer)
    waters = list(pdb.topology.residues())
    dist = [float(np.linalg.norm(pos[next(a.index for a in r.atoms() if a.element.symbol == "O")] - centre))
            for r in waters]
    order = sorted(range(len(waters)), key=lambda i: (dist[i], i))
    keep = set(order[: int(scn["n_waters"])])
    modeller = app.Modeller(pdb.topology, pdb.positions)
    modeller.delete([r for i, r in enumerate(waters) if i not in keep])
    ff = app.ForceField(MODELS[str(scn["water_model"])])
    modeller.addExtraParticles(ff)
    system = ff.createSystem(modeller.topology, nonbondedMethod=app.CutoffNonPeriodic,
                             nonbondedCutoff=float(scn["cutoff_nm"]) * unit.nanometer,
                             rigidWater=bool(scn["rigid_water"]), removeCMMotion=False)
    names = []
    for k, f in enumerate(system.getForces()):
        f.setForceGroup(k)
        names.append(f.__class__.__name__)
    nb = next(f for f in system.getForces() if isinstance(f, openmm.NonbondedForce))
    nb.setReactionFieldDielectric(float(scn["rf_dielectric"]))
    ctx = openmm.Context(system, openmm.VerletIntegrator(0.001), openmm.Platform.getPlatformByName("Reference"))
    ctx.setPositions(modeller.positions)
    ctx.computeVirtualSites()
    per = {}
    for k, name in enumerate(names):
        e = ctx.getState(getEnergy=True, groups={k}).getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
        per[name] = per.get(name, 0.0) + e
    st = ctx.getState(getEnergy=True, getPositions=True, getForces=True)
    xyz = st.getPositions(asNumpy=True).value_in_unit(unit.nanometer)
    q = np.array([nb.getParticleParameters(i)[0].value_in_unit(unit.elementary_charge)
                  for i in range(system.getNumParticles())])
    dip = (q[:, None] * xyz).sum(axis=0) * E_NM_TO_DEBYE
    frc = st.getForces(asNumpy=True).value_in_unit(unit.kilojoule_per_mole / unit.nanometer)
    massive = [i for i in range(system.getNumParticles()) if not system.isVirtualSite(i)]
    n_w = int(scn["n_waters"])
    total = st.getPotentialEnergy().value_in_unit(unit.kilojoule_per_mole)
    return {
        "n_particles": system.getNumParticles(),
        "n_virtual_sites": sum(1 for i in range(system.getNumParticles()) if system.isVirtualSite(i)),
        "n_constraints": system.getNumConstraints(),
        "energy_by_force_kJ_mol": [{"force": n, "energy": per[n]} for n in sorted(per)],
        "total_energy_kJ_mol": total,
        "energy_per_water_kJ_mol": total / n_w,
        "dipole_debye": dip.tolist(),
        "rms_force_kJ_mol_nm": float(np.sqrt(np.mean(np.sum(frc[massive] ** 2, axis=1)))),
        "farthest_kept_oxygen_nm": dist[order[n_w - 1]],
    }
