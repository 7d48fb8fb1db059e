"""Reaction-based enumeration with RDKit (rdChemReactions: reaction SMARTS, RunReactants, product sanitisation and
de-duplication) of a condensation between a carboxylic acid and an amine or alcohol, and a depiction of the
instantiated reaction (MolDraw2DCairo.DrawReaction) written as PNG, as a medicinal chemist plans an amide/ester
library.

Entry workflow: main(dict) -> dict; the PNG goes to $SWR_ARTIFACTS.
"""

import os

from rdkit import Chem, RDLogger
from rdkit.Chem import Descriptors, rdChemReactions
from rdkit.Chem.Draw import rdMolDraw2D

RDLogger.DisableLog("rdApp.*")

REACTIONS = {
    "amide_coupling": "[C:1](=[O:2])[OX2H1].[N;H2,H1;!$(NC=O):3]>>[C:1](=[O:2])[N:3]",
    "esterification": "[C:1](=[O:2])[OX2H1].[OX2H1;$(O[CX4]):3]>>[C:1](=[O:2])[O:3]",
}
ACIDS = ["CC(=O)O", "OC(=O)c1ccccc1", "CC(C)Cc1ccc(C(C)C(=O)O)cc1", "OC(=O)CCC(=O)O", "OC(=O)c1ccc(N)cc1",
         "OC(=O)C1CCCCC1"]
PARTNERS = {
    "amide_coupling": ["NCc1ccccc1", "C1CCNCC1", "NC1CC1", "Nc1ccc(O)cc1", "NCCO"],
    "esterification": ["OCC", "CC(C)O", "OCCN(C)C", "NCCO", "OCc1ccccc1"],
}


def mapped_instance(rxn, acid, partner, smiles):
    """The reaction acid.partner>>product with atom maps (acid atom i -> i+1, partner atom i -> 101+i, product atoms
    the number of the reactant atom they came from), so that a depiction can colour atoms by their reactant."""
    tmpl_maps = {a.GetAtomMapNum() for a in rxn.GetReactantTemplate(0).GetAtoms()} - {0}
    reactants = [Chem.Mol(acid), Chem.Mol(partner)]
    for r, m in enumerate(reactants):
        for a in m.GetAtoms():
            a.SetAtomMapNum(100 * r + a.GetIdx() + 1)
    for prods in rxn.RunReactants(tuple(reactants)):
        prod = prods[0]
        Chem.SanitizeMol(prod)
        for a in prod.GetAtoms():
            props = a.GetPropsAsDict()
            if "old_mapno" in props:  # a template atom: its reactant is the template's
                r = 0 if props["old_mapno"] in tmpl_maps else 1
            else:  # carried over with the reactant's own map number
                r = a.GetAtomMapNum() // 100
            a.SetAtomMapNum(100 * r + int(props["react_atom_idx"]) + 1)
        bare = Chem.Mol(prod)
        for a in bare.GetAtoms():
            a.SetAtomMapNum(0)
        if Chem.MolToSmiles(bare) == smiles:
            break
    text = ".".join(Chem.MolToSmiles(m) for m in reactants) + ">>" + Chem.MolToSmiles(prod)
    return rdChemReactions.ReactionFromSmarts(text, useSmiles=True)


def main(scn):
    rxn = rdChemReactions.ReactionFromSmarts(REACTIONS[str(scn["reaction"])])
    acid = Chem.MolFromSmiles(ACIDS[int(scn["acid"])])
    partner = Chem.MolFromSmiles(PARTNERS[str(scn["reaction"])][int(scn["partner"])])
    products = {}
    for prods in rxn.RunReactants((acid, partner)):
        p = prods[0]
        Chem.SanitizeMol(p)
        smi = Chem.MolToSmiles(p)
        products[smi] = products.get(smi, 0) + 1
    ordered = sorted(products)
    rows = []
    for smi in ordered:
        m = Chem.MolFromSmiles(smi)
        rows.append({"smiles": smi, "times_generated": products[smi], "mol_wt": Descriptors.MolWt(m),
                     "heavy_atoms": m.GetNumHeavyAtoms()})
    inst = mapped_instance(rxn, acid, partner, ordered[0])
    drawer = rdMolDraw2D.MolDraw2DCairo(int(scn["width_px"]), int(scn["height_px"]))
    drawer.DrawReaction(inst, highlightByReactant=bool(scn["highlight_by_reactant"]))
    drawer.FinishDrawing()
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "reaction.png"), "wb") as fh:
        fh.write(drawer.GetDrawingText())
    return {
        "n_product_sets": sum(products.values()),
        "products": rows,
        "mass_balance_Da": Descriptors.MolWt(acid) + Descriptors.MolWt(partner) - rows[0]["mol_wt"],
        "image": "reaction.png",
    }
