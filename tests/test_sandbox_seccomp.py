"""The seccomp filter as data: the classic-BPF program bubblewrap loads (compiled by libseccomp from the
module's rule table), run instruction by instruction by a small interpreter over a table of (syscall,
arguments) -> expected action, on x86_64, aarch64 and riscv64; against the rule table itself and against
the hand-assembled program it replaced (frozen in fixtures/seccomp/) on a grid of points; and the OCI
profile podman gets. What the kernel does with them, on both backends, is tested in
test_sandbox_hostile.py (test_no_new_namespace_and_no_socket_family_but_unix_and_inet)."""

from __future__ import annotations

import errno
import json
import struct
import sys
from pathlib import Path

import pytest

from swr.sandbox import seccomp

ALLOW, KILL = 0x7FFF0000, 0x80000000
EPERM, ENOSYS, EAFNOSUPPORT = (0x00050000 | e for e in (errno.EPERM, errno.ENOSYS, errno.EAFNOSUPPORT))
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7, "riscv64": 0xC00000F3, "i386": 0x40000003, "arm": 0x40000028}
MACHINES = ("x86_64", "aarch64", "riscv64")
# Numbers typed in from the kernel's tables (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/
# asm-generic/unistd.h), not read from the module under test: read, write, unshare, clone, clone3,
# socket, socketpair, keyctl, setns, and a few neighbours of the checked ones.
NR = {
    "x86_64": {
        "read": 0,
        "write": 1,
        "unshare": 272,
        "clone": 56,
        "fork": 57,
        "clone3": 435,
        "socket": 41,
        "connect": 42,
        "socketpair": 53,
        "keyctl": 250,
        "setns": 308,
    },
    "aarch64": {
        "read": 63,
        "write": 64,
        "unshare": 97,
        "clone": 220,
        "clone3": 435,
        "socket": 198,
        "socketpair": 199,
        "bind": 200,
        "keyctl": 219,
        "setns": 268,
    },
}
NR["riscv64"] = NR["aarch64"]
# The kernel's numbers of every call the filter names (the module holds only names, which libseccomp
# resolves): arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h (aarch64, riscv64).
X86_64 = {
    "ptrace": 101,
    "syslog": 103,
    "vhangup": 153,
    "pivot_root": 155,
    "adjtimex": 159,
    "acct": 163,
    "settimeofday": 164,
    "mount": 165,
    "umount2": 166,
    "swapon": 167,
    "swapoff": 168,
    "reboot": 169,
    "sethostname": 170,
    "setdomainname": 171,
    "init_module": 175,
    "delete_module": 176,
    "quotactl": 179,
    "nfsservctl": 180,
    "lookup_dcookie": 212,
    "clock_settime": 227,
    "kexec_load": 246,
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    "unshare": 272,
    "perf_event_open": 298,
    "fanotify_init": 300,
    "name_to_handle_at": 303,
    "open_by_handle_at": 304,
    "clock_adjtime": 305,
    "setns": 308,
    "process_vm_readv": 310,
    "process_vm_writev": 311,
    "kcmp": 312,
    "finit_module": 313,
    "kexec_file_load": 320,
    "bpf": 321,
    "userfaultfd": 323,
    "socket": 41,
    "socketpair": 53,
    "clone": 56,
}
GENERIC = {
    "lookup_dcookie": 18,
    "umount2": 39,
    "mount": 40,
    "pivot_root": 41,
    "nfsservctl": 42,
    "vhangup": 58,
    "quotactl": 60,
    "acct": 89,
    "unshare": 97,
    "kexec_load": 104,
    "init_module": 105,
    "delete_module": 106,
    "clock_settime": 112,
    "syslog": 116,
    "ptrace": 117,
    "reboot": 142,
    "sethostname": 161,
    "setdomainname": 162,
    "settimeofday": 170,
    "adjtimex": 171,
    "add_key": 217,
    "request_key": 218,
    "keyctl": 219,
    "swapon": 224,
    "swapoff": 225,
    "perf_event_open": 241,
    "fanotify_init": 262,
    "name_to_handle_at": 264,
    "open_by_handle_at": 265,
    "clock_adjtime": 266,
    "setns": 268,
    "process_vm_readv": 270,
    "process_vm_writev": 271,
    "kcmp": 272,
    "finit_module": 273,
    "bpf": 280,
    "userfaultfd": 282,
    "kexec_file_load": 294,
    "socket": 198,
    "socketpair": 199,
    "clone": 220,
}
COMMON = {  # numbered alike on every architecture since 5.1
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "clone3": 435,
    "pidfd_getfd": 438,
    "mount_setattr": 442,
    "quotactl_fd": 443,
}
KERNEL_NR = {"x86_64": X86_64 | COMMON, "aarch64": GENERIC | COMMON, "riscv64": GENERIC | COMMON}

NEW_NS = {
    "newns": 0x20000,
    "newcgroup": 0x2000000,
    "newuts": 0x4000000,
    "newipc": 0x8000000,
    "newuser": 0x10000000,
    "newpid": 0x20000000,
    "newnet": 0x40000000,
}
THREAD = 0x3D0F00  # what glibc's pthread_create passes: CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|...
SIGCHLD, HIGH = 17, 1 << 40


def run_bpf(prog: bytes, data: bytes) -> int:
    """Classic BPF as the kernel's seccomp runs it, for the instructions a filter may use here (absolute
    word loads, AND with a constant, jumps on constants, returns); anything else fails the test."""
    insns = [struct.unpack_from("=HBBI", prog, i) for i in range(0, len(prog), 8)]
    assert len(prog) % 8 == 0 and 0 < len(insns) <= 4096
    pc, acc = 0, 0
    while True:
        code, jt, jf, k = insns[pc]
        pc += 1
        if code == 0x20:  # BPF_LD | BPF_W | BPF_ABS
            assert k % 4 == 0 and k + 4 <= len(data), k
            acc = struct.unpack_from("=I", data, k)[0]
        elif code == 0x06:  # BPF_RET | BPF_K
            return k
        elif code == 0x54:  # BPF_ALU | BPF_AND | BPF_K
            acc &= k
        elif code in (0x15, 0x25, 0x35, 0x45):  # BPF_JMP | JEQ, JGT, JGE, JSET, with BPF_K
            taken = {0x15: acc == k, 0x25: acc > k, 0x35: acc >= k, 0x45: acc & k != 0}[code]
            pc += jt if taken else jf
        else:
            raise AssertionError(f"unexpected BPF opcode {code:#x} at {pc - 1}")
        assert pc < len(insns), "ran off the end of the program"


def seccomp_data(nr: int, arch: int, *args: int) -> bytes:
    """struct seccomp_data: int nr, u32 arch, u64 instruction_pointer, u64 args[6] (little-endian)."""
    full = [*args, 0, 0, 0, 0, 0, 0][:6]
    return struct.pack("<iIQ6Q", nr, arch, 0x400000, *(a & (1 << 64) - 1 for a in full))


def table(machine: str) -> list[tuple[str, int, tuple[int, ...], int]]:
    """(what, syscall number, arguments, expected return) on one architecture."""
    n = NR[machine]
    rows = [
        ("read", n["read"], (0, 0, 10), ALLOW),
        ("write", n["write"], (1, 0, 10), ALLOW),
        ("keyctl", n["keyctl"], (0,), EPERM),
        ("setns", n["setns"], (3, 0), EPERM),
        ("unshare(NEWUSER)", n["unshare"], (NEW_NS["newuser"],), EPERM),
        ("unshare(0)", n["unshare"], (0,), EPERM),
        ("fork-like clone", n["clone"], (SIGCHLD,), ALLOW),
        ("thread clone", n["clone"], (THREAD,), ALLOW),
        ("clone, junk above bit 31", n["clone"], (SIGCHLD | HIGH,), ALLOW),
        ("clone(NEWUSER), junk above bit 31", n["clone"], (NEW_NS["newuser"] | SIGCHLD | HIGH,), EPERM),
        ("clone3", n["clone3"], (0, 88), ENOSYS),
        ("socket(AF_INET), junk above bit 31", n["socket"], (2 | HIGH, 1, 0), ALLOW),
        ("socket(AF_VSOCK), junk above bit 31", n["socket"], (40 | HIGH, 1, 0), EAFNOSUPPORT),
        ("socket(-1)", n["socket"], ((1 << 64) - 1, 1, 0), EAFNOSUPPORT),
    ]
    rows += [(f"clone({name})", n["clone"], (flag | SIGCHLD,), EPERM) for name, flag in NEW_NS.items()]
    rows += [(f"clone(THREAD|{name})", n["clone"], (flag | THREAD,), EPERM) for name, flag in NEW_NS.items()]
    for call, allowed in (("socket", (1, 2, 10, 16)), ("socketpair", (1, 2, 10))):
        rows += [
            (f"{call}({fam})", n[call], (fam, 1, 0), ALLOW if fam in allowed else EAFNOSUPPORT) for fam in range(64)
        ]
    # netlink: NETLINK_ROUTE (0) alone, the protocol read on all 64 bits
    rows += [
        (f"socket(AF_NETLINK, {proto:#x})", n["socket"], (16, 3, proto), EAFNOSUPPORT)
        for proto in (4, 9, 12, 15, 16, HIGH, (1 << 64) - 1)
    ]
    rows += [("socket(AF_NETLINK | junk, NETLINK_ROUTE)", n["socket"], (16 | HIGH, 3, 0), ALLOW)]
    return rows


@pytest.mark.parametrize("machine", MACHINES)
def test_bpf_program_decides_each_call_as_the_table_says(machine):
    prog, arch = seccomp.program(machine), AUDIT_ARCH[machine]
    wrong = [
        (what, hex(got), hex(want))
        for what, nr, args, want in table(machine)
        if (got := run_bpf(prog, seccomp_data(nr, arch, *args))) != want
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("machine", MACHINES)
def test_bpf_program_refuses_every_call_of_the_deny_list(machine):
    prog, numbers = seccomp.program(machine), KERNEL_NR[machine]
    assert all(numbers[name] == NR[machine][name] for name in NR[machine] if name in numbers)
    wrong = [
        name
        for name in seccomp.DENIED
        if run_bpf(prog, seccomp_data(numbers[name], AUDIT_ARCH[machine], 0, 0)) != EPERM
    ]
    assert not wrong, wrong
    # and nothing else: every other number below 512 passes, whatever its arguments
    others = set(range(512)) - set(numbers.values())
    wrong = [nr for nr in others if run_bpf(prog, seccomp_data(nr, AUDIT_ARCH[machine], *[0x7FFFFFFF] * 6)) != ALLOW]
    assert not wrong, wrong


@pytest.mark.parametrize("machine", MACHINES)
def test_bpf_program_kills_other_abis(machine):
    prog = seccomp.program(machine)
    socket_nr = NR[machine]["socket"]
    for foreign in ("i386", "arm", "aarch64" if machine == "x86_64" else "x86_64"):
        assert run_bpf(prog, seccomp_data(socket_nr, AUDIT_ARCH[foreign], 40)) == KILL, foreign
        assert run_bpf(prog, seccomp_data(0, AUDIT_ARCH[foreign])) == KILL, foreign
    if machine == "x86_64":  # the x32 ABI: the same arch, bit 30 in the number
        for nr in (0, 41, 56, 0x40000000 + 41):
            assert run_bpf(prog, seccomp_data(0x40000000 | nr, AUDIT_ARCH["x86_64"], 2)) == KILL


# ------------------------------------------------------------------ the rule table, and the program it replaced

X32, LOW32, ALL = 0x40000000, 0xFFFFFFFF, (1 << 64) - 1
WORDS = (0, 1, LOW32 >> 1, LOW32, HIGH, ALL)


def grid(machine: str) -> list[tuple[int, int, tuple[int, ...]]]:
    """(arch, nr, args): every number below 512 and the common ones above with a few argument patterns,
    clone with each of its 64 flag bits alone, with SIGCHLD, a thread's flags or junk above bit 31, every
    socket family below 64 and a few above (with and without junk), netlink protocols 0..31, other ABIs."""
    arch, n = AUDIT_ARCH[machine], KERNEL_NR[machine]
    points = [(arch, nr, (w,) * 6) for nr in (*range(512), *COMMON.values(), 450) for w in (0, LOW32 >> 1, ALL)]
    flags = [0, SIGCHLD, THREAD, HIGH, *(1 << b for b in range(64))]
    points += [
        (arch, n[call], (f | extra, 0))
        for call in ("clone", "clone3")
        for f in flags
        for extra in (0, SIGCHLD, THREAD, HIGH)
    ]
    families = [*range(64), 64, 65, 100, 255, 1 << 16, 1 << 31, LOW32, ALL]
    points += [
        (arch, n[call], (f | junk, 1, proto))
        for call in ("socket", "socketpair")
        for f in families
        for junk in (0, HIGH)
        for proto in (0, 4)
    ]
    points += [
        (arch, n[call], (16 | junk, 3, proto))
        for call in ("socket", "socketpair")
        for junk in (0, HIGH)
        for proto in (*range(32), 1 << 32, LOW32, ALL)
    ]
    foreign = [AUDIT_ARCH[a] for a in ("i386", "arm", "x86_64", "aarch64", "riscv64") if a != machine]
    points += [(a, nr, (w,) * 6) for a in foreign for nr in (0, 41, 56, 102, 198, 220, 359, 435) for w in WORDS]
    if machine == "x86_64":
        points += [(arch, X32 | nr, (w,) * 6) for nr in (0, 1, 41, 53, 56, 101, 250, 435, 511) for w in WORDS]
    return points


def handwritten(machine: str) -> bytes:
    """The hand-assembled program libseccomp's replaced, as frozen in fixtures/seccomp/."""
    text = (Path(__file__).parent / "fixtures" / "seccomp" / f"handwritten-{machine}.bpf.txt").read_text()
    rows = [line.split() for line in text.splitlines() if line and not line.startswith("#")]
    return b"".join(struct.pack("=HBBI", *(int(f, 16) for f in row)) for row in rows)


def matches(rule: seccomp.Rule, args: tuple[int, ...]) -> bool:
    def one(a: seccomp.Arg) -> bool:
        x = args[a.index] if a.index < len(args) else 0
        return {"EQ": x == a.value, "NE": x != a.value, "MASKED_EQ": x & a.value == a.value_two}[a.op]

    return all(one(a) for a in rule.args)


@pytest.mark.parametrize("machine", MACHINES)
def test_libseccomp_program_decides_as_the_handwritten_one_but_x32(machine):
    """The differential test of the switch to libseccomp: on every point of the grid both programs give
    the same action, but x32 calls, which the old program refused with EPERM and libseccomp kills."""
    new, old = seccomp.program(machine), handwritten(machine)
    differ = {}
    for arch, nr, args in grid(machine):
        data = seccomp_data(nr, arch, *args)
        if (got := run_bpf(new, data)) != (was := run_bpf(old, data)):
            differ[(hex(arch), hex(nr), args)] = (hex(was), hex(got))
    x32 = {k: v for k, v in differ.items() if machine == "x86_64" and int(k[1], 16) & X32}
    assert differ == x32, {k: differ[k] for k in list(set(differ) - set(x32))[:20]}
    assert set(x32.values()) <= {(hex(EPERM), hex(KILL))} and (machine != "x86_64" or len(x32) == 54)


@pytest.mark.parametrize("machine", MACHINES)
def test_program_decides_as_the_rule_table_says_and_rules_never_conflict(machine):
    """For every native point of the grid the rules of the table that match agree (so neither their order
    nor the allowing rules, which the program leaves to its default, change anything), and the program
    returns their errno, or allows."""
    prog, arch = seccomp.program(machine), AUDIT_ARCH[machine]
    by_nr = {KERNEL_NR[machine][name]: name for name in seccomp.RULED}
    wrong, overlaps = [], []
    for a, nr, args in grid(machine):
        if a != arch or nr & X32:
            continue
        hit = [r for r in seccomp.rules() if by_nr.get(nr) in r.names and matches(r, args)]
        overlaps += [(nr, args, hit)] if len({r.errno for r in hit}) > 1 else []
        want = ALLOW if not hit or hit[0].errno is None else 0x00050000 | hit[0].errno
        if (got := run_bpf(prog, seccomp_data(nr, arch, *args))) != want:
            wrong.append((nr, args, hex(got), hex(want)))
    assert not overlaps and not wrong, (overlaps[:5], wrong[:5])


def test_rule_table_decides_every_socket_family_and_clone_flag():
    """The table, whatever renders it: every family number of 32 bits is decided by a rule (allowed or
    refused; those from 64 up by each of their bits) for both socket calls, and every CLONE_NEW* bit by a
    refusing one."""
    for call in ("socket", "socketpair"):
        for fam in (*range(200), 1 << 20, 0xFFFFFFFF):
            hit = [r for r in seccomp.rules() if call in r.names and matches(r, (fam, 1, 0))]
            assert len(hit) == 1 or (fam >= 64 and {r.errno for r in hit} == {errno.EAFNOSUPPORT}), (call, fam)
    refusing = [r for r in seccomp.rules() if "clone" in r.names and r.errno == errno.EPERM]
    assert sorted(r.args[0].value for r in refusing) == sorted(NEW_NS.values())


def test_oci_profile_keeps_no_rule_of_its_base_for_the_calls_it_decides():
    """podman's default profile allows clone, clone3, socket and unshare outright, and admits i386 and
    x32: none of that may survive into the profile the sandbox uses."""
    base = {
        "defaultAction": "SCMP_ACT_ERRNO",
        "defaultErrnoRet": 38,
        "archMap": [{"architecture": "SCMP_ARCH_X86_64", "subArchitectures": ["SCMP_ARCH_X86", "SCMP_ARCH_X32"]}],
        "syscalls": [
            {
                "names": ["read", "clone", "clone3", "socket", "socketpair", "unshare", "socketcall"],
                "action": "SCMP_ACT_ALLOW",
            },
            {"names": ["socket"], "action": "SCMP_ACT_ALLOW", "args": [{"index": 2, "value": 9, "op": "SCMP_CMP_NE"}]},
            {"name": "keyctl", "action": "SCMP_ACT_ALLOW"},
        ],
    }
    prof = seccomp.oci_profile(base, "x86_64")
    assert prof["architectures"] == ["SCMP_ARCH_X86_64"] and "archMap" not in prof
    assert prof["defaultAction"] == "SCMP_ACT_ERRNO" and prof["defaultErrnoRet"] == 38
    ours = seccomp.oci_rules()
    decided = {"clone", "clone3", "socket", "socketpair", *seccomp.DENIED}
    foreign = [r for r in prof["syscalls"] if set(r["names"]) & decided and r not in ours]
    assert not foreign, foreign
    assert {"names": ["read", "socketcall"], "action": "SCMP_ACT_ALLOW"} in prof["syscalls"]
    # every family but unix/inet/inet6 refused by its own rule, on its low 32 bits, those from 64 up by any
    # of their bits 6 to 31; netlink route alone
    for call, _alone in (("socket", {1, 2, 10}), ("socketpair", {1, 2, 10, 16})):
        rules = [r for r in ours if call in r["names"]]
        assert all(r["args"][0]["op"] == "SCMP_CMP_MASKED_EQ" for r in rules)
        above = [r for r in rules if r["args"][0]["value"] != 0xFFFFFFFF]
        assert sorted(r["args"][0]["value"] for r in above) == [1 << b for b in range(6, 32)]
        assert all(
            r["args"][0]["valueTwo"] == r["args"][0]["value"]
            and r["errnoRet"] == errno.EAFNOSUPPORT
            and len(r["args"]) == 1
            for r in above
        )
        by_family = [r for r in rules if len(r["args"]) == 1 and r not in above]  # decided on the family alone
        assert {r["args"][0]["valueTwo"] for r in by_family if r["action"] == "SCMP_ACT_ALLOW"} == {1, 2, 10}
        assert {r["args"][0]["valueTwo"] for r in by_family if r["action"] == "SCMP_ACT_ERRNO"} == (
            set(range(64)) - {1, 2, 10} if call == "socketpair" else set(range(64)) - {1, 2, 10, 16}
        )
    netlink = [r for r in ours if "socket" in r["names"] and r["args"][0]["valueTwo"] == 16]
    assert sorted((r["action"], r["args"][1:]) for r in netlink) == [
        ("SCMP_ACT_ALLOW", [{"index": 2, "value": 0, "valueTwo": 0, "op": "SCMP_CMP_EQ"}]),
        ("SCMP_ACT_ERRNO", [{"index": 2, "value": 0, "valueTwo": 0, "op": "SCMP_CMP_NE"}]),
    ]
    json.dumps(prof)  # serialisable as given to podman


def test_oci_profile_without_a_base_allows_by_default_and_refuses_the_same():
    prof = seccomp.oci_profile(None, "aarch64")
    assert prof["defaultAction"] == "SCMP_ACT_ALLOW" and prof["architectures"] == ["SCMP_ARCH_AARCH64"]
    assert prof["syscalls"] == seccomp.oci_rules()


def test_without_libseccomp_the_sandbox_is_unavailable_in_one_line(monkeypatch):
    """No binding or no libseccomp.so.2: the sandbox refuses to start, one line saying what to install,
    rather than run without its filter."""
    from swr.core.errors import SandboxUnavailable

    seccomp.program.cache_clear()
    monkeypatch.setitem(sys.modules, "pyseccomp", None)  # what `import pyseccomp` finds: ImportError
    try:
        with pytest.raises(SandboxUnavailable, match="libseccomp") as err:
            seccomp.program("x86_64")
        assert "\n" not in str(err.value)
    finally:
        seccomp.program.cache_clear()
