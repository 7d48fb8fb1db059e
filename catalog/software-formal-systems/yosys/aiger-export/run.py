"""And-inverter graphs with yosys: a generated combinational function is lowered to an AIG (aigmap, optionally
after ABC's AND-gate optimisation), written in the ASCII AIGER format (write_aiger -ascii) used by model checkers,
and the AIGER file is read back and evaluated on every input vector to confirm it computes the function."""

import json
import os
import shutil
import subprocess
import tempfile


def function(kind, w, const):
    """(Verilog expression of y, Python reference, output width) over input a of w bits."""
    mask = (1 << w) - 1
    if kind == "parity":
        return "^a", (lambda v: bin(v).count("1") & 1), 1
    if kind == "compare":
        return f"a > {w}'d{const & mask}", (lambda v: int(v > const & mask)), 1
    if kind == "increment":
        return f"a + {w}'d{const & mask}", (lambda v: (v + (const & mask)) & mask), w
    return "a[0] ? a >> 1 : ~a", (lambda v: (v >> 1) if v & 1 else (~v & mask)), w  # mux of two operations


def read_aag(text):
    lines = text.splitlines()
    m, i, n_latch, o, a = (int(x) for x in lines[0].split()[1:6])
    inputs = [int(x) for x in lines[1 : 1 + i]]
    outputs = [int(x) for x in lines[1 + i + n_latch : 1 + i + n_latch + o]]
    ands = [tuple(int(x) for x in ln.split()) for ln in lines[1 + i + n_latch + o : 1 + i + n_latch + o + a]]
    return (m, i, n_latch, o, a), inputs, outputs, ands


def evaluate(inputs, outputs, ands, v):
    val = {0: 0}
    for k, lit in enumerate(inputs):
        val[lit // 2] = (v >> k) & 1
    lit_v = lambda lit: val[lit // 2] ^ (lit & 1)  # noqa: E731
    for lhs, r0, r1 in ands:  # ASCII AIGER lists AND gates in topological order
        val[lhs // 2] = lit_v(r0) & lit_v(r1)
    return sum(lit_v(lit) << k for k, lit in enumerate(outputs))


def main(scn):
    w, kind = int(scn["width"]), str(scn["function"])
    expr, ref, ow = function(kind, w, int(scn["constant"]))
    src = f"module top(input [{w - 1}:0] a, output [{ow - 1}:0] y);\n  assign y = {expr};\nendmodule\n"
    opt = "abc -g AND; " if scn["abc_optimize"] else ""
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "top.v"), "w") as f:
            f.write(src)
        script = (
            "read_verilog top.v; hierarchy -top top; proc; flatten; opt; techmap; opt; "
            f"{opt}aigmap; opt_clean; write_aiger -ascii top.aag"
        )
        subprocess.run(["yosys", "-q", "-p", script], cwd=tmp, check=True, capture_output=True)
        with open(os.path.join(tmp, "top.aag")) as f:
            text = f.read()
        shutil.copy(os.path.join(tmp, "top.aag"), os.path.join(os.environ["SWR_ARTIFACTS"], "top.aag"))
    header, inputs, outputs, ands = read_aag(text)
    wrong = sum(1 for v in range(1 << w) if evaluate(inputs, outputs, ands, v) != ref(v))
    if wrong:
        raise RuntimeError(f"the AIGER netlist differs from the function on {wrong} inputs")
    return {
        "aiger": "top.aag",
        "header": list(header),
        "and_gates": header[4],
        "inverted_fanins": sum((r0 & 1) + (r1 & 1) for _, r0, r1 in ands),
        "max_and_depth": depth(inputs, ands),
        "ones_fraction": sum(ref(v) & 1 for v in range(1 << w)) / (1 << w),
    }


def depth(inputs, ands):
    d = {lit // 2: 0 for lit in inputs}
    d[0] = 0
    for lhs, r0, r1 in ands:
        d[lhs // 2] = 1 + max(d[r0 // 2], d[r1 // 2])
    return max(d.values())


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
