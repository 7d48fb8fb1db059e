"""Relative astrometry of a visual double star with skyfield's angle and vector utilities: the companion placed from
separation and position angle (skyfield.functions.from_spherical, rot_y / rot_z), both stars moved by their proper
motions, the new separation (functions.angle_between) and position angle (skyfield.trigonometry.position_angle_of),
and the coordinates formatted with skyfield.units.Angle, as a double-star observer predicts a pair's next measure.

Entry workflow: main(dict) -> dict; pure function of the scenario.
"""

import math

from skyfield import functions, trigonometry
from skyfield.units import Angle

MAS = math.pi / (180.0 * 3600.0 * 1000.0)
ASEC = math.pi / (180.0 * 3600.0)


def offset(ra: float, dec: float, sep: float, pa: float) -> tuple[float, float]:
    """The direction at angular distance sep and position angle pa (north through east) from (ra, dec), radians:
    built at the pole and rotated into place."""
    v = functions.from_spherical(1.0, math.pi / 2.0 - sep, math.pi - pa)
    v = functions.rot_z(ra) @ functions.rot_y(math.pi / 2.0 - dec) @ v
    _, lat, lon = functions.to_spherical(v)
    return float(lon) % (2.0 * math.pi), float(lat)


def moved(ra: float, dec: float, pm_ra_cosdec: float, pm_dec: float, years: float) -> tuple[float, float]:
    return ra + pm_ra_cosdec * MAS * years / math.cos(dec), dec + pm_dec * MAS * years


def measure(a: tuple[float, float], b: tuple[float, float]) -> dict:
    va = functions.from_spherical(1.0, a[1], a[0])
    vb = functions.from_spherical(1.0, b[1], b[0])
    sep = float(functions.angle_between(va, vb))
    pair_a = (Angle(radians=a[0], preference="hours"), Angle(radians=a[1], signed=True))
    pair_b = (Angle(radians=b[0], preference="hours"), Angle(radians=b[1], signed=True))
    pa = trigonometry.position_angle_of(pair_a, pair_b)
    return {"separation_arcsec": sep / ASEC, "position_angle_deg": float(pa.degrees)}


def main(s: dict) -> dict:
    ra0, dec0 = math.radians(float(s["ra_hours"]) * 15.0), math.radians(float(s["dec_deg"]))
    ra1, dec1 = offset(ra0, dec0, float(s["separation_arcsec"]) * ASEC, math.radians(float(s["position_angle_deg"])))
    years = float(s["years"])
    a = moved(ra0, dec0, float(s["primary_pm_ra_mas_yr"]), float(s["primary_pm_dec_mas_yr"]), years)
    b = moved(ra1, dec1, float(s["companion_pm_ra_mas_yr"]), float(s["companion_pm_dec_mas_yr"]), years)
    places = int(s["places"])
    return {
        "companion_now": {"ra_hours": ra1 / math.pi * 12.0, "dec_deg": math.degrees(dec1),
                          "ra_text": Angle(radians=ra1, preference="hours").hstr(places=places),
                          "dec_text": Angle(radians=dec1).dstr(places=places)},
        "check_now": measure((ra0, dec0), (ra1, dec1)),
        "after": measure(a, b),
        "primary_after_dec_text": Angle(radians=a[1]).dstr(places=places),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
