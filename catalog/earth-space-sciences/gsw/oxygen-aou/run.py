"""Oxygen solubility and apparent oxygen utilisation with gsw (O2sol, O2sol_SP_pt, pt0_from_t) on a generated
station, with the column oxygen deficit (rho, z_from_p).

Entry workflow: main() builds its arrays from the scenario.
"""

import gsw
import numpy as np

THERMOCLINE_P, THERMOCLINE_W = 100.0, 40.0  # dbar
UMOL = 1e-6  # mol per umol


def main(s: dict) -> dict:
    lon, lat = float(s["lon_deg"]), float(s["lat_deg"])
    p = np.linspace(0.0, float(s["p_bottom_dbar"]), int(s["n_levels"]))
    step = 0.5 * (1.0 - np.tanh((p - THERMOCLINE_P) / THERMOCLINE_W))
    t = float(s["t_deep_C"]) + (float(s["t_surface_C"]) - float(s["t_deep_C"])) * step
    sp = float(s["SP_deep"]) + (float(s["SP_surface"]) - float(s["SP_deep"])) * step
    sa = gsw.SA_from_SP(sp, p, lon, lat)
    ct = gsw.CT_from_t(sa, t, p)
    sol = gsw.O2sol(sa, ct, p, lon, lat)
    o2 = sol * (float(s["sat_deep"]) + (float(s["sat_surface"]) - float(s["sat_deep"])) * step)
    aou = sol - o2
    f, depth = gsw.rho(sa, ct, p) * aou * UMOL, -gsw.z_from_p(p, lat)
    deficit = float(np.sum(0.5 * (f[1:] + f[:-1]) * np.diff(depth)))
    k = int(np.argmax(aou))
    return {
        "levels": [{"p_dbar": float(p[i]), "SA_g_kg": float(sa[i]), "CT_C": float(ct[i]),
                    "O2sol_umol_kg": float(sol[i]), "O2_umol_kg": float(o2[i]), "AOU_umol_kg": float(aou[i])}
                   for i in range(len(p))],
        "max_AOU_umol_kg": float(aou[k]),
        "max_AOU_p_dbar": float(p[k]),
        "column_deficit_mol_m2": deficit,
        "surface_O2sol_SP_pt_umol_kg": float(gsw.O2sol_SP_pt(sp[0], gsw.pt0_from_t(sa[0], t[0], p[0]))),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
