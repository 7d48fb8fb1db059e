"""Expected output of one case from the reference runtime (scada.py, layered beneath this directory by the
check). stdin {"input": case} -> stdout {"expected": {...}}; generate.py attaches it to the cases it draws."""
import json
import sys
from typing import Any

from scada import run


def expected(case_input: dict[str, Any]) -> dict[str, Any]:
    return run(case_input)


if __name__ == "__main__":
    print(json.dumps({"expected": expected(json.load(sys.stdin)["input"])}))
