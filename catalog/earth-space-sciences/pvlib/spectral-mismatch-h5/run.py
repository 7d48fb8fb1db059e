"""Clear-sky solar spectrum on a tilted PV module with pvlib's SPECTRL2 model (pvlib.spectrum.spectrl2) and its
spectral mismatch against the ASTM G173-03 reference for an example silicon cell (calc_spectral_mismatch_field,
get_example_spectral_response, average_photon_energy), as a PV performance analyst corrects a reference cell's
reading; the spectra are written as HDF5.

Entry workflow: main(dict) -> dict; the HDF5 file goes to $SWR_ARTIFACTS.
"""

import os

import numpy as np
import pandas as pd
from pvlib import atmosphere, irradiance, spectrum

COMPONENTS = ("dni", "dhi", "poa_direct", "poa_sky_diffuse", "poa_ground_diffuse", "poa_global")


def _spectra(s: dict) -> dict:
    """SPECTRL2 for the stated sun and module geometry and atmosphere."""
    zen = float(s["apparent_zenith_deg"])
    tilt = float(s["surface_tilt_deg"])
    aoi = irradiance.aoi(tilt, 180.0, zen, 180.0 + float(s["relative_azimuth_deg"]))
    am = atmosphere.get_relative_airmass(zen, model="kasten1966")
    return spectrum.spectrl2(zen, aoi, tilt, float(s["ground_albedo"]), float(s["surface_pressure_hpa"]) * 100.0,
                             am, float(s["precipitable_water_cm"]), float(s["ozone_atm_cm"]),
                             float(s["aerosol_turbidity_500nm"]), dayofyear=int(s["day_of_year"]))


def main(s: dict) -> dict:
    import h5py

    res = _spectra(s)
    wl = np.asarray(res["wavelength"], dtype=float)
    e = np.asarray(res[str(s["component"])], dtype=float).reshape(-1)
    e_sun = pd.Series(e, index=wl)
    sr = spectrum.get_example_spectral_response(wavelength=wl)
    smm = float(spectrum.calc_spectral_mismatch_field(sr, e_sun))
    ape = float(spectrum.average_photon_energy(e_sun))
    with h5py.File(os.path.join(os.environ["SWR_ARTIFACTS"], "spectrum.h5"), "w") as h5:
        h5.create_dataset("wavelength", data=wl).attrs["units"] = "nm"
        h5.create_dataset("spectral_response", data=sr.to_numpy(float)).attrs["units"] = "A/W"
        for name in COMPONENTS:
            h5.create_dataset(name, data=np.asarray(res[name], dtype=float).reshape(-1)).attrs["units"] = "W/m^2/nm"
    return {
        "spectra": "spectrum.h5",
        "angle_of_incidence_deg": float(irradiance.aoi(float(s["surface_tilt_deg"]), 180.0,
                                                       float(s["apparent_zenith_deg"]),
                                                       180.0 + float(s["relative_azimuth_deg"]))),
        "broadband_w_m2": float(np.trapezoid(e, wl)),
        "photocurrent_a_m2": float(np.trapezoid(sr.to_numpy(float) * e, wl)),
        "spectral_mismatch": smm,
        "average_photon_energy_ev": ape,
        "uv_fraction": float(np.trapezoid(e[wl <= 400.0], wl[wl <= 400.0]) / np.trapezoid(e, wl)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
