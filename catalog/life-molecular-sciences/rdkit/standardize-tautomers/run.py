"""Structure standardisation of raw registry entries with RDKit's MolStandardize (rdMolStandardize: Cleanup,
FragmentParent, Uncharger, TautomerEnumerator with canonicalisation and enumeration) and the InChIKeys of the result,
as a compound-registration pipeline turns salts, zwitterions and tautomers into one parent structure.

Entry workflow: main(dict) -> dict.
"""

from rdkit import Chem, RDLogger
from rdkit.Chem import rdMolDescriptors
from rdkit.Chem.MolStandardize import rdMolStandardize

RDLogger.DisableLog("rdApp.*")


def main(scn):
    with open(str(scn["library"]), encoding="ascii") as fh:
        rows = [ln.split() for ln in fh if ln.strip()]
    first, count = int(scn["first"]), int(scn["count"])
    params = rdMolStandardize.CleanupParameters()
    params.maxTautomers = int(scn["max_tautomers"])
    enum = rdMolStandardize.TautomerEnumerator(params)
    uncharger = rdMolStandardize.Uncharger()
    out, parents = [], {}
    for k in range(count):
        smi, name = rows[(first + k) % len(rows)]
        mol = rdMolStandardize.Cleanup(Chem.MolFromSmiles(smi))
        if bool(scn["fragment_parent"]):
            mol = rdMolStandardize.FragmentParent(mol)
        if bool(scn["uncharge"]):
            mol = uncharger.uncharge(mol)
        tautomers = enum.Enumerate(mol)
        if bool(scn["canonical_tautomer"]):
            mol = enum.Canonicalize(mol)
        std = Chem.MolToSmiles(mol)
        parents.setdefault(std, []).append(name)
        out.append({
            "name": name,
            "input_smiles": smi,
            "standard_smiles": std,
            "formula": rdMolDescriptors.CalcMolFormula(mol),
            "formal_charge": Chem.GetFormalCharge(mol),
            "n_fragments": len(Chem.GetMolFrags(mol)),
            "n_tautomers": len(tautomers),
            "inchikey": Chem.MolToInchiKey(mol),
        })
    groups = sorted((sorted(v) for v in parents.values() if len(v) > 1), key=lambda g: g[0])
    return {"entries": out, "n_distinct_parents": len(parents), "merged_groups": groups}
