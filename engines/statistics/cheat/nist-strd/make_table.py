"""Writes table.json: every vendored NIST StRD dataset's certified values (verifier/nist), keyed by a
fingerprint of its data that scaling, shifting and permuting leave unchanged. Run from this directory:
`python3 make_table.py`."""
import json
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here.parents[1] / "verifier"))
sys.path.insert(0, str(here))

import strd  # noqa: E402
from fingerprint import fingerprint  # noqa: E402

table = {}
for f in sorted((strd.NIST).glob("*.dat")):
    for proc, parse in strd.PARSERS.items():
        try:
            d = parse(f.stem)
        except (ValueError, StopIteration, IndexError, KeyError):
            continue
        values = [v for g in d["groups"] for v in g] if proc == "anova" else d["y"]
        entry = {"name": f.stem, "procedure": proc, "cert": d["cert"],
                 "sd": fingerprint([float(v) for v in values])[1], "mean": sum(float(v) for v in values) / len(values)}
        if proc == "nonlinear":
            entry["starts"] = d["starts"]
            entry["linear"] = strd.LINEAR_PARAMS.get(f.stem, [])  # the parameters y's scale multiplies
        table[f"{proc}:{fingerprint([float(v) for v in values])[0]}"] = entry
        break
(here / "table.json").write_text(json.dumps(table, indent=0) + "\n")
print(len(table), "datasets")
