"""Bemis-Murcko scaffold analysis of a slice of a SMILES library with RDKit (rdkit.Chem.Scaffolds.MurckoScaffold),
and a grid depiction of the scaffolds (rdkit.Chem.Draw.MolsToGridImage) written as PNG, as a medicinal chemist
summarises the chemotypes of a compound set.

Entry workflow: main(dict) -> dict; the PNG goes to $SWR_ARTIFACTS.
"""

import os

from rdkit import Chem, RDLogger
from rdkit.Chem import Draw
from rdkit.Chem.Scaffolds import MurckoScaffold

RDLogger.DisableLog("rdApp.*")


def load_library(path):
    """(name, mol) per non-blank 'SMILES name' line, in file order."""
    with open(path, encoding="ascii") as fh:
        rows = [ln.split() for ln in fh if ln.strip()]
    return [(name, Chem.MolFromSmiles(smi)) for smi, name in rows]


def scaffold_of(mol, generic):
    """Murcko framework (rings + linkers); the all-carbon single-bond graph framework when generic."""
    core = MurckoScaffold.GetScaffoldForMol(mol)
    if generic:
        core = MurckoScaffold.MakeScaffoldGeneric(core)
    return Chem.MolFromSmiles(Chem.MolToSmiles(core))


def main(scn):
    lib = load_library(str(scn["library"]))
    first, count = int(scn["first"]), int(scn["count"])
    picked = [lib[(first + k) % len(lib)] for k in range(count)]
    generic = bool(scn["generic"])
    rows = []
    for name, mol in picked:
        core = scaffold_of(mol, generic)
        rows.append({
            "name": name,
            "scaffold_smiles": Chem.MolToSmiles(core),
            "scaffold_heavy_atoms": int(core.GetNumHeavyAtoms()),
            "scaffold_rings": int(core.GetRingInfo().NumRings()),
            "scaffold_fraction": core.GetNumHeavyAtoms() / mol.GetNumHeavyAtoms(),
        })
    freq = {}
    for r in rows:
        freq[r["scaffold_smiles"]] = freq.get(r["scaffold_smiles"], 0) + 1
    uniq = sorted(freq, key=lambda s: (-freq[s], s))
    px = int(scn["sub_img_px"])
    mols = [Chem.MolFromSmiles(s) for s in uniq]
    legends = [f"{freq[s]}x" for s in uniq] if bool(scn["legends"]) else None
    img = Draw.MolsToGridImage(mols, molsPerRow=int(scn["mols_per_row"]), subImgSize=(px, px), legends=legends)
    img.save(os.path.join(os.environ["SWR_ARTIFACTS"], "scaffolds.png"), format="PNG")
    return {
        "molecules": rows,
        "n_unique_scaffolds": len(uniq),
        "scaffolds_by_frequency": [{"smiles": s, "count": freq[s]} for s in uniq],
        "grid": "scaffolds.png",
    }
