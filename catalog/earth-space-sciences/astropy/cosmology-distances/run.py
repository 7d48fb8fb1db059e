"""Cosmological distances, times and volumes for a generated FLRW cosmology with astropy.cosmology.

Entry workflow: served by warm workers that import this module once; main() builds a new cosmology
object per call and never mutates module state. Everything is computed locally (no downloads).
"""

import astropy.units as u
from astropy.cosmology import FlatLambdaCDM, Flatw0waCDM, LambdaCDM, z_at_value


def _build(s):
    common = dict(
        H0=float(s["H0_km_s_Mpc"]) * u.km / u.s / u.Mpc,
        Om0=float(s["Om0"]),
        Tcmb0=float(s["Tcmb0_K"]) * u.K,
        Neff=float(s["Neff"]),
        m_nu=[0.0, 0.0, float(s["m_nu_eV"])] * u.eV,
        Ob0=float(s["Ob0"]),
    )
    model = str(s["model"])
    if model == "FlatLambdaCDM":
        return FlatLambdaCDM(**common)
    if model == "LambdaCDM":
        return LambdaCDM(Ode0=float(s["Ode0"]), **common)
    if model == "Flatw0waCDM":
        return Flatw0waCDM(w0=float(s["w0"]), wa=float(s["wa"]), **common)
    raise ValueError(f"unknown model {model}")


def _v(q, unit):
    return float(q.to_value(unit))


def main(scenario: dict) -> dict:
    c = _build(scenario)
    age0 = c.age(0.0)
    rows = []
    for z in sorted(float(z) for z in scenario["redshifts"]):
        rows.append({
            "z": z,
            "comoving_distance_Mpc": _v(c.comoving_distance(z), u.Mpc),
            "transverse_comoving_distance_Mpc": _v(c.comoving_transverse_distance(z), u.Mpc),
            "angular_diameter_distance_Mpc": _v(c.angular_diameter_distance(z), u.Mpc),
            "luminosity_distance_Mpc": _v(c.luminosity_distance(z), u.Mpc),
            "distmod_mag": _v(c.distmod(z), u.mag),
            "lookback_time_Gyr": _v(c.lookback_time(z), u.Gyr),
            "age_Gyr": _v(c.age(z), u.Gyr),
            "H_km_s_Mpc": _v(c.H(z), u.km / u.s / u.Mpc),
            "critical_density_g_cm3": _v(c.critical_density(z), u.g / u.cm**3),
            "kpc_proper_per_arcmin": _v(c.kpc_proper_per_arcmin(z), u.kpc / u.arcmin),
            "comoving_volume_Gpc3": _v(c.comoving_volume(z), u.Gpc**3),
            "differential_comoving_volume_Mpc3_sr": _v(c.differential_comoving_volume(z), u.Mpc**3 / u.sr),
            "Om": float(c.Om(z)),
            "Ode": float(c.Ode(z)),
            "Onu": float(c.Onu(z)),
        })
    target_age = age0 * float(scenario["age_fraction"])
    z_age = z_at_value(c.age, target_age, zmin=1e-8, zmax=1000.0, ztol=1e-10)
    return {
        "age0_Gyr": _v(age0, u.Gyr),
        "hubble_time_Gyr": _v(c.hubble_time, u.Gyr),
        "hubble_distance_Mpc": _v(c.hubble_distance, u.Mpc),
        "Ode0": float(c.Ode0),
        "Ok0": float(c.Ok0),
        "Ogamma0": float(c.Ogamma0),
        "Onu0": float(c.Onu0),
        "z_at_age_fraction": float(z_age.to_value(u.dimensionless_unscaled)),
        "redshifts": rows,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
