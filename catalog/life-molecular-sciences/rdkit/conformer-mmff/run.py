"""ETKDG conformer embedding with a fixed seed, then MMFF94 minimisation with a chosen dielectric, per-conformer shape metrics."""

import json
import sys

from rdkit import Chem, RDLogger
from rdkit.Chem import rdDistGeom, rdForceFieldHelpers, rdMolAlign, rdMolDescriptors

RDLogger.DisableLog("rdApp.*")


def load_library(path):
    out = []
    with open(path, encoding="ascii") as fh:
        for line in fh:
            if line.strip():
                smi, name = line.split()
                out.append((name, smi))
    return out


def main(scn):
    lib = load_library(str(scn["library"]))
    name, smi = lib[int(scn["molecule"]) % len(lib)]
    mol = Chem.AddHs(Chem.MolFromSmiles(smi))
    params = rdDistGeom.ETKDGv3()
    params.randomSeed = int(scn["seed"])
    params.numThreads = 1
    params.pruneRmsThresh = -1.0
    cids = list(rdDistGeom.EmbedMultipleConfs(mol, numConfs=int(scn["n_conformers"]), params=params))

    mp = rdForceFieldHelpers.MMFFGetMoleculeProperties(mol, mmffVariant=str(scn["mmff_variant"]))
    mp.SetMMFFDielectricModel(2 if str(scn["dielectric_model"]) == "distance" else 1)  # 1 constant, 2 distance-dependent
    mp.SetMMFFDielectricConstant(float(scn["dielectric"]))
    max_iters = int(scn["max_iters"])
    confs = []
    for cid in cids:
        ff = rdForceFieldHelpers.MMFFGetMoleculeForceField(mol, mp, confId=cid)
        e0 = ff.CalcEnergy()
        status = ff.Minimize(maxIts=max_iters)
        e1 = ff.CalcEnergy()
        grad = ff.CalcGrad()
        gnorm = sum(g * g for g in grad) ** 0.5
        confs.append({"conf_id": int(cid), "energy_embedded": float(e0), "energy_minimized": float(e1),
                      "converged": status == 0, "gradient_norm": float(gnorm)})

    best = min(range(len(confs)), key=lambda i: (confs[i]["energy_minimized"], i))
    heavy = Chem.RemoveHs(mol)
    for i, c in enumerate(confs):
        cid = c["conf_id"]
        c["rmsd_to_lowest"] = 0.0 if i == best else float(
            rdMolAlign.AlignMol(Chem.Mol(heavy), heavy, prbCid=cid, refCid=confs[best]["conf_id"]))
        c["radius_of_gyration"] = float(rdMolDescriptors.CalcRadiusOfGyration(mol, confId=cid))
        c["npr1"] = float(rdMolDescriptors.CalcNPR1(mol, confId=cid))
        c["npr2"] = float(rdMolDescriptors.CalcNPR2(mol, confId=cid))
    energies = [c["energy_minimized"] for c in confs]
    return {
        "molecule": name,
        "n_atoms_with_h": mol.GetNumAtoms(),
        "n_embedded": len(cids),
        "conformers": confs,
        "lowest_conf_id": confs[best]["conf_id"],
        "lowest_energy": float(energies[best]),
        "energy_span": float(max(energies) - min(energies)),
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
