"""Warm worker, run inside the sandbox: import a workflow's `entry` once, then serve scenarios.

Stdlib only. Protocol: one request per line on stdin, {"scenario": {...}, "artifacts": "<name>"};
the call gets $SWR_ARTIFACTS/<name> as its own $SWR_ARTIFACTS. One JSON reply per line on the
original stdout: {"ok": true, "output": <text>} or {"ok": false, "error": <traceback>}.
The entry's own prints go to stderr so they cannot corrupt the protocol (warm_call.py, shared with the
fork server's warm call).
"""

import json
import os
import sys

if __package__:  # imported on the host (tests)
    from swr.kinds.workflow import warm_call
else:  # run inside the sandbox: warm_call.py is mounted beside this script
    import swr_warm_call as warm_call  # type: ignore[no-redef]


def main() -> None:
    proto = warm_call.keep_protocol()
    func = warm_call.load_entry(sys.argv[1])
    root = os.environ.get("SWR_ARTIFACTS", "/tmp")
    for line in sys.stdin:
        try:
            request = json.loads(line)
            files = os.path.join(root, request["artifacts"])
            os.makedirs(files, exist_ok=True)
            os.environ["SWR_ARTIFACTS"] = files
            output, error = warm_call.call(func, request["scenario"])
        except BaseException:  # noqa: BLE001 - a garbled request is reported too, the worker survives
            output, error = None, warm_call.failure()
        warm_call.send(proto, {"ok": True, "output": output} if output is not None else {"ok": False, "error": error})


if __name__ == "__main__":
    main()
