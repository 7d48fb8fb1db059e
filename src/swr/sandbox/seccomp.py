"""The seccomp filter every sandbox runs under, the same rules on every backend:

- kernel interfaces that are not namespaced (keyrings, io_uring, kexec, bpf, perf, modules, mounts,
  ptrace, namespaces) return EPERM;
- no new namespace of any kind: `clone` with a CLONE_NEW* flag returns EPERM, `clone3` (whose flags sit
  in memory a filter cannot read) returns ENOSYS, which makes glibc fall back to `clone`; `unshare` and
  `setns` are in the deny list. Inside a new user namespace a process holds every capability there
  (nf_tables, mounts): the sandbox never needs one;
- sockets of the families AF_UNIX, AF_INET and AF_INET6 only (`socket` and `socketpair`), else
  EAFNOSUPPORT: vsock reaches the hypervisor, packet, alg, xdp... sockets parts of the kernel no sandbox
  needs. One exception: netlink's NETLINK_ROUTE protocol (`socket` only), which getifaddrs(3) needs
  (Node's os.networkInterfaces() throws without it, and dev servers call it). In the sandbox's own
  network namespace, with no capability and no way to get one, it reads that namespace's loopback and
  changes nothing; every other netlink protocol (netfilter, uevents, audit, sock_diag...) is refused;
- another architecture's system calls (i386 via `int 0x80`, x32, arm) kill the process.

One table, `rules()`, holds them, in libseccomp's terms (the OCI profile's too), and has two renderings:
bubblewrap takes classic BPF (`program()`, through a memfd: `memfd()`), compiled by libseccomp
(libseccomp.so.2, which Debian's apt itself depends on, through pyseccomp, a ctypes binding);
podman and docker an OCI profile (`oci_profile()`), which their runtime compiles with libseccomp too,
handed to their client as /proc/PID/fd/N of a sealed memfd (`oci_profile_path()`), so that no file
anyone else could plant or change stands in for it.

Why libseccomp rather than the hand-assembled BPF this module held before (issue 24): the next filters
need more argument checks, which libseccomp compiles from declarations (syscall numbers per architecture,
64-bit arguments split into words, jump offsets), where hand-written BPF gets each of them by hand.
tests/test_sandbox_seccomp.py runs both programs, the old one frozen in tests/fixtures/seccomp/, through a
classic-BPF interpreter on a grid of (architecture, syscall, arguments): they decide every point alike but
x32 calls (bit 30 of the number on x86_64), which the old program refused with EPERM and libseccomp, for
which x32 is another architecture, kills like i386 (as podman's runtime did already). The cost: a longer
program (about 370 instructions against 80), the same path for most calls (59 instructions for read) but
longer for socket (about 200 against 63) and clone (81 against 58): checks that run once per socket or
process, not per read; and two dependencies: pyseccomp (one release, 2021: some 500 lines of ctypes over
libseccomp's stable C API, which is why its age matters little) and the host's libseccomp, whose own
syscall tables resolve the names (one too old to know a name of the table fails loudly, never silently;
Debian 12 has 2.5.4)."""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import platform
import threading
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from swr.core.errors import SandboxUnavailable

DENIED = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "pidfd_getfd",  # other processes
    "keyctl",
    "add_key",
    "request_key",  # keyrings are per uid, not per namespace
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",  # bypasses syscall filtering
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "fanotify_init",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "mount",
    "umount2",
    "pivot_root",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    "unshare",
    "setns",
    "name_to_handle_at",
    "open_by_handle_at",
    "syslog",
    "acct",
    "swapon",
    "swapoff",
    "quotactl",
    "quotactl_fd",
    "lookup_dcookie",
    "nfsservctl",
    "settimeofday",
    "clock_settime",
    "adjtimex",
    "clock_adjtime",
    "sethostname",
    "setdomainname",
    "vhangup",
)
# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET (linux/sched.h). CLONE_NEWTIME (0x80) is
# only read by clone3 and unshare: in clone's flags those bits are the exit signal.
NEW_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
SOCKET_FAMILIES = (1, 2, 10)  # AF_UNIX, AF_INET, AF_INET6
AF_NETLINK, NETLINK_ROUTE = 16, 0
AF_LIMIT = 64  # above every address family number (AF_MAX is 46 in Linux 6.x)
ARCHES = {"x86_64": "SCMP_ARCH_X86_64", "aarch64": "SCMP_ARCH_AARCH64", "riscv64": "SCMP_ARCH_RISCV64"}
LOW32 = 0xFFFFFFFF


@dataclass(frozen=True)
class Arg:
    """A comparison of argument `index`, in libseccomp's terms (and the OCI profile's): op is EQ, NE or
    MASKED_EQ, which compares (argument & value) with value_two. All 64 bits are compared: an `int`
    argument (a socket family, clone's flags) is read on its low 32 bits by a mask."""

    index: int
    op: str
    value: int
    value_two: int = 0


@dataclass(frozen=True)
class Rule:
    """Calls `names` whose arguments pass every comparison of `args` are allowed (errno None) or return
    errno. Rules for one call that match the same arguments agree (tests/test_sandbox_seccomp.py checks),
    so their order does not matter and the allowing ones are what a filter that allows by default does
    anyway."""

    names: tuple[str, ...]
    errno: int | None
    args: tuple[Arg, ...] = ()


def _low32(value: int, index: int = 0) -> Arg:
    """The argument's low 32 bits equal value: what the kernel reads of an int argument."""
    return Arg(index, "MASKED_EQ", LOW32, value)


def _bit(bit: int) -> Arg:
    """Argument 0 has this bit set."""
    return Arg(0, "MASKED_EQ", bit, bit)


@cache
def rules() -> tuple[Rule, ...]:
    """The module docstring's rules. libseccomp keeps one comparison per argument in a rule and has no
    masked "not equal"; so socket families are matched on their low 32 bits one rule each, allowed or
    refused, families from AF_LIMIT up by any of their bits 6 to 31 (the kernel refuses those from AF_MAX
    up itself), and clone's CLONE_NEW* bits one refusing rule each."""
    both = ("socket", "socketpair")
    ns_bits = [1 << i for i in range(32) if NEW_NAMESPACES >> i & 1]
    above = [1 << i for i in range(AF_LIMIT.bit_length() - 1, 32)]
    return (
        Rule(tuple(sorted(DENIED)), errno.EPERM),
        Rule(("clone",), None, (Arg(0, "MASKED_EQ", NEW_NAMESPACES, 0),)),
        *(Rule(("clone",), errno.EPERM, (_bit(bit),)) for bit in ns_bits),
        Rule(("clone3",), errno.ENOSYS),
        *(Rule(both, None, (_low32(f),)) for f in SOCKET_FAMILIES),
        *(
            Rule(both, errno.EAFNOSUPPORT, (_low32(f),))
            for f in range(AF_LIMIT)
            if f not in (*SOCKET_FAMILIES, AF_NETLINK)
        ),
        *(Rule(both, errno.EAFNOSUPPORT, (_bit(bit),)) for bit in above),
        Rule(("socketpair",), errno.EAFNOSUPPORT, (_low32(AF_NETLINK),)),
        Rule(("socket",), None, (_low32(AF_NETLINK), Arg(2, "EQ", NETLINK_ROUTE))),
        Rule(("socket",), errno.EAFNOSUPPORT, (_low32(AF_NETLINK), Arg(2, "NE", NETLINK_ROUTE))),
    )


def _libseccomp() -> Any:
    """pyseccomp, which finds libseccomp.so.2 when imported (and raises when it cannot)."""
    try:
        import pyseccomp
    except (ImportError, RuntimeError, OSError) as e:
        raise SandboxUnavailable(f"the seccomp filter needs libseccomp (apt-get install libseccomp2): {e}") from e
    return pyseccomp


@cache
def program(machine: str | None = None) -> bytes:
    """The filter for this machine (or `machine`), compiled by libseccomp from rules(): allow by default,
    the refusing rules' errnos, and another architecture's calls (x32 included) kill the process."""
    sc = _libseccomp()
    arch = getattr(sc.Arch, ARCHES[machine or platform.machine()].removeprefix("SCMP_ARCH_"))
    filt = sc.SyscallFilter(sc.ALLOW)
    if arch != sc.system_arch():
        filt.add_arch(arch)
        filt.remove_arch(sc.Arch.NATIVE)
    filt.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)
    for rule in rules():
        if rule.errno is None:
            continue  # allowed by default
        args = [sc.Arg(a.index, getattr(sc, a.op), a.value, a.value_two) for a in rule.args]
        for name in rule.names:
            filt.add_rule(sc.ERRNO(rule.errno), name, *args)
    with os.fdopen(os.memfd_create("swr-seccomp-bpf", os.MFD_CLOEXEC), "w+b") as out:
        filt.export_bpf(out)
        out.seek(0)
        return out.read()


def supported() -> bool:
    return platform.machine() in ARCHES


SEALS = fcntl.F_SEAL_SEAL | fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE


def _sealed_memfd(name: str, data: bytes) -> int:
    """A memfd holding data that nobody, this process included, can change any more."""
    fd = os.memfd_create(name, os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    fcntl.fcntl(fd, fcntl.F_ADD_SEALS, SEALS)
    return fd


def memfd() -> int:
    """A sealed memfd holding the program; bubblewrap reads it from `--seccomp FD`, and every open of
    /proc/PID/fd/N starts at offset 0, so one serves every run."""
    return _sealed_memfd("swr-seccomp", program())


# ------------------------------------------------------------------------------------ podman, docker

CONTAINERS_PROFILE = Path("/usr/share/containers/seccomp.json")  # podman's default, from containers-common
RULED = frozenset(name for rule in rules() for name in rule.names)  # what oci_rules() alone decides


def oci_rules() -> list[dict[str, Any]]:
    """rules() in OCI form. An allow-list profile returns its default errno for what no rule allows: the
    allowing rules let through what bubblewrap's filter allows by default, the refusing ones give its
    errnos."""

    def arg(a: Arg) -> dict[str, Any]:
        return {"index": a.index, "value": a.value, "valueTwo": a.value_two, "op": f"SCMP_CMP_{a.op}"}

    out = []
    for rule in rules():
        action = (
            {"action": "SCMP_ACT_ALLOW"} if rule.errno is None else {"action": "SCMP_ACT_ERRNO", "errnoRet": rule.errno}
        )
        out.append({"names": list(rule.names), **action} | ({"args": [arg(a) for a in rule.args]} if rule.args else {}))
    return out


def oci_profile(base: dict[str, Any] | None = None, machine: str | None = None) -> dict[str, Any]:
    """The profile for podman/docker: their default one (an allow list; `base`) with every call that
    oci_rules() decides taken out of its own rules and those rules added, or, without one, allow by
    default and oci_rules(). Only the native architecture: the default profile also admits i386 and
    x32, whose socketcall(2) would carry any socket family past an argument check."""
    scmp_arch = ARCHES[machine or platform.machine()]
    kept = []
    for rule in (base or {}).get("syscalls", []):
        names = [n for n in rule.get("names", [rule.get("name")]) if n and n not in RULED]
        if names:
            kept.append({k: v for k, v in rule.items() if k != "name"} | {"names": names})
    head = (
        {k: v for k, v in base.items() if k not in ("syscalls", "archMap", "architectures")}
        if base
        else {"defaultAction": "SCMP_ACT_ALLOW"}
    )
    return {**head, "architectures": [scmp_arch], "syscalls": kept + oci_rules()}


@cache
def oci_profile_bytes() -> bytes:
    base = json.loads(CONTAINERS_PROFILE.read_text()) if CONTAINERS_PROFILE.is_file() else None
    return json.dumps(oci_profile(base), sort_keys=True).encode()


_OCI_NAME = "swr-seccomp-oci"
_oci_lock = threading.Lock()
_oci_fd: int | None = None  # inherited by a forked child, which names it by its own pid


def _reset_lock() -> None:
    """A child forked while another thread held the lock would wait on it for ever."""
    global _oci_lock
    _oci_lock = threading.Lock()


os.register_at_fork(after_in_child=_reset_lock)


def _intact(fd: int, digest: str) -> bool:
    """fd is still this process's sealed memfd holding the profile (not closed, nor its number reused)."""
    try:
        if not os.readlink(f"/proc/self/fd/{fd}").startswith(f"/memfd:{_OCI_NAME} "):
            return False
        st = os.fstat(fd)
        return (
            fcntl.fcntl(fd, fcntl.F_GET_SEALS) == SEALS
            and st.st_uid == os.geteuid()
            and hashlib.sha256(os.pread(fd, st.st_size + 1, 0)).hexdigest() == digest
        )
    except OSError:
        return False


def oci_profile_path() -> str:
    """`--security-opt seccomp=` this: /proc/PID/fd/N of a sealed memfd holding the profile. The client
    (podman, docker) reads the file itself, as this process's uid; a memfd has no name in any directory
    another user could write to, its seals keep anyone from changing it, and it is checked before
    every use (a new one when the descriptor was closed or its number reused)."""
    global _oci_fd
    data = oci_profile_bytes()
    digest = hashlib.sha256(data).hexdigest()
    with _oci_lock:
        if _oci_fd is None or not _intact(_oci_fd, digest):
            _oci_fd = _sealed_memfd(_OCI_NAME, data)
        return f"/proc/{os.getpid()}/fd/{_oci_fd}"
