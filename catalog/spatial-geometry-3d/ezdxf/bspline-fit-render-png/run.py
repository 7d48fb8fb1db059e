"""B-spline interpolation of sampled profiles with ezdxf.math (global_bspline_interpolation, BSpline evaluation,
derivatives, Bezier decomposition and flattening), the curves added as SPLINE entities and rendered to PNG by ezdxf's
drawing add-on (ezdxf.addons.drawing.matplotlib.qsave on matplotlib's Agg backend).

Entry workflow: main() creates a new document per call and never mutates module state.
"""

import math
import os

import matplotlib

matplotlib.use("Agg")

import ezdxf  # noqa: E402
from ezdxf.addons.drawing.matplotlib import qsave  # noqa: E402
from ezdxf.math import global_bspline_interpolation  # noqa: E402

FLATTEN = 0.01  # max sagitta of curve flattening, drawing units


def samples(scn, c):
    """Fit points of profile c: x = k*dx, y = c*offset + amp*exp(-decay*x)*sin(freq*x + c*phase)."""
    n, dx = int(scn["n_points"]), 10.0 / (int(scn["n_points"]) - 1)
    amp, freq, decay = float(scn["amplitude"]), float(scn["frequency"]), float(scn["decay"])
    off, phase = 2.5 * amp, float(scn["phase_step"])
    return [(k * dx, c * off + amp * math.exp(-decay * k * dx) * math.sin(freq * k * dx + c * phase)) for k in range(n)]


def main(scn: dict) -> dict:
    doc = ezdxf.new("R2010", setup=False)
    msp = doc.modelspace()
    curves = []
    for c in range(int(scn["n_curves"])):
        pts = samples(scn, c)
        spline = global_bspline_interpolation(pts, degree=int(scn["degree"]), method=str(scn["method"]))
        msp.add_open_spline(spline.control_points, degree=spline.degree, knots=spline.knots(),
                            dxfattribs={"color": c + 1})
        flat = list(spline.flattening(FLATTEN))
        mid = spline.point(spline.max_t / 2.0)
        d1 = spline.derivative(spline.max_t / 2.0, n=1)[1]
        curves.append({
            "control_points": spline.count,
            "knots": len(spline.knots()),
            "bezier_segments": len(list(spline.bezier_decomposition())) if spline.degree == 3 else 0,
            "length": sum((b - a).magnitude for a, b in zip(flat, flat[1:])),
            "midpoint": [mid.x, mid.y],
            "mid_tangent_angle_deg": math.degrees(math.atan2(d1.y, d1.x)),
        })
    png = "curves.png"
    qsave(msp, os.path.join(os.environ["SWR_ARTIFACTS"], png), bg="#FFFFFF", dpi=50, size_inches=(8.0, 0.0))
    return {"render": png, "curves": curves}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
