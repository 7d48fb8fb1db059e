"""Drug-likeness triage of a compound list with RDKit: QED (rdkit.Chem.QED), Lipinski's rule of five
(rdkit.Chem.Lipinski, rdkit.Chem.Crippen) and structural-alert catalogs (rdkit.Chem.FilterCatalog: PAINS, Brenk, NIH),
as a medicinal chemist filters a screening list; the survivors are written as an SD file with their properties.

Entry workflow: main(dict) -> dict; the SD file goes to $SWR_ARTIFACTS.
"""

import os

from rdkit import Chem, RDLogger
from rdkit.Chem import QED, Crippen, Lipinski, rdMolDescriptors
from rdkit.Chem.FilterCatalog import FilterCatalog, FilterCatalogParams

RDLogger.DisableLog("rdApp.*")

CATALOGS = {
    "PAINS": FilterCatalogParams.FilterCatalogs.PAINS,
    "BRENK": FilterCatalogParams.FilterCatalogs.BRENK,
    "NIH": FilterCatalogParams.FilterCatalogs.NIH,
}


def _rows(path: str, first: int, count: int) -> list:
    """`count` consecutive 'SMILES name' lines from `first`, wrapping around the file."""
    with open(path, encoding="ascii") as fh:
        rows = [ln.split() for ln in fh if ln.strip()]
    return [rows[(first + k) % len(rows)] for k in range(count)]


def _ro5(mol) -> int:
    """Rule-of-five violations: MolWt > 500, MolLogP > 5, NumHDonors > 5, NumHAcceptors > 10."""
    return sum((rdMolDescriptors._CalcMolWt(mol) > 500.0, Crippen.MolLogP(mol) > 5.0,
                Lipinski.NumHDonors(mol) > 5, Lipinski.NumHAcceptors(mol) > 10))


def main(scn: dict) -> dict:
    params = FilterCatalogParams()
    params.AddCatalog(CATALOGS[str(scn["alert_catalog"])])
    catalog = FilterCatalog(params)
    weights = QED.WEIGHT_MEAN if str(scn["qed_weights"]) == "mean" else QED.WEIGHT_MAX
    table, kept = [], []
    for smi, name in _rows(str(scn["library"]), int(scn["first"]), int(scn["count"])):
        mol = Chem.MolFromSmiles(smi)
        q = QED.qed(mol, w=weights)
        alerts = sorted({e.GetDescription() for e in catalog.GetMatches(mol)})
        viol = _ro5(mol)
        ok = q >= float(scn["qed_min"]) and viol <= int(scn["max_ro5_violations"])
        if bool(scn["reject_alerts"]) and alerts:
            ok = False
        table.append({"name": name, "qed": q, "ro5_violations": viol, "alerts": alerts, "kept": ok})
        if ok:
            kept.append((name, mol, q, viol, alerts))
    kept.sort(key=lambda r: (-r[2], r[0]))
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "kept.sdf")
    writer = Chem.SDWriter(path)
    for name, mol, q, viol, alerts in kept:
        mol.SetProp("_Name", name)
        mol.SetProp("QED", f"{q:.3f}")
        mol.SetIntProp("RO5_VIOLATIONS", viol)
        mol.SetProp("ALERTS", ";".join(alerts))
        writer.write(mol)
    writer.close()
    return {
        "molecules": table,
        "kept_names": [r[0] for r in kept],
        "n_kept": len(kept),
        "n_with_alerts": sum(1 for r in table if r["alerts"]),
        "sdf": "kept.sdf",
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
