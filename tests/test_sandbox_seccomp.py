"""The seccomp filter as data: the classic-BPF program bubblewrap loads, run instruction by instruction
by a small interpreter over a table of (syscall, arguments) -> expected action, on x86_64 and aarch64;
and the OCI profile podman gets. What the kernel does with them, on both backends, is tested in
test_sandbox_hostile.py (test_no_new_namespace_and_no_socket_family_but_unix_and_inet)."""

from __future__ import annotations

import errno
import json
import struct

import pytest

from swr.sandbox import seccomp

ALLOW, KILL = 0x7FFF0000, 0x80000000
EPERM, ENOSYS, EAFNOSUPPORT = (0x00050000 | e for e in (errno.EPERM, errno.ENOSYS, errno.EAFNOSUPPORT))
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7, "i386": 0x40000003, "arm": 0x40000028}
# Numbers typed in from the kernel's tables (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/
# asm-generic/unistd.h), not read from the module under test: read, write, unshare, clone, clone3,
# socket, socketpair, keyctl, setns, and a few neighbours of the checked ones.
NR = {"x86_64": {"read": 0, "write": 1, "unshare": 272, "clone": 56, "fork": 57, "clone3": 435, "socket": 41,
                 "connect": 42, "socketpair": 53, "keyctl": 250, "setns": 308},
      "aarch64": {"read": 63, "write": 64, "unshare": 97, "clone": 220, "clone3": 435, "socket": 198,
                  "socketpair": 199, "bind": 200, "keyctl": 219, "setns": 268}}
NEW_NS = {"newns": 0x20000, "newcgroup": 0x2000000, "newuts": 0x4000000, "newipc": 0x8000000,
          "newuser": 0x10000000, "newpid": 0x20000000, "newnet": 0x40000000}
THREAD = 0x3D0F00  # what glibc's pthread_create passes: CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|...
SIGCHLD, HIGH = 17, 1 << 40


def run_bpf(prog: bytes, data: bytes) -> int:
    """Classic BPF as the kernel's seccomp runs it, for the instructions a filter may use here (absolute
    word loads, jumps on constants, returns); anything else fails the test."""
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
    rows = [("read", n["read"], (0, 0, 10), ALLOW), ("write", n["write"], (1, 0, 10), ALLOW),
            ("keyctl", n["keyctl"], (0,), EPERM), ("setns", n["setns"], (3, 0), EPERM),
            ("unshare(NEWUSER)", n["unshare"], (NEW_NS["newuser"],), EPERM), ("unshare(0)", n["unshare"], (0,), EPERM),
            ("fork-like clone", n["clone"], (SIGCHLD,), ALLOW), ("thread clone", n["clone"], (THREAD,), ALLOW),
            ("clone, junk above bit 31", n["clone"], (SIGCHLD | HIGH,), ALLOW),
            ("clone(NEWUSER), junk above bit 31", n["clone"], (NEW_NS["newuser"] | SIGCHLD | HIGH,), EPERM),
            ("clone3", n["clone3"], (0, 88), ENOSYS),
            ("socket(AF_INET), junk above bit 31", n["socket"], (2 | HIGH, 1, 0), ALLOW),
            ("socket(AF_VSOCK), junk above bit 31", n["socket"], (40 | HIGH, 1, 0), EAFNOSUPPORT),
            ("socket(-1)", n["socket"], ((1 << 64) - 1, 1, 0), EAFNOSUPPORT)]
    rows += [(f"clone({name})", n["clone"], (flag | SIGCHLD,), EPERM) for name, flag in NEW_NS.items()]
    rows += [(f"clone(THREAD|{name})", n["clone"], (flag | THREAD,), EPERM) for name, flag in NEW_NS.items()]
    for call, allowed in (("socket", (1, 2, 10, 16)), ("socketpair", (1, 2, 10))):
        rows += [(f"{call}({fam})", n[call], (fam, 1, 0), ALLOW if fam in allowed else EAFNOSUPPORT)
                 for fam in range(64)]
    # netlink: NETLINK_ROUTE (0) alone, the protocol read on all 64 bits
    rows += [(f"socket(AF_NETLINK, {proto:#x})", n["socket"], (16, 3, proto), EAFNOSUPPORT)
             for proto in (4, 9, 12, 15, 16, HIGH, (1 << 64) - 1)]
    rows += [("socket(AF_NETLINK | junk, NETLINK_ROUTE)", n["socket"], (16 | HIGH, 3, 0), ALLOW)]
    return rows


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_bpf_program_decides_each_call_as_the_table_says(machine):
    prog, arch = seccomp.program(machine), AUDIT_ARCH[machine]
    wrong = [(what, hex(got), hex(want)) for what, nr, args, want in table(machine)
             if (got := run_bpf(prog, seccomp_data(nr, arch, *args))) != want]
    assert not wrong, wrong


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_bpf_program_refuses_every_call_of_the_deny_list(machine):
    prog, numbers = seccomp.program(machine), seccomp.numbers(machine)
    assert all(numbers[name] == NR[machine][name] for name in NR[machine] if name in numbers)
    wrong = [name for name in seccomp.DENIED
             if run_bpf(prog, seccomp_data(numbers[name], AUDIT_ARCH[machine], 0, 0)) != EPERM]
    assert not wrong, wrong
    # and nothing else: every other number below 512 passes, whatever its arguments
    others = set(range(512)) - set(numbers.values())
    wrong = [nr for nr in others if run_bpf(prog, seccomp_data(nr, AUDIT_ARCH[machine], *[0x7FFFFFFF] * 6)) != ALLOW]
    assert not wrong, wrong


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_bpf_program_kills_other_abis(machine):
    prog = seccomp.program(machine)
    socket_nr = NR[machine]["socket"]
    for foreign in ("i386", "arm", "aarch64" if machine == "x86_64" else "x86_64"):
        assert run_bpf(prog, seccomp_data(socket_nr, AUDIT_ARCH[foreign], 40)) == KILL, foreign
        assert run_bpf(prog, seccomp_data(0, AUDIT_ARCH[foreign])) == KILL, foreign
    if machine == "x86_64":  # the x32 ABI: the same arch, bit 30 in the number
        for nr in (0, 41, 56, 0x40000000 + 41):
            assert run_bpf(prog, seccomp_data(0x40000000 | nr, AUDIT_ARCH["x86_64"], 2)) == EPERM


def test_assembler_refuses_backward_and_overlong_jumps():
    with pytest.raises(ValueError):
        seccomp.assemble(["back", (0x15, 1, "back", None), (0x06, 0, None, None)])
    with pytest.raises(ValueError):
        seccomp.assemble([(0x15, 1, "far", None), *[(0x06, 0, None, None)] * 300, "far", (0x06, 0, None, None)])


def test_oci_profile_keeps_no_rule_of_its_base_for_the_calls_it_decides():
    """podman's default profile allows clone, clone3, socket and unshare outright, and admits i386 and
    x32: none of that may survive into the profile the sandbox uses."""
    base = {"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 38,
            "archMap": [{"architecture": "SCMP_ARCH_X86_64", "subArchitectures": ["SCMP_ARCH_X86", "SCMP_ARCH_X32"]}],
            "syscalls": [{"names": ["read", "clone", "clone3", "socket", "socketpair", "unshare", "socketcall"],
                          "action": "SCMP_ACT_ALLOW"},
                         {"names": ["socket"], "action": "SCMP_ACT_ALLOW", "args": [{"index": 2, "value": 9,
                                                                                   "op": "SCMP_CMP_NE"}]},
                         {"name": "keyctl", "action": "SCMP_ACT_ALLOW"}]}
    prof = seccomp.oci_profile(base, "x86_64")
    assert prof["architectures"] == ["SCMP_ARCH_X86_64"] and "archMap" not in prof
    assert prof["defaultAction"] == "SCMP_ACT_ERRNO" and prof["defaultErrnoRet"] == 38
    ours = seccomp.oci_rules()
    decided = {"clone", "clone3", "socket", "socketpair", *seccomp.DENIED}
    foreign = [r for r in prof["syscalls"] if set(r["names"]) & decided and r not in ours]
    assert not foreign, foreign
    assert {"names": ["read", "socketcall"], "action": "SCMP_ACT_ALLOW"} in prof["syscalls"]
    # every family but unix/inet/inet6 refused by its own rule, on its low 32 bits; netlink route alone
    for call, alone in (("socket", {1, 2, 10}), ("socketpair", {1, 2, 10, 16})):
        rules = [r for r in ours if call in r["names"]]
        assert all(r["args"][0]["value"] == 0xFFFFFFFF and r["args"][0]["op"] == "SCMP_CMP_MASKED_EQ" for r in rules)
        by_family = [r for r in rules if len(r["args"]) == 1]  # decided on the family alone
        assert {r["args"][0]["valueTwo"] for r in by_family if r["action"] == "SCMP_ACT_ALLOW"} == {1, 2, 10}
        assert {r["args"][0]["valueTwo"] for r in by_family if r["action"] == "SCMP_ACT_ERRNO"} == (
            set(range(64)) - {1, 2, 10} if call == "socketpair" else set(range(64)) - {1, 2, 10, 16})
    netlink = [r for r in ours if "socket" in r["names"] and r["args"][0]["valueTwo"] == 16]
    assert sorted((r["action"], r["args"][1:]) for r in netlink) == [
        ("SCMP_ACT_ALLOW", [{"index": 2, "value": 0, "valueTwo": 0, "op": "SCMP_CMP_EQ"}]),
        ("SCMP_ACT_ERRNO", [{"index": 2, "value": 0, "valueTwo": 0, "op": "SCMP_CMP_NE"}])]
    json.dumps(prof)  # serialisable as given to podman


def test_oci_profile_without_a_base_allows_by_default_and_refuses_the_same():
    prof = seccomp.oci_profile(None, "aarch64")
    assert prof["defaultAction"] == "SCMP_ACT_ALLOW" and prof["architectures"] == ["SCMP_ARCH_AARCH64"]
    assert prof["syscalls"] == seccomp.oci_rules()
