"""Kinematics of a sampled velocity record with pint Quantity arrays and numpy functions (trapezoid,
gradient, cumsum, interp)."""

import numpy as np
import pint

UREG = pint.UnitRegistry()


def main(scn):
    n = int(scn["n_samples"])
    dt = UREG.Quantity(float(scn["dt"]), str(scn["time_unit"]))
    t = np.arange(n) * dt
    phase = 2.0 * np.pi * float(scn["wobble_cycles"]) * np.arange(n) / (n - 1)
    v_unit = str(scn["velocity_unit"])
    v = UREG.Quantity(
        float(scn["v0"]) * (1.0 + float(scn["ramp"]) * np.arange(n) / (n - 1) + 0.2 * np.sin(phase)), v_unit
    )
    mass = UREG.Quantity(float(scn["mass"]), str(scn["mass_unit"]))

    distance = np.trapezoid(v, t)
    accel = np.gradient(v, t)
    energy = 0.5 * mass * v**2
    power = np.gradient(energy, t)
    halfway = t[-1] / 2
    return {
        "duration_s": float(t[-1].to("s").magnitude),
        "distance_m": float(distance.to("m").magnitude),
        "distance_rectangles_m": float(np.cumsum(v * dt)[-1].to("m").magnitude),
        "mean_speed_m_per_s": float(np.mean(v).to("m/s").magnitude),
        "rms_speed_m_per_s": float(np.sqrt(np.mean(v**2)).to("m/s").magnitude),
        "speed_range_m_per_s": float((np.max(v) - np.min(v)).to("m/s").magnitude),
        "speed_at_half_time_m_per_s": float(np.interp(halfway, t, v).to("m/s").magnitude),
        "max_abs_accel_g0": float(np.max(np.abs(accel)).to("standard_gravity").magnitude),
        "accel_m_per_s2": [float(a) for a in accel.to("m/s**2").magnitude],
        "max_kinetic_energy_kJ": float(np.max(energy).to("kJ").magnitude),
        "peak_power_hp": float(np.max(power).to("hp").magnitude),
        "work_kJ": float((energy[-1] - energy[0]).to("kJ").magnitude),
    }
