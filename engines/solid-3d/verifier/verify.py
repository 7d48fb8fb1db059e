"""Hidden verifier of solid-3d: the candidate's mesh against the exact solid OpenCASCADE built for the case
(verifier/expect.py). Everything graded is recomputed from the candidate's vertices and faces: manifoldness,
shells and Euler characteristics, volume, area, and ray-cast classification of points near the boundary."""
from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np

import meshcheck
from meshcheck import BadMesh

CHECKS = ("manifold", "topology", "volume_error", "area_error", "classification")


def _rel(got: float, want: float) -> float:
    return abs(got - want) / max(abs(want), 1e-12)


def grade(expected: dict[str, Any], output: Any) -> list[dict[str, Any]]:
    """One record per check of engine.toml (thresholds applied by the caller's `checks`)."""
    if expected["euler"] == [] and isinstance(output, dict) and output.get("faces") == []:
        return [{"check": c, "measured": 0.0 if c in ("volume_error", "area_error") else None, "pass": True,
                 "detail": "empty solid, empty mesh"} for c in CHECKS]
    try:
        V, F = meshcheck.parse(output)
    except BadMesh as e:
        return [{"check": c, "measured": None, "pass": False, "detail": str(e)} for c in CHECKS]
    try:
        meshcheck.manifold(F)
        man = {"check": "manifold", "measured": None, "pass": True, "detail": f"{len(F)} faces, closed and oriented"}
        euler = meshcheck.shells_euler(F)
        same = euler == expected["euler"]
        topo = {"check": "topology", "measured": float(len(euler)), "pass": same,
                "detail": f"shell Euler characteristics {euler}, exact solid {expected['euler']}"}
    except BadMesh as e:
        man = {"check": "manifold", "measured": None, "pass": False, "detail": str(e)}
        topo = {"check": "topology", "measured": None, "pass": False, "detail": "not a closed 2-manifold"}
    vol, area = meshcheck.volume_area(V, F)
    recs = [man, topo,
            {"check": "volume_error", "measured": _rel(vol, expected["volume"]), "pass": True,
             "detail": f"volume {vol:.6g}, exact {expected['volume']:.6g}"},
            {"check": "area_error", "measured": _rel(area, expected["area"]), "pass": True,
             "detail": f"area {area:.6g}, exact {expected['area']:.6g}"}]
    P = np.array(expected["points"], dtype=float)
    try:
        got = meshcheck.inside(V, F, P)
        wrong = int(np.count_nonzero(got != np.array(expected["inside"], dtype=bool)))
        recs.append({"check": "classification", "measured": float(wrong), "pass": wrong == 0,
                     "detail": f"{wrong} of {len(P)} points misclassified"})
    except BadMesh as e:
        recs.append({"check": "classification", "measured": None, "pass": False, "detail": str(e)})
    return recs


def main() -> None:
    d = json.load(sys.stdin)
    recs = grade(d["expected"], d.get("output"))
    for r in recs:
        spec = d["checks"].get(r["check"], {})
        if spec.get("kind") == "tolerance":
            r["pass"] = r["measured"] is not None and r["measured"] <= float(spec["threshold"])
    print(json.dumps({"checks": recs}))


if __name__ == "__main__":
    main()
