"""A simulated radiograph of a casting with a gas pore, by ray casting through a manifold3d solid: a block drilled
with through holes and holding a spherical void (Manifold CSG) is crossed by parallel rays along z, one per detector
pixel (Manifold.ray_cast: every surface crossing of the segment, sorted); the material path length along each ray
gives the Beer-Lambert transmission exp(-mu L), written as an 8-bit grey PNG with summary figures.

Entry workflow: main() builds new objects per call and never mutates module state. The PNG goes to $SWR_ARTIFACTS.
"""

import os
import struct
import zlib

import numpy as np
from manifold3d import Manifold


def write_png(path, grey):
    """8-bit greyscale PNG (no filter) from a 2D uint8 array, rows top to bottom."""
    h, w = grey.shape
    raw = b"".join(b"\x00" + grey[r].tobytes() for r in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                 + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def casting(s):
    ex, ey, ez = (float(v) for v in s["block"])
    seg = int(s["segments"])
    part = Manifold.cube((ex, ey, ez), True)
    holes, r = int(s["holes"]), float(s["hole_radius"])
    for k in range(holes):
        x = ex * (k + 1) / (holes + 1) - ex / 2.0
        part = part - Manifold.cylinder(2.0 * ez, r, r, seg, True).translate((x, -ey / 4.0, 0.0))
    fx, fy, fz = (float(v) for v in s["void_frac"])
    centre = ((fx - 0.5) * ex, (fy - 0.5) * ey, (fz - 0.5) * ez)
    return part - Manifold.sphere(float(s["void_radius"]), seg).translate(centre), (ex, ey, ez)


def main(s: dict) -> dict:
    part, (ex, ey, ez) = casting(s)
    n = int(s["pixels"])
    side = 1.1 * max(ex, ey)
    c = (np.arange(n) + 0.5) * side / n - side / 2.0
    z0, z1 = -ez, ez
    path = np.zeros((n, n))
    for i, y in enumerate(c):
        for j, x in enumerate(c):
            t = sorted(h.distance for h in part.ray_cast((x, y, z0), (x, y, z1)))
            path[i, j] = sum(t[k + 1] - t[k] for k in range(0, len(t) - 1, 2)) * (z1 - z0)
    trans = np.exp(-float(s["mu_per_mm"]) * path)
    name = "radiograph.png"
    write_png(os.path.join(os.environ["SWR_ARTIFACTS"], name), np.round(255.0 * trans[::-1]).astype(np.uint8))
    return {
        "radiograph": name,
        "max_path_mm": float(path.max()),
        "mean_transmission": float(trans.mean()),
        "shadow_fraction": float(np.mean(path > 0.0)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
