"""Clean a museum specimen catalogue with pandas: concat of re-entered records, stable sort, drop_duplicates,
per-taxon ranking (groupby rank with a tie rule), top-n selection, tag indicator columns (str.get_dummies) and an
exploded specimen-tag list; the cleaned, ranked table is written as CSV.

Entry workflow: warm workers import this module once; main() builds new frames per call from numpy's PCG64
generator seeded by the scenario.
"""

import os

import numpy as np
import pandas as pd

TAXA = ["Apis", "Bombus", "Carabus", "Dytiscus", "Formica"]
SITES = ["A", "B", "C", "D"]
TAGS = ["dna", "photo", "pinned", "ethanol", "type"]


def records(scenario: dict) -> pd.DataFrame:
    rng = np.random.default_rng(int(scenario["seed"]))
    n = int(scenario["n_specimens"])
    taxon = rng.integers(0, 5, n)
    site = rng.integers(0, 4, n)
    mass = np.rint(rng.lognormal(3.0, float(scenario["mass_sigma"]), n))
    ntag = rng.integers(0, 4, n)
    tags = [";".join(TAGS[j] for j in sorted(rng.choice(5, size=int(m), replace=False))) for m in ntag]
    day = rng.integers(0, 365, n)
    df = pd.DataFrame(
        {
            "specimen_id": [f"S{i:04d}" for i in range(n)],
            "taxon": [TAXA[t] for t in taxon],
            "site": [SITES[s] for s in site],
            "mass_mg": mass.astype(int),
            "tags": tags,
            "entry_day": day,
        }
    )
    k = int(np.floor(float(scenario["duplicate_fraction"]) * n))
    idx = np.sort(rng.choice(n, size=k, replace=False))
    dup = df.iloc[idx].copy()
    dup["mass_mg"] = np.maximum(1, dup["mass_mg"].to_numpy() + rng.integers(-3, 4, k))
    dup["entry_day"] = dup["entry_day"].to_numpy() + rng.integers(1, 30, k)
    return pd.concat([df, dup], ignore_index=True)


def main(scenario: dict) -> dict:
    raw = records(scenario)
    df = raw.sort_values(["entry_day", "specimen_id"], kind="stable")
    df = df.drop_duplicates("specimen_id", keep=scenario["keep"]).copy()
    df["rank"] = df.groupby("taxon")["mass_mg"].rank(method=scenario["rank_method"], ascending=False)
    dummies = df["tags"].str.get_dummies(sep=";").reindex(columns=TAGS, fill_value=0)
    df["n_tags"] = dummies.sum(axis=1)
    top = df[df["rank"] <= int(scenario["top_n"])]
    out = df.sort_values(["taxon", "rank", "specimen_id"])[
        ["specimen_id", "taxon", "site", "mass_mg", "rank", "n_tags"]
    ]
    out.to_csv(os.path.join(os.environ["SWR_ARTIFACTS"], "catalogue.csv"), index=False)
    long = df.assign(tag=df["tags"].str.split(";")).explode("tag")
    long = long[long["tag"].ne("") & long["tag"].notna()]
    per_tag = long["tag"].value_counts().reindex(TAGS, fill_value=0)
    return {
        "table": "catalogue.csv",
        "n_raw": len(raw),
        "n_removed": len(raw) - len(df),
        "tag_counts": {t: int(per_tag[t]) for t in TAGS},
        "tagged_specimens": int((df["n_tags"] > 0).sum()),
        "top_count": len(top),
        "top_mass_mg": int(top["mass_mg"].sum()),
        "median_mass_by_taxon": {t: float(v) for t, v in df.groupby("taxon")["mass_mg"].median().items()},
        "site_taxa": {
            s: int(v) for s, v in top.groupby("site")["taxon"].nunique().reindex(SITES, fill_value=0).items()
        },
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
