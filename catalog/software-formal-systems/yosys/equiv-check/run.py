"""Formal equivalence of a constant multiplier and its CSD shift-add implementation with yosys (miter + SAT, equiv_*)."""

import json
import os
import re
import subprocess
import tempfile


def csd(k):
    """Canonical signed-digit recoding of k: list of (shift, sign), lowest shift first."""
    out, i = [], 0
    while k:
        if k & 1:
            d = 2 - (k & 3)          # +1 if k mod 4 == 1, -1 if k mod 4 == 3
            out.append((i, d))
            k -= d
        k >>= 1
        i += 1
    return out


def inject(terms, fault):
    terms = list(terms)
    if fault == "drop_term" and len(terms) > 1:
        terms.pop()                                  # drop the highest-shift term
    elif fault == "flip_sign":
        terms[0] = (terms[0][0], -terms[0][1])       # flip the lowest term's sign
    elif fault == "shift_error":
        terms[-1] = (terms[-1][0] + 1, terms[-1][1])  # highest term shifted one place too far
    return terms


def sources(w, k, terms):
    ow = w + 9
    spec = f"""module spec(input [{w - 1}:0] x, output [{ow - 1}:0] y);
  assign y = x * {ow}'d{k};
endmodule
"""
    expr = " ".join(("+ " if d > 0 else "- ") + f"({{{{{ow - w}{{1'b0}}}}, x}} << {s})" for s, d in terms)
    impl = f"""module impl(input [{w - 1}:0] x, output [{ow - 1}:0] y);
  assign y = {ow}'d0 {expr};
endmodule
"""
    return spec, impl


def counterexamples(table, width):
    """Every x whose miter trigger is 1 in `eval -table in_x`, ascending. Any of them refutes equivalence,
    so the graded one is the one every correct method agrees on: the smallest."""
    rows = re.findall(r"^\s*\d+'([01]+)\s*\|\s*1'([01])\s*$", table, re.MULTILINE)
    if len(rows) != 1 << width:
        raise RuntimeError(f"yosys eval -table printed {len(rows)} rows for a {width}-bit input")
    return sorted(int(x, 2) for x, trigger in rows if trigger == "1")


def _read(path):
    with open(path) as f:
        return f.read()


def main(scn):
    w = int(scn["width"])
    k = int(scn["constant"])
    fault = str(scn["fault"])
    x = int(scn["x_value"]) % (1 << w)
    terms = inject(csd(k), fault)
    spec, impl = sources(w, k, terms)
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in (("spec.v", spec), ("impl.v", impl)):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)
        script = (
            "read_verilog spec.v impl.v; proc; opt_clean; design -save orig; "
            f"tee -q -o eval.txt eval -set x {x} -show y spec; tee -q -a eval.txt eval -set x {x} -show y impl; "
            "miter -equiv -flatten -make_outputs spec impl miter; hierarchy -top miter; flatten; opt; "
            "tee -q -o sat.txt sat -prove trigger 0 -show-inputs -show-outputs miter; "
            "tee -q -o table.txt eval -table in_x -show trigger miter; "
            "design -load orig; equiv_make spec impl equiv; hierarchy -top equiv; equiv_simple; equiv_induct; "
            "tee -q -o equiv.txt equiv_status; "
            "design -load orig; synth -top impl -flatten -noabc; abc -g AND,OR,XOR,MUX; opt_clean; "
            "tee -q -o stat.json stat -json"
        )
        subprocess.run(["yosys", "-q", "-p", script], cwd=tmp, check=True, capture_output=True)
        sat_log, eq_log, eval_log, stat_text, table = (_read(os.path.join(tmp, n)) for n in
                                                       ("sat.txt", "equiv.txt", "eval.txt", "stat.json", "table.txt"))
        stat = json.loads(stat_text)["design"]

    proved = "SAT proof finished - no model found: SUCCESS!" in sat_log
    cexs = counterexamples(table, w)
    if proved != (not cexs):
        raise RuntimeError(f"sat -prove says equivalent={proved} but the eval table has {len(cexs)} counterexamples")
    st = re.search(r"Found (\d+) \$equiv cells in equiv:\s*\n\s*Of those cells (\d+) are proven and (\d+) are unproven",
                   eq_log)
    evals = [int(v, 2) for v in re.findall(r"Eval result: \\y = \d+'([01]+)\.", eval_log)]
    return {
        "csd_terms": [[int(s), int(d)] for s, d in terms],
        "equivalent": bool(proved),
        "counterexample_x": cexs[0] if cexs else -1,
        "equiv_cells": int(st.group(1)),
        "equiv_proven": int(st.group(2)),
        "equiv_unproven": int(st.group(3)),
        "impl_cells": int(stat["num_cells"]),
        "spec_y": evals[0],
        "impl_y": evals[1],
    }


if __name__ == "__main__":
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
