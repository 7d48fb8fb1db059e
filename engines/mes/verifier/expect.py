"""Expected journal and states of one case, from the reference MES (mes.py, layered beneath this directory by
the check), as the fixed cases' were. stdin {"input": case} -> stdout {"expected": {"journal", "states"}};
generate.py attaches them to the cases it draws (one sandboxed process for all, not one per case)."""
import json
import sys
from typing import Any

from mes import run


def expected(case_input: dict[str, Any]) -> dict[str, Any]:
    return run(case_input)


if __name__ == "__main__":
    print(json.dumps({"expected": expected(json.load(sys.stdin)["input"])}))
