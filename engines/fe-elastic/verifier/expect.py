"""A case's expected displacements and reactions, computed by CalculiX (ccx) at build time."""
import json
import sys

from ccx import run_ccx

print(json.dumps({"expected": run_ccx(json.load(sys.stdin)["input"])}))
