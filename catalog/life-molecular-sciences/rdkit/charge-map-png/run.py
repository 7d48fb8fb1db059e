"""Atomic contribution maps with RDKit: Gasteiger partial charges (rdPartialCharges.ComputeGasteigerCharges) or
Crippen logP / molar-refractivity atom contributions (rdMolDescriptors._CalcCrippenContribs), rendered as a
Gaussian-contour similarity map (rdkit.Chem.Draw.SimilarityMaps.GetSimilarityMapFromWeights on MolDraw2DCairo) and
written as PNG, as a medicinal chemist shows where a molecule's polarity or lipophilicity sits.

Entry workflow: main(dict) -> dict; the PNG goes to $SWR_ARTIFACTS.
"""

import os

from rdkit import Chem, RDLogger
from rdkit.Chem import rdDepictor, rdMolDescriptors, rdPartialCharges
from rdkit.Chem.Draw import SimilarityMaps, rdMolDraw2D

RDLogger.DisableLog("rdApp.*")
TIE = 1e-9  # weights this close to the extreme are ties (symmetric atoms' Gasteiger charges differ by rounding only)


def atom_weights(mol, kind, iterations):
    """Per heavy atom weight: Gasteiger charge (e), Crippen logP or MR contribution."""
    if kind == "gasteiger":
        rdPartialCharges.ComputeGasteigerCharges(mol, nIter=iterations)
        return [a.GetDoubleProp("_GasteigerCharge") for a in mol.GetAtoms()]
    contribs = rdMolDescriptors._CalcCrippenContribs(mol)
    return [c[0] if kind == "crippen_logp" else c[1] for c in contribs]


def main(scn):
    with open(str(scn["library"]), encoding="ascii") as fh:
        rows = [ln.split() for ln in fh if ln.strip()]
    smi, name = rows[int(scn["molecule"]) % len(rows)]
    mol = Chem.MolFromSmiles(smi)
    kind = str(scn["weights"])
    w = atom_weights(mol, kind, int(scn["gasteiger_iterations"]))
    rdDepictor.SetPreferCoordGen(False)
    rdDepictor.Compute2DCoords(mol)
    px = int(scn["size_px"])
    drawer = rdMolDraw2D.MolDraw2DCairo(px, px)
    SimilarityMaps.GetSimilarityMapFromWeights(mol, w, draw2d=drawer, contourLines=int(scn["contour_lines"]))
    drawer.FinishDrawing()
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "map.png"), "wb") as fh:
        fh.write(drawer.GetDrawingText())
    lo = min(i for i in range(len(w)) if w[i] <= min(w) + TIE)
    hi = min(i for i in range(len(w)) if w[i] >= max(w) - TIE)
    return {
        "name": name,
        "weights": w,
        "sum_weights": float(sum(w)),
        "most_negative_atom": {"index": lo, "symbol": mol.GetAtomWithIdx(lo).GetSymbol(), "weight": min(w)},
        "most_positive_atom": {"index": hi, "symbol": mol.GetAtomWithIdx(hi).GetSymbol(), "weight": max(w)},
        "image": "map.png",
    }
