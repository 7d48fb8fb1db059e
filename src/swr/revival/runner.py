"""Run inside the sandbox by a revival task's own interpreter (any Python 3, so no newer syntax here): pytest
over the test files with a plugin that records each test's outcome, or one probe script. One JSON request
on stdin: {"mode": "tests"|"probe", "project", "pythonpath", "ini", "tests" | "probe"}."""
import json
import os
import runpy
import sys

MARK = "@@swr-revival-results@@"


def _tests(req):
    import pytest

    outcomes = {}

    class Collect(object):
        def pytest_runtest_logreport(self, report):
            prev = outcomes.get(report.nodeid)
            if report.when == "call":
                outcomes[report.nodeid] = prev if prev in ("failed", "error") else report.outcome
            elif report.outcome == "failed":
                outcomes[report.nodeid] = "error"
            elif report.outcome == "skipped" and prev is None:
                outcomes[report.nodeid] = "skipped"

        def pytest_collectreport(self, report):
            if report.failed:
                outcomes["collect:" + report.nodeid] = "error"

    args = ["-q", "-p", "no:cacheprovider", "-c", req["ini"], "--rootdir", "."] + list(req["tests"])
    code = pytest.main(args, plugins=[Collect()])
    sys.stdout.write("\n" + MARK + json.dumps({"exit": int(code), "outcomes": outcomes}) + "\n")
    sys.stdout.flush()


def main():
    req = json.loads(sys.stdin.read())
    ini = os.path.abspath(req["ini"]) if req.get("ini") else None
    os.chdir(req["project"])
    for p in reversed(req["pythonpath"]):
        sys.path.insert(0, os.path.abspath(p))
    if req["mode"] == "probe":
        probe = os.path.abspath(os.path.join("..", req["probe"]))
        sys.argv = [probe]
        runpy.run_path(probe, run_name="__main__")
        return
    req["ini"] = ini
    _tests(req)


if __name__ == "__main__":
    main()
