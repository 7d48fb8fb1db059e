"""Functional-group search with SMARTS substructure matching in RDKit (Chem.MolFromSmarts, GetSubstructMatches) and
a depiction of the chosen molecule with the matched atoms and bonds highlighted (rdMolDraw2D.MolDraw2DCairo), as a
chemist flags groups of concern in a compound.

Entry workflow: main(dict) -> dict; the PNG goes to $SWR_ARTIFACTS.
"""

import os

from rdkit import Chem, RDLogger
from rdkit.Chem import rdDepictor
from rdkit.Chem.Draw import rdMolDraw2D

RDLogger.DisableLog("rdApp.*")

GROUPS = {
    "carboxylic_acid": "C(=O)[OX2H1]",
    "ester": "[#6]C(=O)O[#6]",
    "amide": "C(=O)[NX3]",
    "aromatic_ring_atom": "a",
    "halogen": "[F,Cl,Br,I]",
    "hydroxyl": "[OX2H1]",
    "ether": "[OD2]([#6])[#6]",
    "amine": "[NX3;!$(NC=O);!$(N-S(=O)=O)]",
    "sulfonamide": "S(=O)(=O)N",
    "carbonyl": "[CX3]=O",
}


def main(scn):
    with open(str(scn["library"]), encoding="ascii") as fh:
        rows = [ln.split() for ln in fh if ln.strip()]
    smi, name = rows[int(scn["molecule"]) % len(rows)]
    mol = Chem.MolFromSmiles(smi)
    uniquify = bool(scn["uniquify"])
    counts = {g: len(mol.GetSubstructMatches(Chem.MolFromSmarts(s), uniquify=uniquify)) for g, s in GROUPS.items()}
    target = Chem.MolFromSmarts(GROUPS[str(scn["highlight"])])
    matches = mol.GetSubstructMatches(target, uniquify=uniquify)
    atoms = sorted({a for m in matches for a in m})
    bonds = sorted({b.GetIdx() for b in mol.GetBonds()
                    if b.GetBeginAtomIdx() in atoms and b.GetEndAtomIdx() in atoms})
    rdDepictor.SetPreferCoordGen(False)
    rdDepictor.Compute2DCoords(mol)
    w, h = int(scn["width_px"]), int(scn["height_px"])
    drawer = rdMolDraw2D.MolDraw2DCairo(w, h)
    drawer.drawOptions().addAtomIndices = bool(scn["atom_indices"])
    rdMolDraw2D.PrepareAndDrawMolecule(drawer, mol, highlightAtoms=atoms, highlightBonds=bonds)
    drawer.FinishDrawing()
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "highlight.png"), "wb") as fh:
        fh.write(drawer.GetDrawingText())
    return {
        "name": name,
        "group_match_counts": counts,
        "highlight_matches": [list(m) for m in matches],
        "highlight_atoms": atoms,
        "highlight_bonds": bonds,
        "image": "highlight.png",
    }
