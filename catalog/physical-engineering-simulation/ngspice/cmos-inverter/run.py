"""Static and dynamic characterisation of a CMOS inverter (level-1 MOSFET models) with ngspice in batch mode:
DC voltage-transfer curve (dc sweep, derivative for the unity-gain points: noise margins), switching threshold, and
the transient propagation delays and rise/fall times into a capacitive load (.meas TRIG/TARG), as a digital circuit
designer sizes the transistors of a standard cell.

Entry workflow: main(dict) -> dict. Each call writes the netlist into a fresh temporary directory and runs
`ngspice -b` there.
"""

import os
import re
import subprocess
import tempfile

NETLIST = """* CMOS inverter
.options reltol=1e-7 abstol=1e-15 vntol=1e-10
VDD vdd 0 {vdd:.12g}
VIN in 0 DC 0 PULSE(0 {vdd:.12g} {td:.12g} {tr:.12g} {tr:.12g} {pw:.12g} {per:.12g})
MP out in vdd vdd PMOD W={wp:.12g} L={l:.12g}
MN out in 0 0 NMOD W={wn:.12g} L={l:.12g}
CL out 0 {cl:.12g}
.model NMOD NMOS(LEVEL=1 VTO={vtn:.12g} KP=120u LAMBDA=0.05 GAMMA=0.4 PHI=0.7 CGSO=0.3n CGDO=0.3n)
.model PMOD PMOS(LEVEL=1 VTO={vtp:.12g} KP=40u LAMBDA=0.08 GAMMA=0.5 PHI=0.7 CGSO=0.3n CGDO=0.3n)
.control
set numdgt=15
set wr_singlescale
set wr_vecnames
dc VIN 0 {vdd:.12g} {dv:.12g}
let gain = deriv(v(out))
wrdata vtc.txt v(out) gain
meas dc vm WHEN v(out)=v(in)
tran {tstep:.12g} {tstop:.12g}
meas tran tphl TRIG v(in) VAL={half:.12g} RISE=1 TARG v(out) VAL={half:.12g} FALL=1
meas tran tplh TRIG v(in) VAL={half:.12g} FALL=1 TARG v(out) VAL={half:.12g} RISE=1
meas tran tfall TRIG v(out) VAL={v90:.12g} FALL=1 TARG v(out) VAL={v10:.12g} FALL=1
meas tran trise TRIG v(out) VAL={v10:.12g} RISE=1 TARG v(out) VAL={v90:.12g} RISE=1
meas tran ipeak MIN i(vdd)
quit
.endc
.end
"""
MEAS = re.compile(r"^\s*(vm|tphl|tplh|tfall|trise|ipeak)\s*=\s*([-+0-9.eE]+)", re.M)
N_DC = 600



def read_columns(path):
    """Columns of an ngspice wrdata file (its header line skipped) as lists of floats."""
    with open(path) as fh:
        rows = [[float(v) for v in ln.split()] for ln in fh.readlines()[1:] if ln.strip()]
    return [list(col) for col in zip(*rows)]



def interp(x, xs, ys):
    """Linear interpolation of ys(xs) at x, xs increasing (the end values outside the range, as numpy.interp)."""
    if x <= xs[0]:
        return ys[0]
    if x >= xs[-1]:
        return ys[-1]
    k = next(i for i in range(1, len(xs)) if xs[i] >= x)
    return ys[k - 1] + (ys[k] - ys[k - 1]) * (x - xs[k - 1]) / (xs[k] - xs[k - 1])


def main(scn):
    vdd = float(scn["vdd_V"])
    period = float(scn["period_ns"]) * 1e-9
    p = {"vdd": vdd, "td": period / 10, "tr": float(scn["input_edge_ps"]) * 1e-12, "pw": period / 2, "per": period,
         "wp": float(scn["wp_um"]) * 1e-6, "wn": float(scn["wn_um"]) * 1e-6, "l": float(scn["length_um"]) * 1e-6,
         "cl": float(scn["load_fF"]) * 1e-15, "vtn": float(scn["vtn_V"]), "vtp": -float(scn["vtn_V"]),
         "dv": vdd / N_DC, "tstep": period / 2000, "tstop": period * 1.1, "half": vdd / 2,
         "v10": 0.1 * vdd, "v90": 0.9 * vdd}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "inv.cir"), "w") as fh:
            fh.write(NETLIST.format(**p))
        proc = subprocess.run(["ngspice", "-b", "inv.cir"], cwd=tmp, capture_output=True, text=True, timeout=20)
        path = os.path.join(tmp, "vtc.txt")
        if proc.returncode != 0 or not os.path.exists(path):
            raise RuntimeError(f"ngspice failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
        vin, vout, gain = read_columns(path)
    meas = {k: float(v) for k, v in MEAS.findall(proc.stdout)}
    missing = {"vm", "tphl", "tplh", "tfall", "trise", "ipeak"} - set(meas)
    if missing:
        raise RuntimeError(f"measurements missing: {sorted(missing)}")
    # Unity-gain points: first and last sweep points where the slope reaches -1 (linear interpolation).
    idx = [i for i, g in enumerate(gain) if g <= -1.0]
    i0, i1 = idx[0], idx[-1]
    vil = interp(-1.0, [gain[i0], gain[i0 - 1]], [vin[i0], vin[i0 - 1]])
    vih = interp(-1.0, [gain[i1], gain[i1 + 1]], [vin[i1], vin[i1 + 1]])
    voh, vol = interp(vil, vin, vout), interp(vih, vin, vout)
    return {
        "switching_threshold_V": meas["vm"],
        "max_gain": -min(gain),
        "VIL_V": vil, "VIH_V": vih, "VOH_V": voh, "VOL_V": vol,
        "noise_margin_low_V": vil - vol,
        "noise_margin_high_V": voh - vih,
        "tphl_ps": meas["tphl"] * 1e12,
        "tplh_ps": meas["tplh"] * 1e12,
        "tpd_ps": 0.5 * (meas["tphl"] + meas["tplh"]) * 1e12,
        "fall_time_ps": meas["tfall"] * 1e12,
        "rise_time_ps": meas["trise"] * 1e12,
        "peak_supply_current_uA": -meas["ipeak"] * 1e6,
    }
