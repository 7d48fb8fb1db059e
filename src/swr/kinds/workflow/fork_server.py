"""Fork server, run inside the sandbox: import a reference's modules once, then fork one clean child per
scenario, so a fresh execution does not pay the wrapped package's import again (stdlib only).

argv[1] is JSON: {"argv": [script, *args]}, "preload": [[module, [names]], ...], "watch": [dirs], "entry"}.
First line on the original stdout: {"ready": true, "rss": bytes, ...} or {"ready": false, "why": text}.
Then per request line {"stdin": text, "time_s": s, "stdout_bytes": n} one reply line {"rc", "limit",
"stdout", "stderr" (base64), "clean"}. The child sees only its scenario: stdin, stdout and stderr are its
own pipes, the server's fds are closed, RNGs are reseeded; afterwards every process but the server is
killed and what the child added to the watched directories (/tmp, the workdir) is removed. A child that
changed something that was there before ("clean": false) ends the server: the host starts a fresh one.
After the first child that succeeds the server imports the modules that child's program imported on first
use (config "learn"), so later children do not pay a library's lazy imports again; that reply carries the
server's new "rss", or "unlearnable" (and "clean": false) if those imports started threads.
A request {"warm": text, ...} instead calls the config's "entry" (module:func) in the server itself, as a warm
worker does (reply "stdout": the output's JSON): from then on the server is warm, and it ends at the next
request for a fresh child, which it can no longer give.
"""

from __future__ import annotations

import base64
import gc
import json
import os
import selectors
import signal
import stat
import sys
import threading
import time
import traceback
from typing import Any

if __package__:  # imported on the host (tests)
    from swr.kinds.workflow import warm_call
else:  # run inside the sandbox: warm_call.py is mounted beside this script
    import swr_warm_call as warm_call  # type: ignore[no-redef]

STDERR_CAP = 1 << 20
# jemalloc (pyarrow, which pandas imports) re-creates its background thread in a child (pthread_atfork)
FORK_SAFE_THREADS = ("jemalloc_bg_thd",)
Manifest = dict[str, tuple[Any, ...]]


def preload(mods: list[list[Any]]) -> tuple[list[str], list[str]]:
    """Import what the reference imports at its top level (its own modules found in the workdir, as its
    program finds them); a failure is left for the child to meet."""
    done, failed = [], []
    sys.path.insert(0, os.getcwd())
    try:
        for name, fromlist in mods:
            try:
                __import__(name, fromlist=fromlist or ())
                done.append(name)
            except BaseException:  # noqa: BLE001 - the child will raise it again, as a fresh process would
                failed.append(name)
    finally:
        sys.path.remove(os.getcwd())  # the first entry: the child's sys.path is a fresh process's
    return done, failed


def manifest(root: str) -> Manifest:
    """What a directory holds: files by (inode, ctime) so that any change shows, directories by inode/mode.
    A filesystem mounted inside it is listed, not walked: under /tmp that is the host's venv, bound read-only
    when swr lives under /tmp (a clone in /tmp: tens of thousands of files, walked twice per child)."""
    out: Manifest = {}
    dev = os.stat(root).st_dev
    stack = [""]
    while stack:
        rel = stack.pop()
        try:
            entries = list(os.scandir(os.path.join(root, rel)))
        except OSError:
            continue
        for e in entries:
            r = os.path.join(rel, e.name)
            st = e.stat(follow_symlinks=False)
            if stat.S_ISDIR(st.st_mode):
                out[r] = ("d", st.st_ino, st.st_mode)
                if st.st_dev == dev:
                    stack.append(r)
            else:
                out[r] = ("f", st.st_ino, st.st_ctime_ns, st.st_mode)
    return out


def _remove(path: str) -> None:
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, 0o700)
            for name in os.listdir(path):
                _remove(os.path.join(path, name))
            os.rmdir(path)
        else:
            os.unlink(path)
    except FileNotFoundError:
        pass


def restore(root: str, before: Manifest) -> bool:
    """Remove what the child added under root; False if it changed or removed something older."""
    now = manifest(root)
    for rel in sorted(set(now) - set(before)):
        if os.path.dirname(rel) == "" or os.path.dirname(rel) in before:
            _remove(os.path.join(root, rel))
    return manifest(root) == before


def unsafe_threads() -> list[str]:
    """Threads besides this one that a forked child would lack, except those of fork-safe libraries."""
    names = []
    for t in os.listdir("/proc/self/task"):
        if int(t) != os.getpid():
            with open(f"/proc/self/task/{t}/comm") as f:
                names.append(f.read().strip())
    return [n for n in names if n not in FORK_SAFE_THREADS]


def kill_strays() -> None:
    """Every process in the sandbox's pid namespace but its init and this server: what a child left."""
    me = os.getpid()
    for _ in range(1000):
        alive = []
        for p in os.listdir("/proc"):
            if p.isdigit() and int(p) not in (1, me):
                try:
                    with open(f"/proc/{p}/stat") as f:
                        if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                            alive.append(int(p))
                except (OSError, IndexError):
                    continue
        _reap()
        if not alive:
            return
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.002)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _streams() -> None:
    """New sys.stdin/stdout/stderr on fds 0-2, configured like the interpreter's own."""
    import io

    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        old = getattr(sys, f"__{name}__")
        raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
        buf = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
        new = io.TextIOWrapper(buf, encoding=old.encoding, errors=old.errors, line_buffering=old.line_buffering)
        setattr(sys, name, new)
        setattr(sys, f"__{name}__", new)


def _reseed() -> None:
    """A fresh process draws its unseeded RNG states from the OS; so does each child."""
    np_random = sys.modules.get("numpy.random")
    if np_random is not None:
        try:
            np_random.seed()
        except Exception:  # noqa: BLE001 - an unusual numpy: nothing to reseed
            pass


def _exit_code(e: SystemExit) -> int:
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code & 0xFF
    print(e.code, file=sys.stderr)
    return 1


def run_program(argv: list[str]) -> int:
    """What `python script args` does from here on: run it as a new __main__ (with the interpreter's
    __file__ and sys.path[0]), then the interpreter's shutdown."""
    import builtins
    import importlib.machinery
    import types

    path = argv[0] if os.path.isabs(argv[0]) else os.getcwd() + "/" + argv[0]  # unnormalised, like python's
    sys.argv = list(argv)
    sys.path[0] = os.path.dirname(os.path.realpath(path))
    main = types.ModuleType("__main__")
    main.__dict__.update(
        __file__=path,
        __cached__=None,
        __builtins__=builtins,
        __loader__=importlib.machinery.SourceFileLoader("__main__", path),
    )
    sys.modules["__main__"] = main
    try:
        with open(path, "rb") as f:
            compiled = compile(f.read(), path, "exec")
        exec(compiled, main.__dict__)
        code = 0
    except SystemExit as e:
        code = _exit_code(e)
    except BaseException as e:  # noqa: BLE001 - reported like the interpreter does
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
            tb = tb.tb_next
        traceback.print_exception(type(e), e, tb)
        code = 1
    try:
        threading._shutdown()  # type: ignore[attr-defined]  # non-daemon threads are joined, as at exit
    except Exception:  # noqa: BLE001
        pass
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120
    return code


def child(argv: list[str], fds: tuple[int, int, int], own: set[int], nonce: bytes | None) -> None:
    """The forked child: its own fds 0-2 and nothing of the server's, then the program; never returns.
    With a nonce, it then names the modules the program imported, after the nonce at the end of stderr
    (the server strips them off), for the server to import."""
    code = 1
    try:
        for i, fd in enumerate(fds):
            os.dup2(fd, i)
        for fd in own | set(fds):
            if fd > 2:
                os.close(fd)
        _streams()
        try:
            with open("/proc/self/oom_score_adj", "w") as f:
                f.write("1000")  # a memory breach kills the child, not the server
        except OSError:
            pass
        _reseed()
        before = set(sys.modules)
        code = run_program(argv)
        if nonce:
            _tell(
                b"\n" + nonce + "".join(f"\n{m}" for m in sys.modules if m not in before and m != "__main__").encode()
            )
    finally:
        os._exit(code)


def _tell(data: bytes) -> None:
    try:
        while data:
            data = data[os.write(2, data) :]
    except OSError:
        pass


def told(err: bytes, nonce: bytes | None) -> tuple[bytes, list[str]]:
    """The child's stderr without the trailer it wrote after its program, and the module names in it."""
    at = err.rfind(b"\n" + nonce) if nonce else -1
    if at < 0:
        return err, []
    assert nonce is not None  # at >= 0 only when a nonce was given
    return err[:at], err[at + len(nonce) + 1 :].decode(errors="replace").split("\n")[1:]


def learn(names: list[str]) -> str | None:
    """Import what a child's program imported on first use (lazy imports a fresh process pays in every
    scenario): modules only, no call's state. Why the server must retire instead, or None."""
    for name in names:
        if all(p.isidentifier() for p in name.split(".")):
            try:
                __import__(name)
            except BaseException:  # noqa: BLE001 - a child imports it itself, as before
                pass
    if threads := unsafe_threads():
        return f"threads after the learned imports: {', '.join(threads)}"
    gc.collect()
    gc.freeze()
    return None


def serve_one(
    cfg: dict[str, Any], req: dict[str, Any], own: set[int], snaps: dict[str, Manifest], tell: bool = False
) -> tuple[dict[str, Any], list[str]]:
    """Fork, feed, collect with the deadline and the stdout cap, then clean up after the child; the reply,
    and (if told to tell) the modules the child's program imported."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    nonce = os.urandom(16).hex().encode() if tell else None
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        child(cfg["argv"], (in_r, out_w, err_w), own | {in_w, out_r, err_r}, nonce)
    for fd in (in_r, out_w, err_w):
        os.close(fd)
    out, err, limit = collect(pid, in_w, out_r, err_r, req["stdin"].encode(), t0 + req["time_s"], req["stdout_bytes"])
    if limit:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    kill_strays()
    clean = all(restore(root, snap) for root, snap in snaps.items())
    rc = os.waitstatus_to_exitcode(status)
    err, names = told(err, nonce)
    return {
        "rc": 128 - rc if rc < 0 else rc,
        "limit": limit,
        "clean": clean,
        "wall_s": time.monotonic() - t0,
        "stdout": base64.b64encode(out).decode(),
        "stderr": base64.b64encode(err).decode(),
    }, names


def collect(
    pid: int, in_w: int, out_r: int, err_r: int, data: bytes, deadline: float, cap: int
) -> tuple[bytes, bytes, str | None]:
    """The child's stdout and stderr until it exits (its pidfd) or breaks the deadline or the cap."""
    sel = selectors.DefaultSelector()
    pidfd = os.pidfd_open(pid)
    os.set_blocking(in_w, False)
    sel.register(in_w, selectors.EVENT_WRITE)
    sel.register(out_r, selectors.EVENT_READ)
    sel.register(err_r, selectors.EVENT_READ)
    sel.register(pidfd, selectors.EVENT_READ)
    out, err, view, limit, exited = bytearray(), bytearray(), memoryview(data), None, False
    opened = {pidfd, out_r, err_r, in_w}
    try:
        while not exited or out_r in sel.get_map() or err_r in sel.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                limit = "timeout"
                break
            events = sel.select(remaining if not exited else min(remaining, 0.05))
            if exited and not events:
                break  # the child is gone; a grandchild holds its pipes open: it will be killed
            for key, _ in events:
                fd = key.fd
                if fd == pidfd:
                    exited = True
                    sel.unregister(pidfd)
                elif fd == in_w:
                    view = _feed(sel, in_w, view, opened)
                else:
                    chunk = os.read(fd, 1 << 16)
                    if not chunk:
                        sel.unregister(fd)
                    elif fd == out_r:
                        out += chunk
                    elif len(err) < STDERR_CAP:
                        err += chunk
            if len(out) > cap:
                limit = "output"
                break
    finally:
        sel.close()
        for fd in opened:
            os.close(fd)
    return bytes(out), bytes(err), limit


def _feed(sel: selectors.BaseSelector, fd: int, view: memoryview, opened: set[int]) -> memoryview:
    """The scenario into the child's stdin; closed once all is written (or the child stopped reading)."""
    try:
        view = view[os.write(fd, view[: 1 << 16]) :]
    except OSError:
        view = view[len(view) :]
    if not view:
        sel.unregister(fd)
        os.close(fd)
        opened.discard(fd)
    return view


def serve_warm(entry: str, req: dict[str, Any]) -> dict[str, Any]:
    """The entry called here, on this process's state: what a warm worker's call returns (warm_call.py, shared
    with it). The host enforces the deadline (it kills the server); prints go to stderr, as the server's fd 1
    is its stderr."""
    warm_call.quiet_prints()  # unbuffered into the server's stderr; no child inherits it now
    t0 = time.monotonic()
    try:
        scenario = json.loads(req["warm"])
    except BaseException:  # noqa: BLE001 - every failure is reported, the server survives
        output, err = None, warm_call.failure()
    else:
        output, err = warm_call.call(entry, scenario)
    out, rc = (output, 0) if output is not None else ("", 1)
    limit = "output" if len(out) > req["stdout_bytes"] else None
    return {
        "rc": rc,
        "limit": limit,
        "clean": limit is None,
        "wall_s": time.monotonic() - t0,
        "warm": True,
        "stdout": base64.b64encode(out.encode()).decode() if not limit else "",
        "stderr": base64.b64encode(err.encode()).decode(),
    }


def _rss() -> int:
    with open("/proc/self/status") as f:
        return next((int(ln.split()[1]) * 1024 for ln in f if ln.startswith("VmRSS:")), 0)


def main() -> None:
    cfg = json.loads(sys.argv[1])
    proto_in, proto_out = os.dup(0), os.dup(1)
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)  # the preload cannot read requests, nor write into the protocol
    os.close(null)
    os.dup2(2, 1)
    own = {proto_in, proto_out}
    reply = os.fdopen(proto_out, "w", encoding="utf-8")
    done, failed = preload(cfg["preload"])
    try:
        os.close(os.pidfd_open(os.getpid()))  # how the server waits for a child along with its pipes
    except (AttributeError, OSError) as e:
        reply.write(json.dumps({"ready": False, "why": f"no pidfd_open: {e}"}) + "\n")
        return
    if threads := unsafe_threads():  # fork copies one thread: a library's other threads would be missing
        reply.write(json.dumps({"ready": False, "why": f"threads after the preload: {', '.join(threads)}"}) + "\n")
        return
    gc.collect()
    gc.freeze()  # the imported objects stay in their pages: children copy fewer of them
    snaps = {root: manifest(root) for root in cfg["watch"] if os.path.isdir(root)}
    warm_call.send(reply, {"ready": True, "rss": _rss(), "preloaded": done, "failed": failed})
    requests = os.fdopen(proto_in, "r", encoding="utf-8")
    learned, warm = not cfg.get("learn", True), False
    for line in requests:
        req = json.loads(line)
        if "warm" in req or warm:
            if "warm" not in req:
                return  # a fresh child of a warm server would not be fresh
            warm = True
            warm_call.send(reply, serve_warm(cfg["entry"], req))
            continue
        res, names = serve_one(cfg, req, own, snaps, tell=not learned)
        if not learned and res["clean"] and res["rc"] == 0 and not res["limit"]:  # once, from a good child
            learned = True
            if why := learn(names):
                res["clean"], res["unlearnable"] = False, why
            snaps = {root: manifest(root) for root in cfg["watch"] if os.path.isdir(root)}
            res["rss"] = _rss()
        warm_call.send(reply, res)
        if not res["clean"]:
            return


if __name__ == "__main__":
    main()
