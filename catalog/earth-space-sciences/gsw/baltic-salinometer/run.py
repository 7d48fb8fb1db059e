"""Baltic Sea bottle salinities with gsw: SP_salinometer (PSS-78 with the Hill extension, Hill_ratio_at_SP2), the
Baltic composition relation SA_from_SP_Baltic against Reference Salinity (SR_from_SP), and SP_from_SK for Knudsen
salinity.

Entry workflow: main() computes from the scenario.
"""

import gsw
import numpy as np

STATION_LON = 20.0  # degrees east: the Baltic proper (SA_from_SP_Baltic is NaN outside the Baltic)


def main(s: dict) -> dict:
    lat, n = float(s["lat_deg"]), int(s["n_bottles"])
    p = np.linspace(0.0, float(s["p_bottom_dbar"]), n)
    rt = np.linspace(float(s["Rt_surface"]), float(s["Rt_bottom"]), n)
    t_lab = float(s["t_lab_C"])
    sp = gsw.SP_salinometer(rt, t_lab)
    sa_b = gsw.SA_from_SP_Baltic(sp, STATION_LON, lat)
    depth = -gsw.z_from_p(p, lat)
    sr = gsw.SR_from_SP(sp)
    return {
        "bottles": [{"p_dbar": float(p[k]), "depth_m": float(depth[k]), "Rt": float(rt[k]), "SP": float(sp[k]),
                     "SA_baltic_g_kg": float(sa_b[k]), "SR_g_kg": float(sr[k])} for k in range(n)],
        "mean_SA_baltic_minus_SR_g_kg": float(np.mean(sa_b - sr)),
        "hill_ratio": float(gsw.Hill_ratio_at_SP2(t_lab)),
        "SP_historic": float(gsw.SP_from_SK(float(s["SK_historic"]))),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
