"""Probe: what apexpy's Fortran (the spherical-harmonic Apex/quasi-dipole fit of apexsh.f90 over the IGRF
field line tracing of apex.f and magfld.f) computes on fixed inputs, as one JSON object. Recorded from the
original built by numpy.distutils natively; a port built with another build system must print the same
within the task's tolerance. Every conversion goes through the compiled module: loadapxsh at three epochs
(the interpolation between the coefficient epochs), apxg2q/apxg2all forward and apxq2g's iterative inverse,
the base vectors and magnetic local time at fixed instants (never the clock)."""

import datetime as dt
import json

import numpy as np
from apexpy import Apex
from apexpy import fortranapex as fa


def listed(x):
    """Plain floats, nested as the array was (JSON has no ndarray)."""
    return np.asarray(x, dtype=float).tolist()


lats = [-72.5, -41.0, -12.25, 0.0, 17.5, 44.0, 63.25, 80.0]
lons = [-170.0, -95.5, -20.0, 0.0, 33.3, 101.0, 150.25, 179.0]
heights = [0.0, 110.0, 300.0, 850.0, 60.0, 450.0, 1200.0, 25.0]
out = {}
for year in (2000.0, 2012.5, 2019.25):
    apex = Apex(date=year, refh=110)
    key = f"{year:.2f}"
    alat, alon = apex.geo2apex(lats, lons, 300)
    qlat, qlon = apex.geo2qd(lats, lons, heights)
    glat, glon, err = apex.apex2geo(alat, alon, 300)
    out[key] = {
        "geo2apex": [listed(alat), listed(alon)],
        "geo2qd": [listed(qlat), listed(qlon)],
        "apex2geo": [listed(glat), listed(glon), listed(err)],
        "qd2geo": listed(apex.qd2geo(45.0, 15.0, 450.0)),
        "basevectors_apex": [listed(v) for v in apex.basevectors_apex(52.0, -110.0, 250.0)],
        "basevectors_qd": [listed(v) for v in apex.basevectors_qd(-33.0, 70.0, 150.0)],
        "mlt": listed(apex.mlon2mlt([0.0, 90.0, -135.0], dt.datetime(2015, 3, 20, 9, 30))),
        "mlon": listed(apex.mlt2mlon([3.5, 12.0, 21.25], dt.datetime(2015, 3, 20, 9, 30))),
        "map_to_height": listed(apex.map_to_height(60.0, 15.0, 100.0, 500.0, conjugate=True)),
    }
fa.loadapxsh(Apex(date=2010.0).datafile, 2010.0)
out["apxg2all"] = [listed(v) for v in fa.apxg2all(65.0, -148.0, 200.0, 110.0, 1)]
out["apxq2g"] = [listed(v) for v in fa.apxq2g(-58.0, 12.0, 75.0, 1e-10)]
print(json.dumps(out, sort_keys=True))
