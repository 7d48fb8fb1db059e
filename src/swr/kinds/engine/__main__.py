"""`python -m swr.kinds.engine check DIR [--sandbox bwrap]`: an engine's readiness, for its authors."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from swr.core.errors import SwrError
from swr.kinds.engine.check import check_engine
from swr.sandbox import get_sandbox


def main() -> int:
    ap = argparse.ArgumentParser(prog="python -m swr.kinds.engine")
    ap.add_argument("command", choices=["check"])
    ap.add_argument("engine", type=Path)
    ap.add_argument("--sandbox", default="bwrap")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0, help="the release seed the hidden cases are drawn from")
    args = ap.parse_args()
    try:
        checked = check_engine(args.engine, get_sandbox(args.sandbox), args.jobs, args.seed)
    except SwrError as e:
        print(f"swr: {e}", file=sys.stderr)
        return 2
    print(json.dumps(checked.report, indent=1))
    for p in checked.problems:
        print(f"problem: {p}", file=sys.stderr)
    return 1 if checked.problems else 0


if __name__ == "__main__":
    sys.exit(main())
