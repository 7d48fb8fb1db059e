"""DC analysis of a generated common-emitter BJT stage with ngspice in batch mode: operating point,
small-signal DC transfer function (.tf: gain, input and output resistance) and a DC sweep of the input.

Entry workflow: main(dict) -> dict. Each call writes the netlist into a fresh temporary directory and runs
`ngspice -b` there; nothing at module level changes.
"""

import os
import subprocess
import tempfile

N_SWEEP = 21

NETLIST = """* common-emitter stage, Thevenin-driven base
.options reltol=1e-7 abstol=1e-15 vntol=1e-10 temp={temp:.12g} tnom=27
VCC vcc 0 DC {vcc:.12g}
VIN in 0 DC {vin:.12g}
RS in b {rs:.12g}
RC vcc c {rc:.12g}
RE e 0 {re:.12g}
RL c 0 {rl:.12g}
Q1 c b e QN
.model QN NPN(IS={is_:.12g} BF={bf:.12g} VAF={vaf:.12g} NF=1 BR=1 RB=10)
.control
set numdgt=15
set wr_singlescale
set wr_vecnames
op
wrdata op.txt v(b) v(c) v(e) @q1[ic] @q1[ib] @q1[gm] i(vcc)
tf v(c) vin
wrdata tf.txt transfer_function output_impedance_at_v(c) vin#input_impedance
dc VIN 0 {vmax:.12g} {vstep:.12g}
wrdata dc.txt v(c) v(e) i(vcc)
quit
.endc
.end
"""


def read(path):
    with open(path) as fh:
        lines = [ln.split() for ln in fh if ln.strip()]
    names = lines[0]
    rows = [[float(v) for v in ln] for ln in lines[1:]]
    return names, rows


def main(scn: dict) -> dict:
    vin = float(scn["base_drive_V"])
    p = {
        "temp": float(scn["temperature_C"]),
        "vcc": float(scn["supply_V"]),
        "vin": vin,
        "rs": float(scn["source_R_ohm"]),
        "rc": float(scn["collector_R_ohm"]),
        "re": float(scn["emitter_R_ohm"]),
        "rl": float(scn["load_R_ohm"]),
        "is_": float(scn["saturation_current_A"]),
        "bf": float(scn["beta_f"]),
        "vaf": float(scn["early_voltage_V"]),
        "vmax": 2.0 * vin,
        "vstep": 2.0 * vin / (N_SWEEP - 1),
    }
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "stage.cir"), "w") as fh:
            fh.write(NETLIST.format(**p))
        env = dict(os.environ, OMP_NUM_THREADS="1")
        proc = subprocess.run(["ngspice", "-b", "stage.cir"], cwd=tmp, capture_output=True, text=True,
                              timeout=20, env=env)
        if proc.returncode != 0 or not os.path.exists(os.path.join(tmp, "dc.txt")):
            raise RuntimeError(f"ngspice failed: {proc.stdout[-2000:]} {proc.stderr[-2000:]}")
        _, op = read(os.path.join(tmp, "op.txt"))
        _, tf = read(os.path.join(tmp, "tf.txt"))
        _, dc = read(os.path.join(tmp, "dc.txt"))

    # op columns: (scale, value) pairs are collapsed by wr_singlescale: scale first, then each vector.
    _s, vb, vc, ve, ic, ib, gm, ivcc = op[0]
    _s, gain, rout, rin = tf[0]
    if len(dc) != N_SWEEP:
        raise RuntimeError(f"expected {N_SWEEP} sweep points, got {len(dc)}")
    sweep = [{"vin_V": r[0], "vc_V": r[1], "ve_V": r[2], "supply_current_A": -r[3]} for r in dc]
    return {
        "operating_point": {
            "vb_V": vb, "vc_V": vc, "ve_V": ve,
            "vbe_V": vb - ve, "vce_V": vc - ve,
            "ic_A": ic, "ib_A": ib, "beta_dc": ic / ib, "gm_S": gm,
            "supply_current_A": -ivcc,
            "supply_power_W": -ivcc * p["vcc"],
        },
        "small_signal": {"voltage_gain": gain, "input_resistance_ohm": rin, "output_resistance_ohm": rout},
        "sweep": sweep,
    }
