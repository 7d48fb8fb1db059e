"""A land survey streamed to DXF R12 with ezdxf's fast writer (ezdxf.addons.r12writer): surveyed points with
elevation labels and a triangulated terrain surface (3DFACE TIN on the survey grid), then read back as a CAD
importer would, entity by entity without loading the document (ezdxf.addons.iterdxf.opendxf(...).modelspace()), to
compute the terrain's surface area and the cut/fill volume against a datum from the read-back faces."""

import math
import os
import random

from ezdxf.addons import iterdxf
from ezdxf.addons.r12writer import r12writer


def survey(scn):
    """Grid of nx x ny stations (spacing, jittered) with a seeded smooth terrain plus noise."""
    rng = random.Random(int(scn["seed"]))
    nx, ny, h = int(scn["nx"]), int(scn["ny"]), float(scn["spacing_m"])
    amp, wl, noise = float(scn["relief_m"]), float(scn["wavelength_m"]), float(scn["noise_m"])
    pts = {}
    for j in range(ny):
        for i in range(nx):
            x = i * h + rng.uniform(-0.2, 0.2) * h
            y = j * h + rng.uniform(-0.2, 0.2) * h
            z = 100.0 + amp * math.sin(2 * math.pi * x / wl) * math.cos(2 * math.pi * y / wl) + rng.gauss(0.0, noise)
            pts[i, j] = (round(x, 3), round(y, 3), round(z, 3))
    return pts


def main(scn: dict) -> dict:
    pts = survey(scn)
    nx, ny, dec = int(scn["nx"]), int(scn["ny"]), int(scn["label_decimals"])
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "survey.dxf")
    with r12writer(path) as dxf:
        for _ij, (x, y, z) in sorted(pts.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            dxf.add_point((x, y, z), layer="SURVEY")
            dxf.add_text(f"{z:.{dec}f}", insert=(x + 0.5, y + 0.5), height=float(scn["label_height"]), layer="LABELS")
        for j in range(ny - 1):
            for i in range(nx - 1):
                a, b, c, d = pts[i, j], pts[i + 1, j], pts[i + 1, j + 1], pts[i, j + 1]
                dxf.add_3dface([a, b, c], layer="TIN")
                dxf.add_3dface([a, c, d], layer="TIN")
    datum = float(scn["datum_m"])
    counts, area3d, cut, fill, zs = {}, 0.0, 0.0, 0.0, []
    reader = iterdxf.opendxf(path)
    for e in reader.modelspace():
        counts[e.dxftype()] = counts.get(e.dxftype(), 0) + 1
        if e.dxftype() == "POINT":
            zs.append(e.dxf.location.z)
        elif e.dxftype() == "3DFACE":
            p0, p1, p2 = e.dxf.vtx0, e.dxf.vtx1, e.dxf.vtx2
            area3d += 0.5 * (p1 - p0).cross(p2 - p0).magnitude
            plan = 0.5 * abs((p1.x - p0.x) * (p2.y - p0.y) - (p2.x - p0.x) * (p1.y - p0.y))
            dz = (p0.z + p1.z + p2.z) / 3.0 - datum
            cut += plan * max(dz, 0.0)
            fill += plan * max(-dz, 0.0)
    reader.close()
    return {
        "drawing": "survey.dxf",
        "entities": dict(sorted(counts.items())),
        "z_min": min(zs),
        "z_max": max(zs),
        "surface_area_m2": area3d,
        "cut_m3": cut,
        "fill_m3": fill,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
