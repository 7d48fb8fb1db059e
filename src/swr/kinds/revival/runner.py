"""Run inside the sandbox by a revival task's own interpreter (any Python 3, so no newer syntax here): pytest
over the test files with a plugin that records each test's outcome, or one probe script. One JSON request
on stdin: {"mode": "tests"|"probe", "project", "pythonpath", "classpath", "ini", "tests" | "probe", "nonce"};
hidden `*.java` files are JUnit classes (_junit).

The outcomes are written as ONE line, MARK + nonce + JSON, after pytest has finished. What that line can and
cannot guarantee, given that the candidate's code runs in this very process:
- The nonce is a fresh random token per run, read from stdin (and stdin read to its end) before pytest or
  anything of the project is imported; it is in no argument, environment variable or file. A candidate that
  prints a results line blindly (an atexit handler, a patched print, a copied format) cannot carry it, and the
  grader accepts exactly one MARK line, with this run's nonce, and nothing on stdout after it: a second MARK
  line, or output after ours, is an execution failure named as such (swr.kinds.revival.grading.read_results).
- The line goes out through os.write on a duplicate of stdout taken before the import, so patching
  sys.stdout, print or os.write later does not reach it.
- It is NOT proof. Code in this process can read the nonce back out of memory (frames, gc, /proc/self/mem),
  write to any descriptor, or patch pytest so that failing tests report "passed" without touching this line.
  In-process test outcomes are a signal against accidents and naive cheats; the probes, whose outputs are
  compared outside the candidate's process with outputs the candidate never sees, are the stronger check.
"""

import json
import os
import runpy
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # types for the checker only, as comments: this file runs on any Python 3
    from collections.abc import Callable  # noqa: F401
    from typing import Any, Dict, List, Tuple  # noqa: F401, UP035 - comment types that Python 3.6 can evaluate

MARK = "@@swr-revival-results@@"


def _tests(req, emit):
    # type: (Dict[str, Any], Callable[[str], None]) -> None
    import pytest

    outcomes = {}  # type: Dict[str, str]

    class Collect:
        def pytest_runtest_logreport(self, report):
            # type: (Any) -> None
            prev = outcomes.get(report.nodeid)
            if report.when == "call":
                outcomes[report.nodeid] = prev if prev in ("failed", "error") else report.outcome
            elif report.outcome == "failed":
                outcomes[report.nodeid] = "error"
            elif report.outcome == "skipped" and prev is None:
                outcomes[report.nodeid] = "skipped"

        def pytest_collectreport(self, report):
            # type: (Any) -> None
            if report.failed:
                outcomes["collect:" + report.nodeid] = "error"

    plugins = [Collect()]  # type: List[Any]
    if any(t.endswith(".java") for t in req["tests"]):
        plugins.append(_junit(req.get("classpath") or []))
    args = ["-q", "-p", "no:cacheprovider", "-c", req["ini"], "--rootdir", "."] + list(req["tests"])
    code = pytest.main(args, plugins=plugins)
    emit(json.dumps({"exit": int(code), "outcomes": outcomes}))


class JUnitFailed(Exception):
    """A JUnit class that did not pass: JUnitCore's own account is the failure's text."""


def _junit(classpath):
    # type: (List[str]) -> Any
    """A pytest plugin for a JVM task's hidden JUnit classes (`*.java` test files, named explicitly): one item per
    class, run by JUnitCore in its own JVM on the task's classpath, so the outcomes are recorded and compared as
    pytest's are. Only named when a task hides a .java file; needs pytest 7 or later (the JVM tasks' pins)."""
    import re
    import subprocess

    import pytest

    cp = os.pathsep.join(classpath)

    class JUnitClass(pytest.Item):
        def runtest(self):
            # type: () -> None
            argv = ["java", "-cp", cp, "org.junit.runner.JUnitCore", self.name]
            res = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            out = res.stdout.decode("utf-8", "replace")
            if res.returncode != 0 or "\nOK (" not in out:
                raise JUnitFailed(f"JUnitCore exit {res.returncode}:\n{out[-3000:]}")

        def repr_failure(self, excinfo, style=None):
            # type: (Any, Any) -> Any
            if isinstance(excinfo.value, JUnitFailed):
                return str(excinfo.value)
            return super().repr_failure(excinfo)

        def reportinfo(self):
            # type: () -> Tuple[Any, int, str]
            return self.path, 0, self.name

    class JavaFile(pytest.File):
        def collect(self):
            # type: () -> Any
            text = self.path.read_text(encoding="utf-8", errors="replace")
            pkg = re.search(r"^\s*package\s+([\w.]+)\s*;", text, re.M)
            name = (pkg.group(1) + "." if pkg else "") + self.path.stem
            yield JUnitClass.from_parent(self, name=name)

    class Plugin:
        def pytest_collect_file(self, file_path, parent):
            # type: (Any, Any) -> Any
            if file_path.suffix == ".java":
                return JavaFile.from_parent(parent, path=file_path)
            return None

    return Plugin()


def _emitter(nonce):
    # type: (str) -> Callable[[str], None]
    """A writer of the one results line, bound now (before the project is imported) to a duplicate of stdout
    and to os.write itself; whatever sys.stdout has buffered goes out first, so the line is the last one."""
    fd, write = os.dup(1), os.write
    streams = (sys.stdout, sys.__stdout__)  # type: Tuple[Any, ...]

    def emit(doc):
        # type: (str) -> None
        for s in streams + (sys.stdout,):
            try:
                s.flush()
            except Exception:  # a closed or replaced stream: what it held is not ours to keep
                pass
        data = ("\n" + MARK + nonce + doc + "\n").encode("utf-8")
        while data:
            data = data[write(fd, data) :]

    return emit


def main():
    # type: () -> None
    req = json.loads(sys.stdin.read())
    nonce = str(req.pop("nonce", ""))
    emit = _emitter(nonce)
    del nonce
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
    _tests(req, emit)


if __name__ == "__main__":
    main()
