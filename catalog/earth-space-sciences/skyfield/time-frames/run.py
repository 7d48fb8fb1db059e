"""Time scales, sidereal time and the direction of a fixed star in several frames with skyfield, offline.

Entry workflow: warm workers import this module once. load.timescale(builtin=True) uses skyfield's bundled
leap-second and Delta T / UT1 tables, so nothing is downloaded. No planetary ephemeris is needed: the star is
a fixed ICRS direction (position_of_radec), so no aberration or light deflection is applied.
"""

from sgp4.api import jday
from skyfield.api import load, position_of_radec, wgs84
from skyfield.earthlib import refract
from skyfield.framelib import ecliptic_frame, galactic_frame

TS = load.timescale(builtin=True)
DAY_S = 86400.0


def main(scenario: dict) -> dict:
    jd, fr = jday(int(scenario["year"]), 1, 1, 0, 0, 0.0)
    t = TS.utc(int(scenario["year"]), 1, float(scenario["day_of_year"]))
    utc_fraction = (jd - float(t.whole)) + fr + (float(scenario["day_of_year"]) - 1.0)
    obs = wgs84.latlon(float(scenario["observer_lat_deg"]), float(scenario["observer_lon_deg"]),
                       elevation_m=float(scenario["observer_elevation_m"]))
    star = position_of_radec(float(scenario["ra_hours"]), float(scenario["dec_deg"]), t=t)

    ra_date, dec_date, _ = star.radec(epoch=t)
    ecl_lat, ecl_lon, _ = star.frame_latlon(ecliptic_frame)
    gal_lat, gal_lon, _ = star.frame_latlon(galactic_frame)
    alt, az, _ = star.frame_latlon(obs)
    alt_refr = refract(float(alt.degrees), float(scenario["temperature_C"]), float(scenario["pressure_mbar"]))
    lst = obs.lst_hours_at(t)
    ha = (lst - float(ra_date.hours) + 12.0) % 24.0 - 12.0
    site = obs.at(t)
    site_ra, site_dec, _ = site.radec(epoch=t)

    return {
        "time_scales": {
            "jd_whole": float(t.whole),
            "tt_fraction": float(t.tt_fraction),
            "tai_minus_utc_s": round((t.tai_fraction - utc_fraction) * DAY_S, 3),
            "tdb_minus_tt_s": float((t.tdb_fraction - t.tt_fraction) * DAY_S),
            "delta_t_s": float(t.delta_t),
            "dut1_s": float(t.dut1),
        },
        "sidereal": {
            "gmst_hours": float(t.gmst),
            "gast_hours": float(t.gast),
            "equation_of_equinoxes_s": float((t.gast - t.gmst) * 3600.0),
            "local_sidereal_hours": float(lst),
        },
        "star": {
            "ra_of_date_hours": float(ra_date.hours),
            "dec_of_date_deg": float(dec_date.degrees),
            "ecliptic_lon_deg": float(ecl_lon.degrees),
            "ecliptic_lat_deg": float(ecl_lat.degrees),
            "galactic_l_deg": float(gal_lon.degrees),
            "galactic_b_deg": float(gal_lat.degrees),
            "hour_angle_hours": float(ha),
            "alt_deg": float(alt.degrees),
            "az_deg": float(az.degrees),
            "alt_refracted_deg": float(alt_refr),
        },
        "site_gcrs_km": [float(c) for c in site.position.km],
        "site_itrs_km": [float(c) for c in obs.itrs_xyz.km],
        "site_zenith_of_date": {
            "ra_hours": float(site_ra.hours),
            "dec_deg": float(site_dec.degrees),
        },
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
