"""Hidden verifier of cad-2d: every operation's answer is recomputed with ezdxf and shapely from the case's DXF
and compared with the candidate's own primary output (numbers, rings, points); regions are rebuilt from the
candidate's rings and their validity and topology are recomputed, never read from a field.

A hidden case's items (engine.toml [score]) are its operations: each check is reported per operation, beside the
case-wide records (the worst operation) that grade a worked example, whose one item is the case itself."""
from __future__ import annotations

import json
import math
import sys
from typing import Any

import numpy as np
from shapely.geometry import LinearRing, MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

import refgeom

MAX_VERTICES = 200_000
CHECKS = ("value_error", "region_symdiff", "region_topology", "point_error")


class Bad(ValueError):
    """The candidate's answer is malformed; the message says how."""


def _ring(obj: Any) -> list[tuple[float, float]]:
    if not isinstance(obj, list) or not all(isinstance(p, list) and len(p) == 2 for p in obj):
        raise Bad("a ring is not a list of [x, y]")
    pts = [(float(x), float(y)) for x, y in obj if isinstance(x, (int, float)) and isinstance(y, (int, float))]
    if len(pts) != len(obj) or not all(math.isfinite(c) and abs(c) < 1e9 for p in pts for c in p):
        raise Bad("a ring holds a non-numeric or non-finite coordinate")
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts = pts[:-1]
    if len(set(pts)) < 3:
        raise Bad("a ring has fewer than 3 distinct points")
    return pts


def candidate_polygons(res: Any) -> list[Polygon]:
    """The candidate's regions as shapely polygons; each ring must be simple and each polygon valid."""
    regs = res.get("regions") if isinstance(res, dict) else None
    if not isinstance(regs, list):
        raise Bad("no `regions` list")
    polys, total = [], 0
    for r in regs:
        if not isinstance(r, dict) or not isinstance(r.get("holes", []), list):
            raise Bad("a region is not {exterior, holes}")
        rings = [_ring(r.get("exterior"))] + [_ring(h) for h in r.get("holes", [])]
        total += sum(len(x) for x in rings)
        if total > MAX_VERTICES:
            raise Bad(f"more than {MAX_VERTICES} vertices")
        for x in rings:
            if not LinearRing(x).is_simple:
                raise Bad("a ring intersects itself")
        polys.append(Polygon(rings[0], rings[1:]))
    return polys


def _parts(g: BaseGeometry) -> list[Polygon]:
    if g.is_empty:
        return []
    if isinstance(g, Polygon):
        return [g]
    return [p for p in getattr(g, "geoms", []) if isinstance(p, Polygon) and not p.is_empty]


def grade_regions(ref: BaseGeometry, res: Any) -> tuple[float | None, bool, str]:
    """(symmetric-difference area / reference area, topology holds, why)."""
    try:
        polys = candidate_polygons(res)
    except Bad as e:
        return None, False, str(e)
    mp = MultiPolygon(polys) if polys else MultiPolygon()
    valid = all(p.is_valid for p in polys) and mp.is_valid
    try:
        geom = mp if valid else mp.buffer(0)
        ratio = float(geom.symmetric_difference(ref).area) / max(float(ref.area), 1e-9)
    except Exception as e:  # noqa: BLE001 - a degenerate candidate geometry is a failed measurement
        return None, False, f"symmetric difference failed: {e}"
    want = _parts(ref)
    got = (len(polys), sum(len(p.interiors) for p in polys))
    exp = (len(want), sum(len(p.interiors) for p in want))
    if not valid:
        return ratio, False, "invalid polygons (overlapping regions, hole outside its exterior, ...)"
    return ratio, got == exp, f"components, holes: {got} (reference {exp})"


def grade_points(ref: list[tuple[float, float]], res: Any) -> tuple[float | None, str]:
    pts = res.get("points") if isinstance(res, dict) else None
    if not isinstance(pts, list) or not all(isinstance(p, list) and len(p) == 2 for p in pts):
        return None, "no `points` list of [x, y]"
    try:
        got = np.array(pts, dtype=float).reshape(-1, 2)
    except (TypeError, ValueError):
        return None, "non-numeric point"
    if len(got) != len(ref):
        return None, f"{len(got)} points, reference {len(ref)}"
    if not len(ref):
        return 0.0, "no intersection"
    if not np.isfinite(got).all():
        return None, "non-finite point"
    dist = np.linalg.norm(got[:, None, :] - np.array(ref)[None, :, :], axis=2)
    worst, free = 0.0, set(range(len(got)))
    for j in range(len(ref)):  # greedy matching: reference points are far apart compared with the tolerance
        i = min(free, key=lambda k: dist[k, j])
        free.discard(i)
        worst = max(worst, float(dist[i, j]))
    return worst, f"{len(ref)} points matched"


def grade_value(ref: float, res: Any) -> tuple[float | None, str]:
    v = res.get("value") if isinstance(res, dict) else None
    if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
        return None, "no finite `value`"
    return abs(float(v) - ref) / max(abs(ref), 1e-12), f"value {v!r}, reference {ref!r}"


ANSWERS = {"value", "regions", "points"}  # the keys of an answer; a result carries one of them or `error`


def _check_of(exp: dict[str, Any]) -> str:
    """The check that grades an expected answer."""
    return "value_error" if "value" in exp else "point_error" if "points" in exp else "region_symdiff"


Row = tuple[float | None, bool | None, str, str]  # measured, holds, detail, operation id


def grade(case_input: dict[str, Any], output: Any) -> dict[str, list[Row]]:
    """Per check, one (measured, holds, detail, operation id) per operation it applies to."""
    ents = refgeom.read(case_input["dxf"])
    results = output.get("results") if isinstance(output, dict) else None
    results = results if isinstance(results, dict) else {}
    out: dict[str, list] = {c: [] for c in CHECKS}
    for op in case_input["operations"]:
        exp, res = refgeom.expected(ents, op), results.get(str(op["id"]))
        tag, oid = f"{op['id']} ({op['op']})", str(op["id"])
        if "error" in exp:
            ok = isinstance(res, dict) and isinstance(res.get("error"), str) and not ANSWERS & set(res)
            out["value_error"].append((0.0 if ok else None, None, f"{tag}: an error object (and no answer) expected", oid))
        elif isinstance(res, dict) and "error" in res:  # an answer hedged by an error decides nothing
            out[_check_of(exp)].append((None, False, f"{tag}: an `error` where the spec answers", oid))
            if _check_of(exp) == "region_symdiff":
                out["region_topology"].append((None, False, f"{tag}: an `error` where the spec answers", oid))
        elif "value" in exp:
            m, why = grade_value(exp["value"], res)
            out["value_error"].append((m, None, f"{tag}: {why}", oid))
        elif "points" in exp:
            m, why = grade_points(exp["points"], res)
            out["point_error"].append((m, None, f"{tag}: {why}", oid))
        else:
            m, holds, why = grade_regions(exp["geometry"], res)
            out["region_symdiff"].append((m, None, f"{tag}: {why}", oid))
            out["region_topology"].append((None, holds, f"{tag}: {why}", oid))
    return out


def summarize(name: str, spec: dict[str, Any], rows: list[Row]) -> dict[str, Any]:
    """The worst operation decides; a check with no operation in the case (or an operation it does not apply
    to) holds vacuously."""
    if not rows:
        return {"check": name, "measured": 0.0, "pass": True, "detail": "no operation of this kind"}
    if spec.get("kind") != "tolerance":
        bad = [r[2] for r in rows if not r[1]]
        return {"check": name, "measured": None, "pass": not bad, "detail": "; ".join(bad)[:400] or "holds"}
    if any(r[0] is None for r in rows):
        why = next(r[2] for r in rows if r[0] is None)
        return {"check": name, "measured": None, "pass": False, "detail": why[:400]}
    worst = max(rows, key=lambda r: r[0])
    t = float(spec["threshold"])
    return {"check": name, "measured": float(worst[0]), "pass": bool(worst[0] <= t), "detail": worst[2][:400]}


def itemised(checks: dict[str, Any], items: list[str], rows: dict[str, list[Row]]) -> list[dict[str, Any]]:
    """One record per (check, operation the case scores as an item): each operation is graded alone (engine.toml
    [score]); a check that does not apply to it holds vacuously for it."""
    ops = {r[3] for rs in rows.values() for r in rs}
    return [{**summarize(c, checks[c], [r for r in rows[c] if r[3] == item]), "item": item}
            for item in items if item in ops for c in CHECKS]


def main() -> None:
    d = json.load(sys.stdin)
    rows = grade(d["input"], d.get("output"))
    wide = [summarize(c, d["checks"][c], rows[c]) for c in CHECKS]
    print(json.dumps({"checks": wide + itemised(d["checks"], [str(i) for i in d.get("items") or []], rows)}))


if __name__ == "__main__":
    main()
