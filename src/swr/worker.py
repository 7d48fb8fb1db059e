"""Warm worker, run inside the sandbox: import a workflow's `entry` once, then serve scenarios.

Stdlib only. Protocol: one JSON scenario per line on stdin; one JSON reply per line on the
original stdout: {"ok": true, "output": <text>} or {"ok": false, "error": <traceback>}.
The entry's own prints go to stderr so they cannot corrupt the protocol.
"""

import importlib
import json
import os
import sys
import traceback


def main() -> None:
    module_name, func_name = sys.argv[1].split(":")
    proto = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    sys.path.insert(0, os.getcwd())
    func = getattr(importlib.import_module(module_name), func_name)
    for line in sys.stdin:
        try:
            out = func(json.loads(line))
            reply = {"ok": True, "output": json.dumps(out)}
        except BaseException:  # noqa: BLE001 - every failure is reported, the worker survives
            reply = {"ok": False, "error": traceback.format_exc()[-4000:]}
        proto.write(json.dumps(reply) + "\n")
        proto.flush()


if __name__ == "__main__":
    main()
