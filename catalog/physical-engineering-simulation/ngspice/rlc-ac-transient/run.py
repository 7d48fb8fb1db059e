"""AC and transient analysis of a generated second-order RLC low-pass filter with ngspice in batch mode:
frequency response (ac dec sweep, .meas of the -3 dB corner and peak), and the step response (tran,
.meas of rise time and peak, linearised samples).

Entry workflow: main(dict) -> dict. Each call writes the netlist into a fresh temporary directory and runs
`ngspice -b` there; nothing at module level changes.
"""

import math
import os
import re
import subprocess
import tempfile

PTS_PER_DEC = 20
N_LIN = 2001
SAMPLE_FRACTIONS = [i / 10.0 for i in range(11)]

NETLIST = """* series RLC low-pass with resistive load
.options reltol=1e-7 abstol=1e-15 vntol=1e-10 chgtol=1e-18 trtol=1
.param vstep={vstep:.12g}
VS in 0 DC 0 AC 1 PULSE(0 {vstep:.12g} 0 {trise:.12g} {trise:.12g} 1 2)
R1 in a {r:.12g}
L1 a b {l:.12g}
RLS b out {rls:.12g}
C1 out 0 {c:.12g}
RL out 0 {rload:.12g}
.control
set numdgt=15
set wr_singlescale
set wr_vecnames
ac dec {ppd} {fmin:.12g} {fmax:.12g}
let gdb = vdb(out)
let gph = 180/pi*cph(out)
wrdata ac.txt gdb gph
meas ac peak_db MAX gdb
meas ac f_3db WHEN gdb={level:.12g} FALL=LAST
meas ac phase_f0 FIND gph AT={f0:.12g}
tran {tstep:.12g} {tstop:.12g} 0 {tmax:.12g}
meas tran t10 WHEN v(out)={v10:.12g} RISE=1
meas tran t90 WHEN v(out)={v90:.12g} RISE=1
meas tran vmax MAX v(out)
linearize v(out) i(vs)
wrdata tran.txt v(out) i(vs)
quit
.endc
.end
"""

MEAS = re.compile(r"^\s*(peak_db|f_3db|phase_f0|t10|t90|vmax)\s*=\s*([-+0-9.eE]+)", re.M)
PEAK_AT = re.compile(r"^\s*peak_db\s*=\s*[-+0-9.eE]+\s+at=\s*([-+0-9.eE]+)", re.M)


def read(path):
    with open(path) as fh:
        lines = [ln.split() for ln in fh if ln.strip()]
    return [[float(v) for v in ln] for ln in lines[1:]]


def main(scn: dict) -> dict:
    r = float(scn["series_R_ohm"])
    l = float(scn["inductance_uH"]) * 1e-6
    c = float(scn["capacitance_nF"]) * 1e-9
    rls = float(scn["inductor_esr_ohm"])
    rload = float(scn["load_R_ohm"])
    vstep = float(scn["step_V"])
    f0 = 1.0 / (2.0 * math.pi * math.sqrt(l * c))
    dc_gain = rload / (r + rls + rload)
    dc_db = 20.0 * math.log10(dc_gain)
    vfinal = vstep * dc_gain
    tstop = 20.0 / f0
    p = {
        "vstep": vstep, "trise": 1e-3 / f0, "r": r, "l": l, "rls": rls, "c": c, "rload": rload,
        "ppd": PTS_PER_DEC, "fmin": f0 / 100.0, "fmax": f0 * 100.0, "level": dc_db - 3.0, "f0": f0,
        "tstep": tstop / (N_LIN - 1), "tstop": tstop, "tmax": tstop / 2000.0,
        "v10": 0.1 * vfinal, "v90": 0.9 * vfinal,
    }
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "filter.cir"), "w") as fh:
            fh.write(NETLIST.format(**p))
        proc = subprocess.run(["ngspice", "-b", "filter.cir"], cwd=tmp, capture_output=True, text=True,
                              timeout=20, env=dict(os.environ, OMP_NUM_THREADS="1"))
        if proc.returncode != 0 or not os.path.exists(os.path.join(tmp, "tran.txt")):
            raise RuntimeError(f"ngspice failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
        ac = read(os.path.join(tmp, "ac.txt"))
        tran = read(os.path.join(tmp, "tran.txt"))
    meas = {k: float(v) for k, v in MEAS.findall(proc.stdout)}
    at = PEAK_AT.findall(proc.stdout)
    if at:
        meas["f_peak"] = float(at[0])
    missing = {"peak_db", "f_peak", "f_3db", "phase_f0", "t10", "t90", "vmax"} - set(meas)
    if missing:
        raise RuntimeError(f"ngspice measurements missing: {sorted(missing)}")
    if len(ac) != 4 * PTS_PER_DEC + 1 or len(tran) != N_LIN:
        raise RuntimeError(f"unexpected vector lengths {len(ac)}, {len(tran)}")

    response = [{"f_Hz": row[0], "gain_dB": row[1], "phase_deg": row[2]} for row in ac[::4]]
    samples = []
    for fr in SAMPLE_FRACTIONS:
        i = int(round(fr * (N_LIN - 1)))
        samples.append({"t_s": tran[i][0], "v_out_V": tran[i][1], "i_source_A": tran[i][2]})
    vmax = meas["vmax"]
    ipk = max(range(N_LIN), key=lambda i: tran[i][1])
    return {
        "resonant_freq_Hz": f0,
        "dc_gain_dB": dc_db,
        "ac": {
            "peak_gain_dB": meas["peak_db"],
            "peak_freq_Hz": meas["f_peak"],
            "corner_3dB_Hz": meas["f_3db"],
            "phase_at_f0_deg": meas["phase_f0"],
            "response": response,
        },
        "transient": {
            "final_value_V": vfinal,
            "rise_time_10_90_s": meas["t90"] - meas["t10"],
            "peak_V": vmax,
            "peak_time_s": tran[ipk][0],
            "overshoot_pct": 100.0 * (vmax - vfinal) / vfinal,
            "v_out_at_stop_V": tran[-1][1],
            "samples": samples,
        },
    }
