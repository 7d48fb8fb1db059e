"""Gain study of a loop built in zero-pole-gain form with python-control: ct.zpk, the root-locus map over a gain
grid (ct.root_locus_map), phase-crossover frequencies and critical gains (ct.phase_crossover_frequencies), the
reachable canonical form, and the H2 norm of the closed loop (ct.norm) at the chosen gain.

Entry workflow: warm workers import this module once; main() builds the loop per call.
"""

import control as ct
import numpy as np


def main(scenario: dict) -> dict:
    poles = [-float(p) for p in scenario["pole_rates"]]
    if scenario["integrator"]:
        poles.append(0.0)
    zeros = [-float(scenario["zero_rate"])] if scenario["with_zero"] else []
    plant = ct.zpk(zeros, poles, 1.0)
    gains = np.logspace(-2.0, 3.0, int(scenario["n_gains"]))
    loci = ct.root_locus_map(plant, gains).loci
    stable = np.all(loci.real < 0.0, axis=1)
    omegas, margins = ct.phase_crossover_frequencies(plant)
    crit = sorted(float(1.0 / abs(ct.evalfr(plant, 1j * w))) for w in omegas if w > 0)
    k = float(scenario["gain"])
    closed = ct.feedback(k * plant, 1)
    cl_poles = ct.poles(closed)
    is_stable = bool(np.all(cl_poles.real < 0.0))
    reach, _ = ct.canonical_form(ct.ss(plant), "reachable")
    return {
        "char_poly": [float(v) for v in reach.A[0]],
        "stable_gain_count": int(stable.sum()),
        "largest_stable_grid_gain": float(gains[stable].max()) if stable.any() else 0.0,
        "phase_crossover_rad_s": sorted(float(w) for w in omegas if w > 0),
        "critical_gains": crit,
        "closed_loop_stable": is_stable,
        "closed_loop_spectral_abscissa": float(cl_poles.real.max()),
        "closed_loop_h2_norm": float(ct.norm(closed, 2)) if is_stable else -1.0,
        "dc_gain": float(np.real(ct.dcgain(closed))) if is_stable else -1.0,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
