"""Reflections on a mismatched lossless transmission line with ngspice in batch mode (T element, transient with a
step source): the voltages at both ends sampled between arrivals, compared with the bounce-diagram prediction from
the source and load reflection coefficients, as a signal-integrity engineer checks a board trace's termination.

Entry workflow: main(dict) -> dict. Each call writes the netlist into a fresh temporary directory and runs
`ngspice -b` there.
"""

import os
import subprocess
import tempfile
import tomllib
from pathlib import Path

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
N_ROUND_TRIPS = int(CONSTANTS["N_ROUND_TRIPS"])
N_PER_TD = int(CONSTANTS["N_PER_TD"])

NETLIST = """* lossless line reflections
.options reltol=1e-7 abstol=1e-15 vntol=1e-10
VS src 0 PULSE(0 {vstep:.12g} 0 {tr:.12g} {tr:.12g} 1 2)
RS src a {rs:.12g}
T1 a 0 b 0 Z0={z0:.12g} TD={td:.12g}
RL b 0 {rl:.12g}
{cload}
.control
set numdgt=15
set wr_singlescale
set wr_vecnames
tran {tstep:.12g} {tstop:.12g} 0 {tmax:.12g}
linearize v(a) v(b)
wrdata ends.txt v(a) v(b)
quit
.endc
.end
"""



def read_columns(path):
    """Columns of an ngspice wrdata file (its header line skipped) as lists of floats."""
    with open(path) as fh:
        rows = [[float(v) for v in ln.split()] for ln in fh.readlines()[1:] if ln.strip()]
    return [list(col) for col in zip(*rows)]


def bounce(vstep, rs, z0, rl, n_td):
    """Ideal step-response plateaus: v(a) and v(b) in each interval (k td, (k+1) td), k = 0 .. n_td - 1."""
    gs, gl = (rs - z0) / (rs + z0), (rl - z0) / (rl + z0)
    inc = vstep * z0 / (rs + z0)
    va, vb = [], []
    a_level, b_level = inc, 0.0
    for k in range(n_td):
        if k and k % 2 == 1:  # a wave reaches the load at odd multiples of td
            w = inc * (gs * gl) ** (k // 2)
            b_level += w * (1 + gl)
        if k and k % 2 == 0:  # the reflected wave returns to the source at even multiples
            w = inc * (gs * gl) ** (k // 2 - 1) * gl
            a_level += w * (1 + gs)
        va.append(a_level)
        vb.append(b_level)
    return gs, gl, va, vb


def main(scn):
    vstep, rs, z0 = float(scn["step_V"]), float(scn["source_R_ohm"]), float(scn["z0_ohm"])
    rl, td = float(scn["load_R_ohm"]), float(scn["delay_ns"]) * 1e-9
    tr = float(scn["edge_fraction"]) * td
    n_td = 2 * N_ROUND_TRIPS
    cl = float(scn["load_C_pF"]) * 1e-12
    p = {"vstep": vstep, "tr": tr, "rs": rs, "z0": z0, "td": td, "rl": rl,
         "cload": f"CL b 0 {cl:.12g}" if cl > 0 else "* no load capacitor",
         "tstep": td / N_PER_TD, "tstop": n_td * td, "tmax": td / N_PER_TD}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "line.cir"), "w") as fh:
            fh.write(NETLIST.format(**p))
        proc = subprocess.run(["ngspice", "-b", "line.cir"], cwd=tmp, capture_output=True, text=True, timeout=20)
        path = os.path.join(tmp, "ends.txt")
        if proc.returncode != 0 or not os.path.exists(path):
            raise RuntimeError(f"ngspice failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
        t, va, vb = read_columns(path)
    gs, gl, pa, pb = bounce(vstep, rs, z0, rl, n_td)
    # Simulated level at the end of each td interval (index of t = (k + 1) td - td/10 on the linearized grid)
    idx = [int(round(((k + 1) - 0.1) * N_PER_TD)) for k in range(n_td)]
    return {
        "gamma_source": gs,
        "gamma_load": gl,
        "final_value_V": vstep * rl / (rs + rl),
        "bounce_v_source_end_V": pa,
        "bounce_v_load_end_V": pb,
        "sim_v_source_end_V": [va[i] for i in idx],
        "sim_v_load_end_V": [vb[i] for i in idx],
        "sim_t_sample_ns": [t[i] * 1e9 for i in idx],
        "max_v_load_V": max(vb),
        "min_v_load_after_first_arrival_V": min(v for ti, v in zip(t, vb) if ti > 1.5 * td),
    }
