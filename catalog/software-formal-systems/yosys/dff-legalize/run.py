"""Flip-flop inference and legalisation with yosys: registers written with enables and synchronous or asynchronous
resets are recognised by opt_dff as $dffe/$sdff/$adff cells, mapped to fine-grained $_*DFF*_ cells by techmap, and
rewritten by dfflegalize into the flip-flop types a target library offers plus the logic that emulates the rest."""

import json
import os
import random
import subprocess
import tempfile

KINDS = ["plain", "enable", "sync_reset", "sync_reset_enable", "async_reset", "async_reset_enable"]
LIBRARIES = {
    "dff_only": "-cell $_DFF_P_ 01 -cell $_DFF_PP?_ 01",
    "with_enable": "-cell $_DFF_P_ 01 -cell $_DFFE_PP_ 01 -cell $_DFF_PP?_ 01",
    "with_sync_reset": "-cell $_DFF_P_ 01 -cell $_SDFF_PP?_ 01 -cell $_DFF_PP?_ 01",
}
WORD_TYPES = ["$dff", "$dffe", "$sdff", "$sdffe", "$sdffce", "$adff", "$adffe"]


def register(k, kind, w, value):
    q, v = f"q{k}", f"{w}'d{value}"
    if kind == "plain":
        return f"  always @(posedge clk) {q} <= d{k};"
    if kind == "enable":
        return f"  always @(posedge clk) if (en) {q} <= d{k};"
    if kind == "sync_reset":
        return f"  always @(posedge clk) if (rst) {q} <= {v}; else {q} <= d{k};"
    if kind == "sync_reset_enable":
        return f"  always @(posedge clk) if (rst) {q} <= {v}; else if (en) {q} <= d{k};"
    if kind == "async_reset":
        return f"  always @(posedge clk or posedge arst) if (arst) {q} <= {v}; else {q} <= d{k};"
    return f"  always @(posedge clk or posedge arst) if (arst) {q} <= {v}; else if (en) {q} <= d{k};"


def stat(tmp, name):
    with open(os.path.join(tmp, name)) as f:
        return json.load(f)["design"].get("num_cells_by_type", {})


def main(scn):
    n, w = int(scn["n_registers"]), int(scn["width"])
    rng = random.Random(int(scn["seed"]))
    regs = []
    for _ in range(n):  # per register: kind (from the allowed ones), then reset value
        kinds = KINDS if scn["allow_async"] else KINDS[:4]
        regs.append((rng.choice(kinds), rng.randrange(1 << w)))
    ports = ", ".join(f"input [{w - 1}:0] d{k}, output reg [{w - 1}:0] q{k}" for k in range(n))
    src = "\n".join(
        [f"module top(input clk, input rst, input arst, input en, {ports});"]
        + [register(k, kind, w, v) for k, (kind, v) in enumerate(regs)]
        + ["endmodule", ""]
    )
    lib = LIBRARIES[str(scn["library"])]
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "top.v"), "w") as f:
            f.write(src)
        script = (
            "read_verilog top.v; hierarchy -top top; proc; opt_dff; opt_clean; tee -q -o word.json stat -json; "
            f"techmap; opt; tee -q -o fine.json stat -json; dfflegalize {lib}; opt_expr; opt_clean; "
            "tee -q -o legal.json stat -json"
        )
        subprocess.run(["yosys", "-q", "-p", script], cwd=tmp, check=True, capture_output=True)
        word, fine, legal = stat(tmp, "word.json"), stat(tmp, "fine.json"), stat(tmp, "legal.json")
    ff = lambda by: sum(v for t, v in by.items() if "DFF" in t.upper())  # noqa: E731
    return {
        "registers": [kind for kind, _ in regs],
        "word_ff_types": [int(word.get(t, 0)) for t in WORD_TYPES],
        "fine_ff_bits": ff(fine),
        "fine_cell_types": len([t for t in fine if "DFF" in t.upper()]),
        "legal_ff_bits": ff(legal),
        "legal_muxes": int(legal.get("$_MUX_", 0)),
        "legal_other_gates": sum(v for t, v in legal.items() if "DFF" not in t.upper() and t != "$_MUX_"),
        "legal_cell_types": sorted(t for t in legal if "DFF" in t.upper()),
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
