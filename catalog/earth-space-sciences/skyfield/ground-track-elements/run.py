"""Ground track and osculating elements of a satellite from a TLE file with skyfield: EarthSatellite (SGP4) positions,
their Earth-fixed ITRS coordinates (framelib.itrs), WGS-84 geodetic sub-points (toposlib), and the osculating
Keplerian elements of the geocentric state (elementslib.osculating_elements_of, equatorial or J2000 ecliptic), as a
mission analyst tabulates a ground track.

Entry workflow: main(dict) -> dict; reads the chosen TLE file, writes one CSV to $SWR_ARTIFACTS. Builtin timescale.
"""

import csv
import os
from pathlib import Path

import numpy as np
from skyfield.api import EarthSatellite, load, wgs84
from skyfield.data.spice import inertial_frames
from skyfield.elementslib import osculating_elements_of
from skyfield.framelib import itrs

TS = load.timescale(builtin=True)
FRAMES = {"equatorial": None, "ecliptic": inertial_frames["ECLIPJ2000"]}


def satellite(s: dict) -> EarthSatellite:
    lines = [ln.rstrip() for ln in Path(str(s["tle_file"])).read_text(encoding="ascii").splitlines() if ln.strip()]
    k = 3 * (int(s["satellite_index"]) % (len(lines) // 3))
    return EarthSatellite(lines[k + 1], lines[k + 2], lines[k].strip(), TS)


def main(s: dict) -> dict:
    sat = satellite(s)
    n = int(s["n_samples"])
    t_min = float(s["start_offset_min"]) + np.arange(n) * float(s["step_min"])
    t = TS.tt_jd(sat.epoch.tt + t_min / 1440.0)
    pos = sat.at(t)
    xyz = pos.frame_xyz(itrs).km
    geo = wgs84.geographic_position_of(pos)
    lat, lon, h = geo.latitude.degrees, geo.longitude.degrees, geo.elevation.km
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "ground_track.csv"), "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["t_min", "lat_deg", "lon_deg", "height_km", "itrs_x_km", "itrs_y_km", "itrs_z_km"])
        for i in range(n):
            w.writerow([repr(float(v)) for v in (t_min[i], lat[i], lon[i], h[i], xyz[0, i], xyz[1, i], xyz[2, i])])
    el = osculating_elements_of(sat.at(t[0]), FRAMES[str(s["element_frame"])])
    return {
        "ground_track": "ground_track.csv",
        "name": sat.name,
        "epoch_tt_jd": float(sat.epoch.tt),
        "elements_at_first_sample": {
            "semi_major_axis_km": float(el.semi_major_axis.km),
            "eccentricity": float(el.eccentricity),
            "inclination_deg": float(el.inclination.degrees),
            "ascending_node_deg": float(el.longitude_of_ascending_node.degrees),
            "argument_of_latitude_deg": float(el.argument_of_latitude.degrees),
            "period_min": float(el.period_in_days * 1440.0),
            "apoapsis_km": float(el.apoapsis_distance.km),
            "periapsis_km": float(el.periapsis_distance.km),
        },
        "max_height_km": float(h.max()),
        "min_height_km": float(h.min()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
