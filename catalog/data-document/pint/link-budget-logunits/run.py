"""Radio link budget with pint's logarithmic units (dBm, dBW, dB, neper, octave, decade) and offset temperatures."""

import math

import pint

UREG = pint.UnitRegistry(autoconvert_offset_to_baseunit=True)
Q = UREG.Quantity


def mag(q, unit):
    return float(q.to(unit).magnitude)


def main(scn):
    tx = Q(float(scn["tx_power"]), str(scn["tx_power_unit"]))
    tx_dbm = tx.to("dBm")
    f = Q(float(scn["frequency_GHz"]), "GHz")
    d = Q(float(scn["distance"]), str(scn["distance_unit"]))
    lam = (Q(1.0, "speed_of_light") / f).to("m")
    fspl = ((4.0 * math.pi * d / lam) ** 2).to("dB")
    loss = Q(float(scn["cable_loss_Np"]), "Np").to("dB")
    eirp = tx_dbm + Q(float(scn["tx_gain_dB"]), "dB")
    rx = eirp + Q(float(scn["rx_gain_dB"]), "dB") - fspl - loss
    temp = Q(float(scn["noise_temp_degC"]), "degC").to("K")
    noise = (Q(1.0, "boltzmann_constant") * temp * Q(float(scn["bandwidth_MHz"]), "MHz")).to("dBm")
    snr = rx - noise
    return {
        "wavelength_m": float(lam.magnitude),
        "tx_power_dBm": float(tx_dbm.magnitude),
        "tx_power_W": mag(tx, "W"),
        "eirp_dBm": float(eirp.to("dBm").magnitude),
        "fspl_dB": float(fspl.magnitude),
        "cable_loss_dB": float(loss.magnitude),
        "rx_power_dBm": float(rx.to("dBm").magnitude),
        "rx_power_W": mag(rx, "W"),
        "noise_temp_K": float(temp.magnitude),
        "noise_power_dBm": float(noise.magnitude),
        "snr_dB": mag(snr, "dB"),
        "snr_linear": mag(snr, "dimensionless"),
        "frequency_octaves_above_1GHz": mag(f / Q(1.0, "GHz"), "octave"),
        "distance_decades_above_1m": mag(d / Q(1.0, "m"), "decade"),
    }
