"""Planck spectrum of a spherical star with astropy.modeling's BlackBody, converted with astropy.units
spectral equivalencies into per-wavelength radiances, observed flux densities and AB magnitudes.

Entry workflow: served by warm workers that import this module once; main() builds a new model per call.
Every constant comes from astropy.constants (CODATA 2018, IAU 2015 nominal solar values).
"""

import astropy.units as u
import numpy as np
from astropy import constants as const
from astropy.modeling.physical_models import BlackBody

B_LAMBDA = u.erg / u.s / u.cm**2 / u.AA / u.sr
PHOTON_RADIANCE = u.photon / u.s / u.cm**2 / u.AA / u.sr


def main(scenario: dict) -> dict:
    temperature = float(scenario["temperature_K"]) * u.K
    radius = float(scenario["radius_Rsun"]) * u.R_sun
    distance = float(scenario["distance_pc"]) * u.pc
    bb = BlackBody(temperature=temperature)
    dilution = float(np.pi * (radius / distance).to_value(u.dimensionless_unscaled) ** 2)
    rows = []
    for lam_um in sorted(float(w) for w in scenario["wavelengths_um"]):
        lam = lam_um * u.um
        b_nu = bb(lam)  # erg / (cm2 Hz s sr)
        b_lam = b_nu.to(B_LAMBDA, equivalencies=u.spectral_density(lam))
        f_nu = (b_nu * u.sr * dilution).to(u.mJy)
        rows.append(
            {
                "wavelength_um": lam_um,
                "frequency_THz": float(lam.to_value(u.THz, equivalencies=u.spectral())),
                "B_nu_erg_s_cm2_Hz_sr": float(b_nu.to_value(u.erg / u.s / u.cm**2 / u.Hz / u.sr)),
                "B_lambda_erg_s_cm2_AA_sr": float(b_lam.to_value(B_LAMBDA)),
                "photon_radiance_ph_s_cm2_AA_sr": float(
                    b_lam.to_value(PHOTON_RADIANCE, equivalencies=u.spectral_density(lam))
                ),
                "flux_density_mJy": float(f_nu.to_value(u.mJy)),
                "ab_mag": float(f_nu.to_value(u.ABmag)),
            }
        )
    luminosity = 4.0 * np.pi * radius**2 * const.sigma_sb * temperature**4
    return {
        "peak_wavelength_um": float(bb.lambda_max.to_value(u.um)),
        "peak_frequency_THz": float(bb.nu_max.to_value(u.THz)),
        "bolometric_radiance_erg_s_cm2": float(bb.bolometric_flux.to_value(u.erg / u.s / u.cm**2)),
        "luminosity_Lsun": float(luminosity.to_value(u.L_sun)),
        "bolometric_flux_at_observer_W_m2": float((luminosity / (4.0 * np.pi * distance**2)).to_value(u.W / u.m**2)),
        "wavelengths": rows,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
