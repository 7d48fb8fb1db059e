"""Maximum common substructure of two library molecules with RDKit (rdFMCS.FindMCS), the second molecule's 2D
depiction aligned onto the first through it (rdDepictor.GenerateDepictionMatching2DStructure), and both drawn side by
side with the common part highlighted (MolDraw2DCairo.DrawMolecules), as a medicinal chemist compares a matched pair.

Entry workflow: main(dict) -> dict; the PNG goes to $SWR_ARTIFACTS.
"""

import os

from rdkit import Chem, RDLogger
from rdkit.Chem import rdDepictor, rdFMCS
from rdkit.Chem.Draw import rdMolDraw2D

RDLogger.DisableLog("rdApp.*")

ATOM_COMPARE = {"elements": rdFMCS.AtomCompare.CompareElements, "any": rdFMCS.AtomCompare.CompareAny}
BOND_COMPARE = {"order": rdFMCS.BondCompare.CompareOrder, "any": rdFMCS.BondCompare.CompareAny}


def main(scn):
    with open(str(scn["library"]), encoding="ascii") as fh:
        rows = [ln.split() for ln in fh if ln.strip()]
    (s1, n1), (s2, n2) = rows[int(scn["first"]) % len(rows)], rows[int(scn["second"]) % len(rows)]
    m1, m2 = Chem.MolFromSmiles(s1), Chem.MolFromSmiles(s2)
    res = rdFMCS.FindMCS([m1, m2], atomCompare=ATOM_COMPARE[str(scn["atom_compare"])],
                         bondCompare=BOND_COMPARE[str(scn["bond_compare"])],
                         ringMatchesRingOnly=bool(scn["ring_matches_ring_only"]),
                         completeRingsOnly=bool(scn["complete_rings_only"]), timeout=60)
    patt = Chem.MolFromSmarts(res.smartsString)
    match1, match2 = m1.GetSubstructMatch(patt), m2.GetSubstructMatch(patt)
    rdDepictor.SetPreferCoordGen(False)
    rdDepictor.Compute2DCoords(m1)
    rdDepictor.GenerateDepictionMatching2DStructure(m2, m1, atomMap=list(zip(match1, match2)))
    px = int(scn["panel_px"])
    drawer = rdMolDraw2D.MolDraw2DCairo(2 * px, px, px, px)
    drawer.DrawMolecules([m1, m2], highlightAtoms=[list(match1), list(match2)], legends=[n1, n2])
    drawer.FinishDrawing()
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "mcs.png"), "wb") as fh:
        fh.write(drawer.GetDrawingText())
    heavy = m1.GetNumAtoms() + m2.GetNumAtoms()
    return {
        "names": [n1, n2],
        "mcs_smarts": res.smartsString,
        "mcs_atoms": int(res.numAtoms),
        "mcs_bonds": int(res.numBonds),
        "timed_out": bool(res.canceled),
        "match_first": list(match1),
        "match_second": list(match2),
        "mcs_atom_similarity": 2.0 * res.numAtoms / heavy,
        "image": "mcs.png",
    }
