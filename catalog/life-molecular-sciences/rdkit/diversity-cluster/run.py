"""Diversity selection and clustering of a compound library with RDKit: MACCS keys, hashed atom-pair or topological-
torsion fingerprints, or RDKit path fingerprints; MaxMin diversity picking (rdSimDivPickers.MaxMinPicker) and Butina
clustering (rdkit.ML.Cluster.Butina) on Tanimoto distances, as a screening chemist picks a diverse subset to
purchase and groups the rest into series.

Entry workflow: main(dict) -> dict.
"""

from rdkit import Chem, DataStructs, RDLogger
from rdkit.Chem import MACCSkeys, rdFingerprintGenerator
from rdkit.ML.Cluster import Butina
from rdkit.SimDivFilters.rdSimDivPickers import MaxMinPicker

RDLogger.DisableLog("rdApp.*")


def fingerprints(mols, kind, size):
    if kind == "maccs":
        return [MACCSkeys.GenMACCSKeys(m) for m in mols]
    if kind == "atom_pair":
        gen = rdFingerprintGenerator.GetAtomPairGenerator(fpSize=size)
    elif kind == "torsion":
        gen = rdFingerprintGenerator.GetTopologicalTorsionGenerator(fpSize=size)
    else:
        gen = rdFingerprintGenerator.GetRDKitFPGenerator(maxPath=5, fpSize=size)
    return [gen.GetFingerprint(m) for m in mols]


def main(scn):
    with open(str(scn["library"]), encoding="ascii") as fh:
        rows = [ln.split() for ln in fh if ln.strip()]
    names = [n for _, n in rows]
    fps = fingerprints([Chem.MolFromSmiles(s) for s, _ in rows], str(scn["fingerprint"]), int(scn["fp_size"]))
    n = len(fps)
    picks = list(MaxMinPicker().LazyBitVectorPick(fps, n, int(scn["n_pick"]),
                                                  firstPicks=[int(scn["first_pick"]) % n]))
    dists = []
    for i in range(1, n):
        dists.extend(1.0 - s for s in DataStructs.BulkTanimotoSimilarity(fps[i], fps[:i]))
    clusters = Butina.ClusterData(dists, n, float(scn["cluster_threshold"]), isDistData=True,
                                  reordering=bool(scn["reordering"]))
    picked = [names[i] for i in picks]
    min_pair = min(1.0 - DataStructs.TanimotoSimilarity(fps[a], fps[b])
                   for k, a in enumerate(picks) for b in picks[:k])
    return {
        "picked": picked,
        "min_distance_among_picked": min_pair,
        "n_clusters": len(clusters),
        "clusters": [[names[i] for i in c] for c in clusters],
        "singletons": sorted(names[c[0]] for c in clusters if len(c) == 1),
        "largest_cluster_size": max(len(c) for c in clusters),
        "mean_distance": sum(dists) / len(dists),
    }
