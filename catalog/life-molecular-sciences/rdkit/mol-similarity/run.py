"""Substituent edit of a library molecule, RDKit descriptors and Morgan-fingerprint Tanimoto/Tversky similarity."""

import json
import sys

from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import QED, Crippen, Descriptors, Lipinski, rdFingerprintGenerator, rdMolDescriptors

RDLogger.DisableLog("rdApp.*")

SUBSTITUENTS = {
    "F": "F", "Cl": "Cl", "Br": "Br", "methyl": "C", "hydroxy": "O", "methoxy": "OC", "amino": "N",
    "cyano": "C#N", "trifluoromethyl": "C(F)(F)F", "nitro": "[N+](=O)[O-]", "carboxy": "C(=O)O",
}


def load_library(path):
    lib = []
    with open(path, encoding="ascii") as fh:
        for line in fh:
            if line.strip():
                smi, name = line.split()
                lib.append((name, Chem.MolFromSmiles(smi)))
    return lib


def attach(mol, position, sub_smiles):
    """Bond the substituent's first atom to the position-th (modulo) aromatic carbon bearing H (any C-H if none)."""
    sites = [a.GetIdx() for a in mol.GetAtoms()
             if a.GetSymbol() == "C" and a.GetIsAromatic() and a.GetTotalNumHs() > 0]
    if not sites:
        sites = [a.GetIdx() for a in mol.GetAtoms() if a.GetSymbol() == "C" and a.GetTotalNumHs() > 0]
    site = sites[position % len(sites)]
    sub = Chem.MolFromSmiles(sub_smiles)
    combo = Chem.RWMol(Chem.CombineMols(mol, sub))
    combo.AddBond(site, mol.GetNumAtoms(), Chem.BondType.SINGLE)
    out = combo.GetMol()
    Chem.SanitizeMol(out)
    return Chem.MolFromSmiles(Chem.MolToSmiles(out)), site, len(sites)


def main(scn):
    lib = load_library(str(scn["library"]))
    idx = int(scn["molecule"]) % len(lib)
    parent_name, parent = lib[idx]
    mol, site, n_sites = attach(parent, int(scn["position"]), SUBSTITUENTS[str(scn["substituent"])])
    gen = rdFingerprintGenerator.GetMorganGenerator(radius=int(scn["radius"]), fpSize=int(scn["fp_size"]))
    fp = gen.GetFingerprint(mol)
    alpha, beta = float(scn["tversky_alpha"]), float(scn["tversky_beta"])
    lib_fps = [gen.GetFingerprint(m) for _, m in lib]
    tan = DataStructs.BulkTanimotoSimilarity(fp, lib_fps)
    tv = DataStructs.BulkTverskySimilarity(fp, lib_fps, alpha, beta)
    sims = [{"name": name, "tanimoto": float(t), "tversky": float(v)}
            for (name, _), t, v in zip(lib, tan, tv)]
    ranked = sorted(sims, key=lambda d: (-d["tanimoto"], d["name"]))

    desc = {
        "MolWt": float(Descriptors.MolWt(mol)),
        "ExactMolWt": float(Descriptors.ExactMolWt(mol)),
        "MolLogP": float(Crippen.MolLogP(mol)),
        "MolMR": float(Crippen.MolMR(mol)),
        "TPSA": float(rdMolDescriptors.CalcTPSA(mol)),
        "LabuteASA": float(rdMolDescriptors.CalcLabuteASA(mol)),
        "FractionCSP3": float(rdMolDescriptors.CalcFractionCSP3(mol)),
        "NumHDonors": int(Lipinski.NumHDonors(mol)),
        "NumHAcceptors": int(Lipinski.NumHAcceptors(mol)),
        "NumRotatableBonds": int(rdMolDescriptors.CalcNumRotatableBonds(mol)),
        "RingCount": int(rdMolDescriptors.CalcNumRings(mol)),
        "NumAromaticRings": int(rdMolDescriptors.CalcNumAromaticRings(mol)),
        "HeavyAtomCount": int(mol.GetNumHeavyAtoms()),
        "qed": float(QED.qed(mol)),
    }
    violations = sum([desc["MolWt"] > 500, desc["MolLogP"] > 5, desc["NumHDonors"] > 5, desc["NumHAcceptors"] > 10])
    return {
        "parent": parent_name,
        "n_sites": n_sites,
        "site_atom_index": site,
        "smiles": Chem.MolToSmiles(mol),
        "formula": rdMolDescriptors.CalcMolFormula(mol),
        "descriptors": desc,
        "lipinski_violations": int(violations),
        "fingerprint_on_bits": int(fp.GetNumOnBits()),
        "tanimoto_to_parent": float(DataStructs.TanimotoSimilarity(fp, lib_fps[idx])),
        "similarities": sims,
        "nearest_three": [d["name"] for d in ranked[:3]],
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
