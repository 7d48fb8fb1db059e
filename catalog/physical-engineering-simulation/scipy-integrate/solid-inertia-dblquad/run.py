"""Mass properties of an axisymmetric solid of revolution with height-dependent density: scipy.integrate.dblquad
over (z, r) with a variable upper limit R(z) for mass, centre of mass and moments of inertia, and
scipy.integrate.fixed_quad (Gauss-Legendre of a chosen order) for the mass along z as a cross-check.

Entry workflow: warm workers import this module once; main() integrates per call.
"""

import math

import numpy as np
from scipy.integrate import dblquad, fixed_quad

EPS = {"epsabs": 0.0, "epsrel": 1e-11}


def profile(shape: str, r0: float, h: float):
    if shape == "cone":
        return lambda z: r0 * (1.0 - z / h)
    if shape == "paraboloid":
        return lambda z: r0 * math.sqrt(max(0.0, 1.0 - z / h))
    return lambda z: math.sqrt(max(0.0, r0 * r0 - z * z))


def main(scenario: dict) -> dict:
    shape, r0 = scenario["shape"], float(scenario["radius_m"])
    h = r0 if shape == "hemisphere" else float(scenario["height_m"])
    rho0, hs = float(scenario["density_kg_m3"]), float(scenario["density_scale_height_m"])
    radius = profile(shape, r0, h)

    def integral(f) -> float:  # integral over the body of f(r, z) dV, dV = 2 pi r dr dz
        return dblquad(lambda r, z: 2.0 * math.pi * r * rho0 * math.exp(-z / hs) * f(r, z), 0.0, h, 0.0, radius, **EPS)[
            0
        ]

    volume = dblquad(lambda r, z: 2.0 * math.pi * r, 0.0, h, 0.0, radius, **EPS)[0]
    mass = integral(lambda r, z: 1.0)
    z_cm = integral(lambda r, z: z) / mass
    izz = integral(lambda r, z: r * r)
    ixx_origin = integral(lambda r, z: 0.5 * r * r + z * z)

    def slice_mass(z: np.ndarray) -> np.ndarray:
        rz = np.array([radius(v) for v in np.atleast_1d(z)])
        return rho0 * np.exp(-z / hs) * math.pi * rz**2

    mass_gauss = fixed_quad(slice_mass, 0.0, h, n=int(scenario["gauss_order"]))[0]
    return {
        "height_m": h,
        "volume_m3": volume,
        "mass_kg": mass,
        "z_cm_m": z_cm,
        "izz_kg_m2": izz,
        "ixx_cm_kg_m2": ixx_origin - mass * z_cm * z_cm,
        "radius_of_gyration_z_m": math.sqrt(izz / mass),
        "mass_gauss_kg": float(mass_gauss),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
