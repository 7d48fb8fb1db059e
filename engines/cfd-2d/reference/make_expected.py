"""Build-time expected fields for the public examples (not run by the grader): the verifier's own expect.py (the
reference solver on the grid refined 3x and 5x, Richardson-extrapolated), which the engine check also runs for
the drawn hidden cases. Usage: make_expected.py CASE.json..."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "verifier")]  # ns2d (here) and expect (the verifier's)
from expect import expected  # noqa: E402

if __name__ == "__main__":
    for name in sys.argv[1:]:
        t = time.time()
        doc = json.loads(Path(name).read_text())
        doc["expected"] = expected(doc["input"])
        Path(name).write_text(json.dumps(doc) + "\n")
        print(f"{name}: {time.time() - t:.0f} s", flush=True)
