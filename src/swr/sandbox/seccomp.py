"""The seccomp filter every bubblewrap sandbox runs under: a deny list of kernel interfaces that are not
namespaced (keyrings, io_uring, kexec, bpf, perf, modules, mounts, ptrace) returning EPERM.

Classic BPF, written out here because the filter is a few dozen instructions and libseccomp's Python
binding is not on PyPI. Syscall numbers are the kernel's (arch/x86/entry/syscalls, asm-generic)."""
from __future__ import annotations

import errno
import hashlib
import json
import os
import platform
import struct
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

DENIED = (
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",  # other processes
    "keyctl", "add_key", "request_key",  # keyrings are per uid, not per namespace
    "io_uring_setup", "io_uring_enter", "io_uring_register",  # bypasses syscall filtering
    "bpf", "perf_event_open", "userfaultfd", "fanotify_init",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot",
    "mount", "umount2", "pivot_root", "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick",
    "mount_setattr", "unshare", "setns", "name_to_handle_at", "open_by_handle_at",
    "syslog", "acct", "swapon", "swapoff", "quotactl", "quotactl_fd", "lookup_dcookie", "nfsservctl",
    "settimeofday", "clock_settime", "adjtimex", "clock_adjtime", "sethostname", "setdomainname", "vhangup",
)

_X86_64 = {
    "ptrace": 101, "syslog": 103, "vhangup": 153, "pivot_root": 155, "adjtimex": 159, "acct": 163,
    "settimeofday": 164, "mount": 165, "umount2": 166, "swapon": 167, "swapoff": 168, "reboot": 169,
    "sethostname": 170, "setdomainname": 171, "init_module": 175, "delete_module": 176, "quotactl": 179,
    "nfsservctl": 180, "lookup_dcookie": 212, "clock_settime": 227, "kexec_load": 246, "add_key": 248,
    "request_key": 249, "keyctl": 250, "unshare": 272, "perf_event_open": 298, "fanotify_init": 300,
    "name_to_handle_at": 303, "open_by_handle_at": 304, "clock_adjtime": 305, "setns": 308,
    "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "finit_module": 313, "kexec_file_load": 320,
    "bpf": 321, "userfaultfd": 323,
}
_GENERIC = {  # aarch64 and riscv64 use the asm-generic table
    "lookup_dcookie": 18, "umount2": 39, "mount": 40, "pivot_root": 41, "nfsservctl": 42, "vhangup": 58,
    "quotactl": 60, "acct": 89, "unshare": 97, "kexec_load": 104, "init_module": 105, "delete_module": 106,
    "clock_settime": 112, "syslog": 116, "ptrace": 117, "reboot": 142, "sethostname": 161,
    "setdomainname": 162, "settimeofday": 170, "adjtimex": 171, "add_key": 217, "request_key": 218,
    "keyctl": 219, "swapon": 224, "swapoff": 225, "perf_event_open": 241, "fanotify_init": 262,
    "name_to_handle_at": 264, "open_by_handle_at": 265, "clock_adjtime": 266, "setns": 268,
    "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272, "finit_module": 273, "bpf": 280,
    "userfaultfd": 282, "kexec_file_load": 294,
}
_COMMON = {  # numbered alike on every architecture since 5.1
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428, "move_mount": 429,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_getfd": 438, "mount_setattr": 442,
    "quotactl_fd": 443,
}
# AUDIT_ARCH_* values, and syscall-number bits that select another ABI (x32) to refuse whole.
ARCHES = {"x86_64": (0xC000003E, _X86_64, 0x40000000), "aarch64": (0xC00000B7, _GENERIC, 0),
          "riscv64": (0xC00000F3, _GENERIC, 0)}

# Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
LD_W_ABS, JEQ_K, JSET_K, RET_K = 0x20, 0x15, 0x45, 0x06
RET_ALLOW, RET_ERRNO, RET_KILL_PROCESS = 0x7FFF0000, 0x00050000, 0x80000000


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


@lru_cache(maxsize=1)
def program(machine: str | None = None) -> bytes:
    """The filter for this machine: another architecture's calls kill the process, denied ones give EPERM."""
    arch, table, abi_bits = ARCHES[machine or platform.machine()]
    numbers = sorted({({**table, **_COMMON})[name] for name in DENIED})
    deny = _insn(RET_K, RET_ERRNO | errno.EPERM)
    body = [_insn(LD_W_ABS, 4), _insn(JEQ_K, arch, jt=1), _insn(RET_K, RET_KILL_PROCESS), _insn(LD_W_ABS, 0)]
    checks = [_insn(JSET_K, abi_bits, jt=len(numbers) + 1)] if abi_bits else []
    checks += [_insn(JEQ_K, nr, jt=len(numbers) - i) for i, nr in enumerate(numbers)]
    return b"".join(body + checks + [_insn(RET_K, RET_ALLOW), deny])


def supported() -> bool:
    return platform.machine() in ARCHES


def memfd() -> int:
    """A sealed-in-practice memfd holding the program; bubblewrap reads it from `--seccomp FD`, and every
    open of /proc/PID/fd/N starts at offset 0, so one serves every run."""
    fd = os.memfd_create("swr-seccomp", os.MFD_CLOEXEC)
    os.write(fd, program())
    return fd


CONTAINERS_PROFILE = Path("/usr/share/containers/seccomp.json")  # podman's default, from containers-common


def oci_profile(base: dict[str, Any] | None = None) -> dict[str, Any]:
    """The same deny list for podman/docker: their default profile (an allow list) with every denied
    call taken out of its allow rules, or, without one, allow-by-default minus the deny list."""
    denied = set(DENIED)
    if base is None:
        return {"defaultAction": "SCMP_ACT_ALLOW",
                "syscalls": [{"names": sorted(denied), "action": "SCMP_ACT_ERRNO", "errnoRet": errno.EPERM}]}
    rules = []
    for rule in base.get("syscalls", []):
        names = rule.get("names", [])
        if rule.get("action") == "SCMP_ACT_ALLOW":
            names = [n for n in names if n not in denied]
        if names:
            rules.append({**rule, "names": names})
    return {**base, "syscalls": rules}


@lru_cache(maxsize=1)
def oci_profile_file() -> str:
    """The profile written once per content (its hash names it) for `--security-opt seccomp=PATH`."""
    base = json.loads(CONTAINERS_PROFILE.read_text()) if CONTAINERS_PROFILE.is_file() else None
    data = json.dumps(oci_profile(base), sort_keys=True).encode()
    path = Path(tempfile.gettempdir()) / f"swr-seccomp-{hashlib.sha256(data).hexdigest()[:16]}.json"
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.chmod(0o644)
        os.replace(tmp, path)
    return str(path)
