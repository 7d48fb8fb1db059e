"""FPGA technology mapping with yosys: a generated arithmetic function is lowered to gates (techmap) and covered
by K-input LUTs (flowmap, or ABC's LUT mapper), the JSON netlist (write_json) is read back, and the LUT network is
simulated on every input vector to check it computes the function."""

import json
import os
import subprocess
import tempfile


def spec(function, w, offset):
    """(Verilog module, Python reference function of the input integer, output width)."""
    h = w // 2
    if function == "popcount":
        ow = w.bit_length() + 1
        body = f"c = {ow}'d{offset % (1 << ow)}; for (i = 0; i < {w}; i = i + 1) c = c + a[i];"
        return body, (lambda v: (bin(v).count("1") + offset) % (1 << ow)), ow
    if function == "adder":
        ow = h + 1
        body = f"c = a[{h - 1}:0] + a[{w - 1}:{h}] + {ow}'d{offset % (1 << ow)};"
        return body, (lambda v: ((v & ((1 << h) - 1)) + (v >> h) + offset) % (1 << ow)), ow
    if function == "compare":
        ow = 1
        k = offset % (1 << h)
        body = f"s = a[{h - 1}:0] + {h}'d{k}; c = s < a[{w - 1}:{h}];"  # s wraps at h bits
        return body, (lambda v: int(((v & ((1 << h) - 1)) + k) % (1 << h) < (v >> h))), ow
    ow = 1  # majority
    body = f"c = 0; for (i = 0; i < {w}; i = i + 1) c = c + a[i]; c = (c + {offset % (w + 1)}) > {w // 2};"
    return body, (lambda v: int(bin(v).count("1") + offset % (w + 1) > w // 2)), ow


def simulate(module, v, in_bits, out_bits):
    """Value of the LUT network's outputs for input integer v (cells evaluated in dependency order)."""
    net = {b: (v >> i) & 1 for i, b in enumerate(in_bits)}
    net.update({"0": 0, "1": 1})
    pending = list(module["cells"].values())
    while pending:
        rest = []
        for cell in pending:
            ins = cell["connections"]["A"]
            if all(b in net for b in ins):
                lut = cell["parameters"]["LUT"]
                idx = sum(net[b] << i for i, b in enumerate(ins))
                net[cell["connections"]["Y"][0]] = int(lut[len(lut) - 1 - idx])
            else:
                rest.append(cell)
        if len(rest) == len(pending):
            raise RuntimeError("combinational loop or unknown driver in the LUT netlist")
        pending = rest
    return sum(net[b] << i for i, b in enumerate(out_bits))


def main(scn):
    w, k, offset = int(scn["width"]), int(scn["lut_size"]), int(scn["offset"])
    body, ref, ow = spec(str(scn["function"]), w, offset)
    src = (
        f"module top(input [{w - 1}:0] a, output [{ow - 1}:0] y);\n  integer i;\n  reg [{ow + 4}:0] c;\n"
        f"  reg [{w // 2 - 1}:0] s;\n"
        f"  always @* begin {body} end\n  assign y = c[{ow - 1}:0];\nendmodule\n"
    )
    mapper = f"flowmap -maxlut {k}" if scn["mapper"] == "flowmap" else f"abc -lut {k} -fast"
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "top.v"), "w") as f:
            f.write(src)
        script = (
            "read_verilog top.v; hierarchy -top top; proc; flatten; opt; wreduce; alumacc; opt; techmap; "
            f"opt -fast; {mapper}; opt_clean; write_json net.json; tee -q -o ltp.txt ltp -noff"
        )
        subprocess.run(["yosys", "-q", "-p", script], cwd=tmp, check=True, capture_output=True)
        with open(os.path.join(tmp, "net.json")) as f:
            module = json.load(f)["modules"]["top"]
        with open(os.path.join(tmp, "ltp.txt")) as f:
            ltp = f.read()
    types = {c["type"] for c in module["cells"].values()}
    if types - {"$lut"}:
        raise RuntimeError(f"cells other than $lut: {sorted(types)}")
    in_bits = [str(b) for b in module["ports"]["a"]["bits"]]
    out_bits = [str(b) for b in module["ports"]["y"]["bits"]]
    for cell in module["cells"].values():
        for key in ("A", "Y"):
            cell["connections"][key] = [str(b) for b in cell["connections"][key]]
    widths = [int(c["parameters"]["WIDTH"], 2) for c in module["cells"].values()]
    mismatches = sum(1 for v in range(1 << w) if simulate(module, v, in_bits, out_bits) != ref(v))
    if mismatches:  # the mapped network must compute the function on every input vector
        raise RuntimeError(f"LUT netlist differs from the function on {mismatches} inputs")
    depth = int(ltp.split("(length=")[1].split(")")[0])
    return {
        "n_luts": len(widths),
        "lut_width_histogram": [widths.count(i) for i in range(1, 7)],
        "lut_inputs_total": sum(widths),
        "depth": depth,
        "lut_mask_ones": sum(c["parameters"]["LUT"].count("1") for c in module["cells"].values()),
        "ones_fraction": sum(ref(v) & 1 for v in range(1 << w)) / (1 << w),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
