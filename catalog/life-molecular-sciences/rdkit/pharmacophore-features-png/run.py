"""Pharmacophore features of a drug with RDKit's feature factory (rdkit.Chem.ChemicalFeatures.BuildFeatureFactory on
RDConfig's BaseFeatures.fdef: donors, acceptors, aromatic rings, hydrophobes, ionisable groups), as a modeller
annotates a ligand before building a pharmacophore; the atoms of one feature family are highlighted in a PNG depiction.

Entry workflow: main(dict) -> dict; the PNG goes to $SWR_ARTIFACTS.
"""

import os

from rdkit import Chem, RDConfig, RDLogger
from rdkit.Chem import ChemicalFeatures, rdDepictor
from rdkit.Chem.Draw import rdMolDraw2D

RDLogger.DisableLog("rdApp.*")
FACTORY = ChemicalFeatures.BuildFeatureFactory(os.path.join(RDConfig.RDDataDir, "BaseFeatures.fdef"))


def main(scn: dict) -> dict:
    with open(str(scn["library"]), encoding="ascii") as fh:
        rows = [ln.split() for ln in fh if ln.strip()]
    smi, name = rows[int(scn["molecule"]) % len(rows)]
    mol = Chem.MolFromSmiles(smi)
    if bool(scn["add_hydrogens"]):
        mol = Chem.AddHs(mol)
    feats = FACTORY.GetFeaturesForMol(mol)
    families = sorted(FACTORY.GetFeatureFamilies())
    counts = {fam: sum(1 for f in feats if f.GetFamily() == fam) for fam in families}
    chosen = [f for f in feats if f.GetFamily() == str(scn["family"])]
    atoms = sorted({a for f in chosen for a in f.GetAtomIds()})
    bonds = sorted({b.GetIdx() for b in mol.GetBonds() if b.GetBeginAtomIdx() in atoms and b.GetEndAtomIdx() in atoms})
    rdDepictor.SetPreferCoordGen(False)
    rdDepictor.Compute2DCoords(mol)
    drawer = rdMolDraw2D.MolDraw2DCairo(int(scn["width_px"]), int(scn["height_px"]))
    rdMolDraw2D.PrepareAndDrawMolecule(drawer, mol, highlightAtoms=atoms, highlightBonds=bonds)
    drawer.FinishDrawing()
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "features.png"), "wb") as fh:
        fh.write(drawer.GetDrawingText())
    return {
        "name": name,
        "n_atoms": mol.GetNumAtoms(),
        "feature_counts": counts,
        "chosen_features": [{"type": f.GetType(), "atoms": list(f.GetAtomIds())} for f in chosen],
        "highlight_atoms": atoms,
        "image": "features.png",
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
