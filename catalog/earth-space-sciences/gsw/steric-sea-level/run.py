"""Thermosteric and halosteric sea-level change of a water column with gsw (geo_strf_steric_height,
specvol_anom_standard).

Entry workflow: main() builds its profiles from the scenario.
"""

import gsw
import numpy as np

SA_DEEP, CT_DEEP, TC_P, TC_W = 34.7, 4.0, 150.0, 50.0  # g/kg, degC, dbar, dbar


def main(s: dict) -> dict:
    p_ref = float(s["p_ref_dbar"])
    p = np.linspace(0.0, p_ref, int(s["n_levels"]))
    step = 0.5 * (1.0 - np.tanh((p - TC_P) / TC_W))
    sa0 = SA_DEEP + (float(s["SA_surface"]) - SA_DEEP) * step
    ct0 = CT_DEEP + (float(s["CT_surface"]) - CT_DEEP) * step
    decay = np.exp(-p / float(s["change_scale_dbar"]))
    ct1 = ct0 + float(s["dCT_surface"]) * decay
    sa1 = sa0 + float(s["dSA_surface"]) * decay

    def eta(sa: np.ndarray, ct: np.ndarray) -> float:
        return float(gsw.geo_strf_steric_height(sa, ct, p, p_ref=p_ref)[0])

    e00, e11, e01, e10 = eta(sa0, ct0), eta(sa1, ct1), eta(sa0, ct1), eta(sa1, ct0)
    total, thermo, halo = e11 - e00, e01 - e00, e10 - e00
    return {
        "eta_before_m": e00,
        "eta_after_m": e11,
        "total_change_m": total,
        "thermosteric_m": thermo,
        "halosteric_m": halo,
        "nonlinear_m": total - thermo - halo,
        "specvol_anom_top_before_m3_kg": float(gsw.specvol_anom_standard(sa0[0], ct0[0], 0.0)),
        "specvol_anom_top_after_m3_kg": float(gsw.specvol_anom_standard(sa1[0], ct1[0], 0.0)),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
