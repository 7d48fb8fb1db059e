"""A full-wave bridge rectifier with a reservoir capacitor feeding a resistive load, simulated with ngspice in batch
mode (`tran` from power-on, `.meas` AVG/MAX/MIN/RMS/PP over the last two line periods, vectors built with `let`), as a
power-supply designer sizes the reservoir capacitor for a ripple budget and checks the diode peak current.

Entry workflow: main(dict) -> dict. Each call writes the netlist into a fresh temporary directory and runs
`ngspice -b` there.
"""

import os
import re
import subprocess
import tempfile

DIODES = {"silicon": "IS=1e-9 N=1.8 RS=0.05 BV=400 CJO=50p", "schottky": "IS=1e-5 N=1.05 RS=0.02 BV=60 CJO=300p"}

NETLIST = """* bridge rectifier with reservoir capacitor
.options reltol=1e-6 abstol=1e-12 vntol=1e-9
VS a b SIN(0 {vpk:.12g} {f:.12g})
RW b 0 1e9
RSER a a1 {rser:.12g}
D1 a1 p DR
D2 b p DR
D3 n a1 DR
D4 n b DR
RGND n 0 1e-3
C1 p n {c:.12g}
RL p n {rl:.12g}
.model DR D({diode})
.control
tran {tstep:.12g} {tstop:.12g} 0 {tstep:.12g}
let vout = v(p) - v(n)
let isrc = -i(vs)
let pin = (v(a) - v(b)) * isrc
let pout = vout * vout / {rl:.12g}
meas tran vavg AVG vout FROM={t0:.12g} TO={tstop:.12g}
meas tran vmax MAX vout FROM={t0:.12g} TO={tstop:.12g}
meas tran vmin MIN vout FROM={t0:.12g} TO={tstop:.12g}
meas tran ipos MAX isrc FROM={t0:.12g} TO={tstop:.12g}
meas tran ineg MIN isrc FROM={t0:.12g} TO={tstop:.12g}
meas tran irms RMS isrc FROM={t0:.12g} TO={tstop:.12g}
meas tran pinavg AVG pin FROM={t0:.12g} TO={tstop:.12g}
meas tran poutavg AVG pout FROM={t0:.12g} TO={tstop:.12g}
meas tran vfirst MAX vout FROM=0 TO={tfirst:.12g}
quit
.endc
.end
"""
MEAS = re.compile(r"^\s*(vavg|vmax|vmin|ipos|ineg|irms|pinavg|poutavg|vfirst)\s*=\s*([-+0-9.eE]+)", re.M)


def main(scn):
    f = float(scn["line_Hz"])
    period = 1.0 / f
    n = int(scn["n_periods"])
    rl = float(scn["load_ohm"])
    p = {"vpk": float(scn["secondary_peak_V"]), "f": f, "rser": float(scn["winding_R_ohm"]),
         "c": float(scn["reservoir_uF"]) * 1e-6, "rl": rl, "diode": DIODES[str(scn["diode"])],
         "tstep": period / 1000, "tstop": n * period, "t0": (n - 2) * period, "tfirst": period}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "bridge.cir"), "w") as fh:
            fh.write(NETLIST.format(**p))
        proc = subprocess.run(["ngspice", "-b", "bridge.cir"], cwd=tmp, capture_output=True, text=True, timeout=20)
    m = {k: float(v) for k, v in MEAS.findall(proc.stdout)}  # .meas keeps 7 significant digits
    if proc.returncode != 0 or len(m) != 9:
        raise RuntimeError(f"ngspice failed or measurements missing: {sorted(m)} {proc.stdout[-1500:]}")
    ripple = m["vmax"] - m["vmin"]
    return {
        "v_out_avg_V": m["vavg"],
        "ripple_pp_V": ripple,
        "ripple_percent": 100.0 * ripple / m["vavg"],
        "v_out_peak_first_period_V": m["vfirst"],
        "peak_source_current_A": max(m["ipos"], -m["ineg"]),
        "rms_source_current_A": m["irms"],
        "input_power_W": m["pinavg"],
        "load_power_W": m["poutavg"],
        "efficiency_percent": 100.0 * m["poutavg"] / m["pinavg"],
        "crest_factor": max(m["ipos"], -m["ineg"]) / m["irms"],
    }
