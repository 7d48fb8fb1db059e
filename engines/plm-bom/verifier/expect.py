"""Expected journal and final state of one case, from the reference PLM core (plm.py, layered beneath this
directory by the check). stdin {"input": case} -> stdout {"expected": {"journal", "final"}}; generate.py
attaches them to the cases it draws (one sandboxed process for all, not one per case)."""
import json
import sys
from typing import Any

from plm import run


def expected(case_input: dict[str, Any]) -> dict[str, Any]:
    return run(case_input)


if __name__ == "__main__":
    print(json.dumps({"expected": expected(json.load(sys.stdin)["input"])}))
