"""Retrosynthetic fragmentation of drug molecules with RDKit (rdkit.Chem.BRICS: FindBRICSBonds, BRICSDecompose,
BreakBRICSBonds; rdkit.Chem.Recap: RecapDecompose), as a medicinal chemist builds a fragment library from known
drugs and counts which building blocks recur.

Entry workflow: main(dict) -> dict.
"""

from rdkit import Chem, RDLogger
from rdkit.Chem import BRICS, Recap

RDLogger.DisableLog("rdApp.*")


def unlabelled(smiles):
    """Canonical SMILES with every dummy atom's isotope (the BRICS label) cleared."""
    m = Chem.MolFromSmiles(smiles)
    for a in m.GetAtoms():
        if a.GetAtomicNum() == 0:
            a.SetIsotope(0)
    return Chem.MolToSmiles(m)


def main(scn):
    with open(str(scn["library"]), encoding="ascii") as fh:
        rows = [ln.split() for ln in fh if ln.strip()]
    first, count = int(scn["first"]), int(scn["count"])
    min_size = int(scn["min_fragment_size"])
    keep_labels = bool(scn["keep_dummy_labels"])
    per_mol, pool = [], {}
    for k in range(count):
        smi, name = rows[(first + k) % len(rows)]
        mol = Chem.MolFromSmiles(smi)
        bonds = sorted((int(a), int(b), str(la), str(lb)) for (a, b), (la, lb) in BRICS.FindBRICSBonds(mol))
        frags = sorted(BRICS.BRICSDecompose(mol, minFragmentSize=min_size, keepNonLeafNodes=False,
                                            returnMols=False))
        if not keep_labels:  # drop the BRICS environment labels ([4*] -> *): fragments match across environments
            frags = sorted({unlabelled(f) for f in frags})
        broken = Chem.MolToSmiles(BRICS.BreakBRICSBonds(mol))
        recap = Recap.RecapDecompose(mol, minFragmentSize=min_size)
        leaves = sorted(recap.GetLeaves()) or [Chem.MolToSmiles(mol)]
        for f in frags:
            pool[f] = pool.get(f, 0) + 1
        per_mol.append({"name": name, "n_brics_bonds": len(bonds),
                        "brics_bonds": ";".join(f"{a}-{b}:{la}/{lb}" for a, b, la, lb in bonds),
                        "brics_fragments": frags,
                        "n_pieces_broken": broken.count(".") + 1, "recap_leaves": leaves})
    ranked = sorted(pool.items(), key=lambda t: (-t[1], t[0]))
    return {
        "molecules": per_mol,
        "n_distinct_fragments": len(pool),
        "fragment_counts": [{"smiles": f, "count": c} for f, c in ranked],
    }
