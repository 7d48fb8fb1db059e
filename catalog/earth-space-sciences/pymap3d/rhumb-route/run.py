"""Rhumb line (loxodrome) against geodesic between two points on a chosen ellipsoid with pymap3d: distances,
courses, waypoints along both routes, and the auxiliary latitudes and radii of curvature at the departure.

Entry workflow: warm workers import this module once; main() builds its own Ellipsoid.
"""

import sys

sys.modules.setdefault("astropy", None)  # pymap3d imports astropy for ECI frames if present (2-3 s); none are used here

import pymap3d as pm  # noqa: E402
from pymap3d import latitude, lox, rcurve, vincenty  # noqa: E402

AUX = ("parametric", "rectifying", "authalic", "conformal", "isometric")


def _aux_latitudes(lat: float, ell: pm.Ellipsoid) -> dict:
    """The six auxiliary latitudes of one geodetic latitude on the ellipsoid's surface (degrees)."""
    out = {"geocentric_deg": float(latitude.geodetic2geocentric(lat, 0.0, ell=ell))}
    return out | {f"{name}_deg": float(getattr(latitude, f"geodetic2{name}")(lat, ell=ell)) for name in AUX}


def _radii(lat: float, ell: pm.Ellipsoid) -> dict:
    """Radii of curvature and of the parallel, and the geocentric radius, at one geodetic latitude (metres)."""
    return {
        "meridian_m": float(rcurve.meridian(lat, ell=ell)),
        "transverse_m": float(rcurve.transverse(lat, ell=ell)),
        "parallel_m": float(rcurve.parallel(lat, ell=ell)),
        "geocentric_m": float(rcurve.geocentric_radius(lat, ell=ell)),
    }


def _wrap(lon: float) -> float:
    """Longitude in [-180, 180): vreckon answers in [0, 360), loxodrome_direct in [-180, 180]."""
    return (lon + 180.0) % 360.0 - 180.0


def main(scenario: dict) -> dict:
    ell = pm.Ellipsoid.from_name(str(scenario["ellipsoid"]))
    lat1, lon1, lat2 = float(scenario["lat1_deg"]), float(scenario["lon1_deg"]), float(scenario["lat2_deg"])
    lon2 = float(scenario["lon1_deg"]) + float(scenario["delta_lon_deg"])
    n = int(scenario["n_waypoints"])

    rhumb_m, course = lox.loxodrome_inverse(lat1, lon1, lat2, lon2, ell=ell)
    geo_m, az1 = vincenty.vdist(lat1, lon1, lat2, lon2, ell=ell)
    rhumb_m, course, geo_m, az1 = (float(v) for v in (rhumb_m, course, geo_m, az1))
    waypoints = []
    for k in range(1, n + 1):
        rlat, rlon = lox.loxodrome_direct(lat1, lon1, k * rhumb_m / (n + 1), course, ell=ell)
        glat, glon = vincenty.vreckon(lat1, lon1, k * geo_m / (n + 1), az1, ell=ell)[:2]
        waypoints.append({"rhumb_lat_deg": float(rlat), "rhumb_lon_deg": _wrap(float(rlon)),
                          "geodesic_lat_deg": float(glat), "geodesic_lon_deg": _wrap(float(glon))})
    return {
        "rhumb": {"distance_m": rhumb_m, "course_deg": course},
        "geodesic": {"distance_m": geo_m, "azimuth_deg": az1},
        "rhumb_excess_m": rhumb_m - geo_m,
        "meridian_arc_m": float(lox.meridian_arc(lat1, lat2, ell=ell)),
        "departure_m": float(lox.departure(lon1, lon2, lat1, ell=ell)),
        "waypoints": waypoints,
        "departure_point": {"latitudes": _aux_latitudes(lat1, ell), "radii": _radii(lat1, ell)},
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
