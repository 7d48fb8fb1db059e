"""R-group decomposition of an analogue series with RDKit (rdkit.Chem.rdRGroupDecomposition: RGroupDecompose with
RGroupDecompositionParameters), as a medicinal chemist tabulates the substituents of a series around a common core;
the decomposed molecules are written as an SD file with one property per R group.

Entry workflow: main(dict) -> dict; the SD file goes to $SWR_ARTIFACTS.
"""

import os

from rdkit import Chem, RDLogger
from rdkit.Chem import rdRGroupDecomposition as rgd

RDLogger.DisableLog("rdApp.*")

CORES = {
    "benzamide": ("smarts", "O=C(N)c1ccccc1"),
    "para_benzamide_labelled": ("smiles", "O=C(N[*:1])c1ccc([*:2])cc1"),
    "aryl_carbonyl": ("smarts", "O=Ca"),
}


def _rows(path: str, first: int, count: int) -> list:
    """`count` consecutive 'SMILES name' lines from `first`, wrapping around the file."""
    with open(path, encoding="ascii") as fh:
        rows = [ln.split() for ln in fh if ln.strip()]
    return [rows[(first + k) % len(rows)] for k in range(count)]


def main(scn: dict) -> dict:
    kind, text = CORES[str(scn["core"])]
    core = Chem.MolFromSmarts(text) if kind == "smarts" else Chem.MolFromSmiles(text)
    params = rgd.RGroupDecompositionParameters()
    params.onlyMatchAtRGroups = kind == "smiles" and bool(scn["only_match_at_rgroups"])  # needs a labelled core
    params.removeAllHydrogenRGroups = bool(scn["remove_hydrogen_rgroups"])
    rows = _rows(str(scn["library"]), int(scn["first"]), int(scn["count"]))
    mols = [Chem.MolFromSmiles(smi) for smi, _ in rows]
    table, unmatched = rgd.RGroupDecompose([core], mols, asSmiles=True, asRows=True, options=params)
    unmatched = set(unmatched)
    matched = [k for k in range(len(rows)) if k not in unmatched]
    labels = sorted({key for row in table for key in row if key != "Core"}, key=lambda s: int(s[1:]))
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "rgroups.sdf")
    writer = Chem.SDWriter(path)
    out = []
    for k, row in zip(matched, table):
        mol = mols[k]
        mol.SetProp("_Name", rows[k][1])
        mol.SetProp("Core", row["Core"])
        for lab in labels:
            mol.SetProp(lab, row.get(lab, ""))
        writer.write(mol)
        out.append({"name": rows[k][1], "core": row["Core"], "rgroups": [row.get(lab, "") for lab in labels]})
    writer.close()
    return {
        "decomposition": out,
        "unmatched": [rows[k][1] for k in sorted(unmatched)],
        "labels": labels,
        "distinct_substituents": [len({r["rgroups"][j] for r in out}) for j in range(len(labels))],
        "sdf": "rgroups.sdf",
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
