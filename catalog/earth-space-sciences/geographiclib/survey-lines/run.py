"""A multibeam survey line plan with geographiclib: line starts by Geodesic.Direct along a cross line, each line a
Geodesic.Line with pings from GeodesicLine.Position (distance parametrisation, reduced length and area), the plan's
length summed with Accumulator.

Entry workflow: main() builds the plan from the scenario.
"""

from geographiclib.accumulator import Accumulator
from geographiclib.geodesic import Geodesic

G = Geodesic.WGS84


def _line(lat: float, lon: float, heading: float, length: float, n: int) -> tuple[dict, list, float]:
    """One survey line: its summary, its pings and its last ping's distance."""
    line = G.Line(lat, lon, heading, Geodesic.ALL)
    pings, d, last = [], 0.0, {}
    for k in range(n + 1):
        d = k * length / n
        last = line.Position(d, Geodesic.ALL | Geodesic.LONG_UNROLL)
        pings.append([last["lat2"], last["lon2"]])
    summary = {"start_lat_deg": lat, "start_lon_deg": lon, "heading_deg": heading, "end_lat_deg": last["lat2"],
               "end_lon_deg": last["lon2"], "end_azi_deg": last["azi2"], "m12_m": last["m12"], "S12_m2": last["S12"]}
    return summary, pings, d


def main(s: dict) -> dict:
    lat0, lon0, azi = float(s["lat_deg"]), float(s["lon_deg"]), float(s["azimuth_deg"])
    length = float(s["line_length_km"]) * 1000.0
    total = Accumulator()
    lines, pings = [], []
    for i in range(int(s["n_lines"])):
        if i == 0:
            lat, lon, azi2 = lat0, lon0, azi + 90.0
        else:
            r = G.Direct(lat0, lon0, azi + 90.0, i * float(s["line_spacing_m"]))
            lat, lon, azi2 = r["lat2"], r["lon2"], r["azi2"]
        summary, p, d = _line(lat, lon, azi2 - 90.0, length, int(s["n_pings"]))
        lines.append(summary)
        pings.append(p)
        total.Add(d)
    return {"lines": lines, "pings": pings, "total_track_m": total.Sum()}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
