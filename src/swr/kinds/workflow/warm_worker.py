"""Warm worker, run inside the sandbox: import a workflow's `entry` once, then serve scenarios.

Stdlib only. Protocol: one request per line on stdin, {"scenario": {...}, "artifacts": "<name>"};
the call gets $SWR_ARTIFACTS/<name> as its own $SWR_ARTIFACTS. One JSON reply per line on the
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
    root = os.environ.get("SWR_ARTIFACTS", "/tmp")
    for line in sys.stdin:
        try:
            request = json.loads(line)
            files = os.path.join(root, request["artifacts"])
            os.makedirs(files, exist_ok=True)
            os.environ["SWR_ARTIFACTS"] = files
            out = func(request["scenario"])
            reply = {"ok": True, "output": json.dumps(out)}
        except BaseException:  # noqa: BLE001 - every failure is reported, the worker survives
            reply = {"ok": False, "error": traceback.format_exc()[-4000:]}
        proto.write(json.dumps(reply) + "\n")
        proto.flush()


if __name__ == "__main__":
    main()
