"""Spectral band integrals of Planck's law with scipy.integrate.quad (QUADPACK qags/qagi): the exitance, photon
flux and power a grey emitter radiates in a wavelength band, and its fraction of the Stefan-Boltzmann total, as in
sizing an infrared detector band or a lamp's useful output.

Entry workflow: main(dict) -> dict; module state is never mutated.
"""

import math
import tomllib
from pathlib import Path

from scipy.integrate import quad

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
H, C, KB = CONSTANTS["H"], CONSTANTS["C"], CONSTANTS["KB"]
X_WIEN = CONSTANTS["X_WIEN"]
EPSREL = 1e-11
UM = 1e-6


def planck_um(lam_um: float, t: float) -> float:
    """Spectral radiance B_lambda(T) in W m^-2 sr^-1 per micrometre (lam in micrometres)."""
    lam = lam_um * UM
    x = H * C / (lam * KB * t)
    if x > 700.0:  # exp overflows; the radiance is below 1e-290 of the peak there
        return 0.0
    return 2.0 * H * C * C / lam**5 / math.expm1(x) * UM


def main(scn: dict) -> dict:
    t = float(scn["temperature_K"])
    lo = float(scn["lambda_min_um"])
    hi = lo * float(scn["band_ratio"])
    eps = float(scn["emissivity"])
    area = float(scn["area_m2"])
    lam_peak = H * C / (KB * t * X_WIEN) / UM
    pts = [lam_peak] if lo < lam_peak < hi else None
    band, _ = quad(planck_um, lo, hi, args=(t,), epsabs=0.0, epsrel=EPSREL, limit=200, points=pts)
    photons, _ = quad(lambda lam: planck_um(lam, t) * lam * UM / (H * C), lo, hi, epsabs=0.0, epsrel=EPSREL,
                      limit=200, points=pts)
    # The total over (0, inf): split at the peak, the tail on QUADPACK's infinite-interval rule.
    head, _ = quad(planck_um, 0.0, lam_peak, args=(t,), epsabs=0.0, epsrel=EPSREL, limit=200)
    tail, _ = quad(planck_um, lam_peak, math.inf, args=(t,), epsabs=0.0, epsrel=EPSREL, limit=200)
    sigma = 2.0 * math.pi**5 * KB**4 / (15.0 * H**3 * C**2)
    exitance = eps * math.pi * band
    return {
        "peak_wavelength_um": lam_peak,
        "band_max_um": hi,
        "band_radiance_W_m2_sr": band,
        "band_exitance_W_m2": exitance,
        "band_power_W": exitance * area,
        "band_fraction": math.pi * band / (sigma * t**4),
        "band_photon_flux_per_m2_s": eps * math.pi * photons,
        "mean_photon_energy_eV": band / photons / CONSTANTS["EV"],
        "total_exitance_W_m2": eps * math.pi * (head + tail),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
