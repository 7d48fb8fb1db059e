"""A ship's schedule along a geodesic with geographiclib: Geodesic.DirectLine and GeodesicLine.Position (distance
parametrisation, all outputs: reduced length, geodesic scales, area), with Clairaut's vertex latitude.

Entry workflow: main() builds its line from the scenario.
"""

import math

from geographiclib.geodesic import Geodesic

KNOT_M_PER_H = 1852.0


def _vertex_lat(lat: float, course: float, f: float) -> float:
    """Highest geodetic latitude of the geodesic: Clairaut's constant sin(alpha0) = sin(azi) cos(beta)."""
    beta1 = math.atan((1.0 - f) * math.tan(math.radians(lat)))
    salp0 = math.sin(math.radians(course)) * math.cos(beta1)
    beta_max = math.acos(min(1.0, abs(salp0)))
    return math.degrees(math.atan(math.tan(beta_max) / (1.0 - f)))


def main(s: dict) -> dict:
    g = Geodesic.WGS84
    lat, lon, course = float(s["lat_deg"]), float(s["lon_deg"]), float(s["course_deg"])
    speed = float(s["speed_kn"]) * KNOT_M_PER_H
    dur, step = int(s["duration_h"]), int(s["interval_h"])
    line = g.DirectLine(lat, lon, course, speed * dur, Geodesic.ALL)
    schedule = []
    for t in range(step, dur + 1, step):
        p = line.Position(speed * t, Geodesic.ALL | Geodesic.LONG_UNROLL)
        schedule.append({"t_h": t, "lat_deg": p["lat2"], "lon_deg": p["lon2"], "azi2_deg": p["azi2"],
                         "a12_deg": p["a12"], "m12_m": p["m12"], "M12": p["M12"], "M21": p["M21"],
                         "S12_m2": p["S12"]})
    return {
        "schedule": schedule,
        "total_arc_deg": float(line.a13),
        "vertex_lat_deg": _vertex_lat(lat, course, g.f),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
