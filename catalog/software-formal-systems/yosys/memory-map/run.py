"""Memory inference and mapping with yosys: a generated RAM or ROM is inferred as a $mem_v2 cell (`memory -nomap`),
then mapped to flip-flops and multiplexer logic (`memory_map`, techmap), with statistics after each stage."""

import json
import os
import random
import subprocess
import tempfile


def verilog(depth, width, ports, sync_read, rom, contents):
    ab = max(1, (depth - 1).bit_length())
    reads = "".join(
        f", input [{ab - 1}:0] ra{p}, output {'reg ' if sync_read else ''}[{width - 1}:0] rd{p}" for p in range(ports)
    )
    write = "" if rom else f", input we, input [{ab - 1}:0] wa, input [{width - 1}:0] wd"
    lines = [f"module top(input clk{write}{reads});", f"  reg [{width - 1}:0] mem [0:{depth - 1}];"]
    lines.append("  initial begin")
    lines += [f"    mem[{i}] = {width}'d{v};" for i, v in enumerate(contents)]
    lines.append("  end")
    if not rom:
        lines.append("  always @(posedge clk) if (we) mem[wa] <= wd;")
    for p in range(ports):
        if sync_read:
            lines.append(f"  always @(posedge clk) rd{p} <= mem[ra{p}];")
        else:
            lines.append(f"  assign rd{p} = mem[ra{p}];")
    return "\n".join(lines + ["endmodule", ""])


def counts(stat):
    by = stat.get("num_cells_by_type", {})
    return {
        "cells": int(stat["num_cells"]),
        "flipflops": sum(int(v) for k, v in by.items() if "DFF" in k.upper()),
        "muxes": sum(int(v) for k, v in by.items() if "MUX" in k.upper()),
    }


def main(scn):
    depth, width, ports = int(scn["depth"]), int(scn["width"]), int(scn["read_ports"])
    rom, sync_read = bool(scn["rom"]), bool(scn["sync_read"])
    rng = random.Random(int(scn["seed"]))
    contents = [rng.randrange(1 << width) for _ in range(depth)]
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "top.v"), "w") as f:
            f.write(verilog(depth, width, ports, sync_read, rom, contents))
        script = (
            "read_verilog top.v; hierarchy -top top; proc; opt; memory -nomap; opt_clean; "
            "tee -q -o inferred.json stat -json; write_json net.json; memory_map; opt; techmap; opt; opt_clean; "
            "tee -q -o mapped.json stat -json"
        )
        subprocess.run(["yosys", "-q", "-p", script], cwd=tmp, check=True, capture_output=True)
        with open(os.path.join(tmp, "inferred.json")) as f:
            inferred = json.load(f)["design"]
        with open(os.path.join(tmp, "mapped.json")) as f:
            mapped = json.load(f)["design"]
        with open(os.path.join(tmp, "net.json")) as f:
            mems = [c["parameters"] for c in json.load(f)["modules"]["top"]["cells"].values() if c["type"] == "$mem_v2"]
    by = inferred.get("num_cells_by_type", {})
    after = counts(mapped)
    return {
        "inferred_mem_cells": len(mems),
        "mem_size": sum(int(m["SIZE"], 2) for m in mems),
        "mem_width": sum(int(m["WIDTH"], 2) for m in mems),
        "mem_read_ports": sum(int(m["RD_PORTS"], 2) for m in mems),
        "mem_write_ports": sum(int(m["WR_PORTS"], 2) for m in mems),
        "mem_clocked_read_ports": sum(m["RD_CLK_ENABLE"].count("1") for m in mems),
        "mem_init_ones": sum(m["INIT"].count("1") for m in mems),
        "inferred_cells": int(inferred["num_cells"]),
        "inferred_muxes": int(by.get("$mux", 0)),
        "mapped_cells": after["cells"],
        "mapped_flipflops": after["flipflops"],
        "mapped_muxes": after["muxes"],
        "mapped_wire_bits": int(mapped["num_wire_bits"]),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
