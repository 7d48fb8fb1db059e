"""Stereoisomer enumeration of a molecule with unassigned stereocentres with RDKit (rdkit.Chem.EnumerateStereoisomers,
new CIP labelling rdCIPLabeler), chirality of each isomer (is it its own mirror image: meso/achiral), and a grid
depiction with stereo annotations (MolDraw2DCairo.DrawMolecules) written as PNG, as a chemist lists the isomers a
synthesis could give.

Entry workflow: main(dict) -> dict; the PNG goes to $SWR_ARTIFACTS.
"""

import os

from rdkit import Chem, RDLogger
from rdkit.Chem import rdCIPLabeler, rdDepictor
from rdkit.Chem.Draw import rdMolDraw2D
from rdkit.Chem.EnumerateStereoisomers import (EnumerateStereoisomers, GetStereoisomerCount,
                                               StereoEnumerationOptions)

RDLogger.DisableLog("rdApp.*")


def mirror(smiles):
    """Canonical SMILES of the mirror image: every tetrahedral tag inverted (double-bond geometry unchanged)."""
    m = Chem.MolFromSmiles(smiles)
    for a in m.GetAtoms():
        if a.GetChiralTag() == Chem.ChiralType.CHI_TETRAHEDRAL_CW:
            a.SetChiralTag(Chem.ChiralType.CHI_TETRAHEDRAL_CCW)
        elif a.GetChiralTag() == Chem.ChiralType.CHI_TETRAHEDRAL_CCW:
            a.SetChiralTag(Chem.ChiralType.CHI_TETRAHEDRAL_CW)
    return Chem.MolToSmiles(m)


def labels(mol):
    """CIP labels (new labeller): 'idx:R/S' for centres, 'b:E/Z' for double bonds, in index order."""
    rdCIPLabeler.AssignCIPLabels(mol)
    out = [f"{a.GetIdx()}:{a.GetProp('_CIPCode')}" for a in mol.GetAtoms() if a.HasProp("_CIPCode")]
    out += [f"b{b.GetIdx()}:{b.GetProp('_CIPCode')}" for b in mol.GetBonds() if b.HasProp("_CIPCode")]
    return out


def main(scn):
    with open(str(scn["library"]), encoding="ascii") as fh:
        rows = [ln.split() for ln in fh if ln.strip()]
    smi, name = rows[int(scn["molecule"]) % len(rows)]
    mol = Chem.MolFromSmiles(smi)
    opts = StereoEnumerationOptions(onlyUnassigned=bool(scn["only_unassigned"]))
    isomers = sorted({Chem.MolToSmiles(m) for m in EnumerateStereoisomers(mol, options=opts)})
    rows_out, mols = [], []
    for s in isomers:
        m = Chem.MolFromSmiles(s)
        cip = labels(m)
        rows_out.append({"smiles": s, "cip": cip, "achiral": mirror(s) == s})
        mols.append(m)
    rdDepictor.SetPreferCoordGen(False)
    drawn = mols[: int(scn["max_drawn"])]
    for m in drawn:
        rdDepictor.Compute2DCoords(m)
    px, per_row = int(scn["panel_px"]), int(scn["mols_per_row"])
    n_rows = (len(drawn) + per_row - 1) // per_row
    drawer = rdMolDraw2D.MolDraw2DCairo(per_row * px, n_rows * px, px, px)
    drawer.drawOptions().addStereoAnnotation = bool(scn["stereo_annotation"])
    drawer.DrawMolecules(drawn, legends=[" ".join(r["cip"]) for r in rows_out[: len(drawn)]])
    drawer.FinishDrawing()
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "isomers.png"), "wb") as fh:
        fh.write(drawer.GetDrawingText())
    pairs = sum(1 for r in rows_out if not r["achiral"] and mirror(r["smiles"]) in isomers) // 2
    return {
        "name": name,
        "stereoisomer_count_upper_bound": int(GetStereoisomerCount(mol, options=opts)),
        "n_isomers": len(isomers),
        "isomers": rows_out,
        "n_achiral": sum(1 for r in rows_out if r["achiral"]),
        "n_enantiomer_pairs": pairs,
        "image": "isomers.png",
    }
