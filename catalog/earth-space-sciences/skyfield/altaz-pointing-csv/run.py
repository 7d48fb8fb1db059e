"""A telescope pointing table with skyfield: horizon (alt/az) pointings of a site turned into celestial coordinates
(Geographic.at(t).from_altaz, Apparent.radec for J2000 and for the equinox of date, Geographic.lst_hours_at for the
hour angle), as an observatory plans the sky reachable by a declination-limited mount; the table is written as CSV.

Entry workflow: main(dict) -> dict; the CSV goes to $SWR_ARTIFACTS.
"""

import os

import numpy as np
from skyfield.api import load, wgs84


def main(s: dict) -> dict:
    ts = load.timescale(builtin=True)
    t = ts.utc(int(s["year"]), 1, int(s["day_of_year"]), float(s["hour_utc"]))
    site = wgs84.latlon(float(s["lat_deg"]), float(s["lon_deg"]))
    n_alt, n_az = int(s["n_alt"]), int(s["n_az"])
    alts = np.linspace(float(s["alt_min_deg"]), 85.0, n_alt)
    azs = (float(s["az_start_deg"]) + np.arange(n_az) * 360.0 / n_az) % 360.0
    alt, az = (g.ravel() for g in np.meshgrid(alts, azs, indexing="ij"))
    pos = site.at(t).from_altaz(alt_degrees=alt, az_degrees=az)
    ra, dec, _ = pos.radec()
    ra_d, dec_d, _ = pos.radec(epoch=t)
    lst = float(site.lst_hours_at(t))
    ha = (lst - ra_d.hours + 12.0) % 24.0 - 12.0
    rows = np.column_stack([alt, az, ra.hours, dec.degrees, ra_d.hours, dec_d.degrees, ha])
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "pointings.csv")
    header = "alt_deg,az_deg,ra_j2000_h,dec_j2000_deg,ra_date_h,dec_date_deg,hour_angle_h"
    np.savetxt(path, rows, delimiter=",", header=header, comments="", fmt="%.10f")
    limit = float(s["dec_limit_deg"])
    return {
        "pointings": "pointings.csv",
        "lst_hours": lst,
        "n_pointings": int(alt.size),
        "n_below_dec_limit": int(np.count_nonzero(dec_d.degrees < limit)),
        "max_dec_deg": float(dec_d.degrees.max()),
        "min_dec_deg": float(dec_d.degrees.min()),
        "max_abs_hour_angle_h": float(np.abs(ha).max()),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
