"""The pcap comparator: pcap and pcapng of the same packets pass whatever their byte order and timestamp
resolution, a changed field, packet or timestamp fails, candidate bytes never raise, and the audit's mutants of
seeded captures are judged as designed (the false-reject study)."""

from __future__ import annotations

import random
import struct
from pathlib import Path
from typing import Any

import pytest
from scapy.layers.dns import DNS, DNSQR
from scapy.layers.inet import ICMP, IP, TCP, UDP
from scapy.layers.l2 import Ether
from scapy.utils import wrpcap, wrpcapng

from swr.audit.artifact_mutants import pcap_bytes, pcap_edits, pcapng_bytes
from swr.audit.mutation import DESIGNED_VALID
from swr.judge.artifacts import ArtifactConfigError, compare_artifact
from swr.judge.artifacts._common import Budget
from swr.judge.artifacts.pcap import read_capture


def packets(rng: random.Random, n: int = 8) -> list[Any]:
    """A TCP handshake and data, a DNS query and an ICMP echo, at increasing microsecond timestamps."""
    a, b = f"10.0.0.{rng.randint(2, 200)}", f"192.168.1.{rng.randint(2, 200)}"
    sport, seq = rng.randint(1024, 65535), rng.randrange(1 << 32)
    eth = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")
    pkts = [
        eth / IP(src=a, dst=b) / TCP(sport=sport, dport=80, flags="S", seq=seq),
        eth / IP(src=b, dst=a) / TCP(sport=80, dport=sport, flags="SA", seq=7, ack=seq + 1),
        eth / IP(src=a, dst=b) / UDP(sport=5353, dport=53) / DNS(rd=1, qd=DNSQR(qname="example.org")),
        eth / IP(src=a, dst=b) / ICMP(id=rng.randint(0, 999)) / b"ping",
    ]
    for k in range(n - len(pkts)):
        pkts.append(eth / IP(src=a, dst=b) / TCP(sport=sport, dport=80, flags="PA", seq=seq + 1 + k) / bytes(k + 1))
    t = 1_700_000_000 + rng.randint(0, 10**6)
    for i, p in enumerate(pkts):
        p.time = t + i * 0.0125 + rng.randint(0, 999) * 1e-6
    return [_timed(Ether(bytes(p)), p.time) for p in pkts]  # as dissected from bytes, as a reader sees them


def _timed(p: Any, t: Any) -> Any:
    p.time = t
    return p


def capture(path: Path, rng: random.Random) -> Path:
    (wrpcapng if path.suffix == ".pcapng" else wrpcap)(str(path), packets(rng))
    return path


def judge(ref: Path, cand: Path, **options: Any) -> Any:
    return compare_artifact(ref, cand, options=options or None)


def test_false_reject_study_every_mutant_judged_as_designed(tmp_path: Path) -> None:
    """Four seeded captures of each format: every valid mutant accepted, every invalid one rejected."""
    tally: dict[str, list[int]] = {}
    wrong = []
    for suffix in (".pcap", ".pcapng"):
        for seed in range(4):
            ref = capture(tmp_path / f"ref{seed}{suffix}", random.Random(f"{suffix}{seed}"))
            for k, (klass, valid, write, other) in enumerate(pcap_edits(ref)):
                cand = tmp_path / f"m{seed}_{k}{other or suffix}"
                write(cand)
                res = judge(ref, cand)
                tally.setdefault(klass, [0, 0])[res.ok != valid] += 1
                assert DESIGNED_VALID.get(klass, False) == valid, klass  # the audits' own labels
                if res.ok != valid:
                    wrong.append((suffix, seed, klass, res.detail))
    assert not wrong, wrong
    assert {"pcap_as_pcapng", "pcap_as_pcap", "pcap_packet_byte_changed", "pcap_packets_swapped"} <= set(tally)
    assert sum(n for n, _ in tally.values()) >= 50, tally


def test_timestamps_within_the_reference_resolution_or_time_atol(tmp_path: Path) -> None:
    ref = capture(tmp_path / "a.pcap", random.Random(1))
    frames = read_capture(ref, Budget("pcap")).frames
    ns = [int(f.time * 10**9) for f in frames]
    shifted = tmp_path / "b.pcap"
    shifted.write_bytes(pcap_bytes(frames, 10**9, [t + 400 for t in ns]))  # 0.4 us: within 1 us
    assert judge(ref, shifted).ok
    shifted.write_bytes(pcap_bytes(frames, 10**9, [t + 2_000 for t in ns]))
    res = judge(ref, shifted)
    assert not res.ok and "timestamp" in res.detail, res.detail
    assert judge(ref, shifted, time_atol=1e-5).ok


def test_a_field_changed_is_named_by_layer(tmp_path: Path) -> None:
    pkts = packets(random.Random(2))
    ref = tmp_path / "a.pcapng"
    wrpcapng(str(ref), pkts)
    pkts[0][TCP].dport = 8080
    del pkts[0][TCP].chksum
    changed = tmp_path / "b.pcap"
    wrpcap(str(changed), [_timed(Ether(bytes(p)), p.time) for p in pkts])
    res = judge(ref, changed)
    assert not res.ok and "TCP.dport" in res.detail, res.detail
    assert not judge(ref, changed, ignore_fields=["TCP.dport"]).ok  # the checksum differs too
    assert judge(ref, changed, ignore_fields=["TCP.dport", "TCP.chksum"]).ok


def test_ethernet_padding_content_is_not_compared(tmp_path: Path) -> None:
    frames = read_capture(capture(tmp_path / "a.pcap", random.Random(3)), Budget("pcap")).frames
    pad = [f.__class__(f.linktype, f.time, max(60, f.wirelen), f.data.ljust(60, b"\0")) for f in frames]
    ref, cand = tmp_path / "p.pcap", tmp_path / "q.pcap"
    us = [int(f.time * 10**6) for f in frames]
    ref.write_bytes(pcap_bytes(pad, 10**6, us))
    garbage = [
        f.__class__(f.linktype, f.time, f.wirelen, f.data[:-1] + b"\x55") if len(f.data) == 60 else f for f in pad
    ]
    cand.write_bytes(pcap_bytes(garbage, 10**6, us))
    assert any(len(f.data) == 60 for f in pad)
    assert judge(ref, cand).ok
    assert not judge(ref, cand, ignore_layers=[]).ok


def test_garbage_candidates_fail_with_a_reason(tmp_path: Path) -> None:
    ref = capture(tmp_path / "a.pcapng", random.Random(4))
    raw = ref.read_bytes()
    rng = random.Random(5)
    bad_len = bytearray(raw)
    bad_len[4:8] = struct.pack("<I", 1 << 30)
    cands = {
        "noise": bytes(rng.randrange(256) for _ in range(3000)),
        "truncated": raw[: len(raw) - 7],
        "block_length": bytes(bad_len),
        "pcap_header_only": struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1) + b"\0" * 10,
        "empty": b"",
        "epb_before_idb": raw[:28] + raw[raw.index(struct.pack("<I", 6)) :],
    }
    for what, data in cands.items():
        cand = tmp_path / f"{what}.pcapng"
        cand.write_bytes(data)
        res = judge(ref, cand)
        assert res.ok is False and res.detail and "\n" not in res.detail, (what, res)


def test_a_bad_option_or_reference_is_the_tasks_error(tmp_path: Path) -> None:
    ref = capture(tmp_path / "a.pcap", random.Random(6))
    for opts, msg in (
        ({"time_atl": 1}, "unknown pcap option"),
        ({"time_atol": "1"}, "time_atol"),
        ({"ignore_layers": "Padding"}, "ignore_layers"),
    ):
        with pytest.raises(ArtifactConfigError, match=msg):
            judge(ref, ref, **opts)
    bad = tmp_path / "bad.pcap"
    bad.write_bytes(b"nope")
    with pytest.raises(ArtifactConfigError, match="cannot read reference"):
        judge(bad, ref)


def test_pcapng_with_other_blocks_and_resolutions_reads_as_pcap(tmp_path: Path) -> None:
    ref = capture(tmp_path / "a.pcap", random.Random(8))
    frames = read_capture(ref, Budget("pcap")).frames
    ng = tmp_path / "b.pcapng"
    ng.write_bytes(pcapng_bytes(frames, [int(f.time * 10**9) for f in frames], comment=True))
    assert judge(ref, ng).ok and judge(ng, ref).ok
    assert read_capture(ng, Budget("pcap")).frames == frames
