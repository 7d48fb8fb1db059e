"""Expected trace (or refusal) of one case, from the reference runtime (plc_lang, plc_exec: layered beneath this
directory by the check), as the fixed cases' were. stdin {"input": case} -> stdout {"expected": {"trace"} or
{"error": true}}; generate.py attaches them to the cases it draws (one sandboxed process for all)."""
import json
import sys
from typing import Any

from plc_exec import Machine
from plc_lang import StError, parse


def expected(case_input: dict[str, Any]) -> dict[str, Any]:
    try:
        prog = parse(case_input["program"])
    except StError:
        return {"error": True}  # refused: any message will do (verify.py)
    m, dt = Machine(prog), int(case_input["scan_time_ms"])
    return {"trace": [m.scan(k * dt, scan or {}) for k, scan in enumerate(case_input["inputs"])]}


if __name__ == "__main__":
    print(json.dumps({"expected": expected(json.load(sys.stdin)["input"])}))
