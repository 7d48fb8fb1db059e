"""Tenant traffic carried over an overlay network, built with scapy: inner Ethernet frames between virtual machines
encapsulated either in VXLAN (scapy.layers.vxlan, UDP 4789, source port from a hash of the inner flow) or in GRE with
transparent Ethernet bridging and a key (scapy.layers.l2.GRE); outer frames larger than the underlay MTU counted;
written as a classic pcap with scapy.utils.wrpcap; the capture read back (scapy.utils.rdpcap), its frames
decapsulated again and the tenant's conversations extracted with scapy.plist.PacketList.sessions()."""

import os
import random
import tomllib
import zlib
from decimal import Decimal
from pathlib import Path

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import GRE, Ether
from scapy.layers.vxlan import VXLAN
from scapy.plist import PacketList
from scapy.utils import rdpcap, wrpcap

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
VTEP = [("02:00:00:00:e0:01", "203.0.113.1"), ("02:00:00:00:e0:02", "203.0.113.2")]


def entropy_port(src, dst, sport, dport):
    """VXLAN outer source port: a base + crc32 of the inner flow's 'src|dst|17|sport|dport' mod a span (RFC 7348 5)."""
    key = f"{src}|{dst}|17|{sport}|{dport}".encode()
    return int(CONSTANTS["ENTROPY_PORT_BASE"]) + zlib.crc32(key) % int(CONSTANTS["ENTROPY_PORT_SPAN"])


def main(scn):
    rng = random.Random(int(scn["seed"]))
    vni, tunnel, mtu = int(scn["vni"]), str(scn["tunnel"]), int(scn["underlay_mtu"])
    t_us = int(scn["start_time_s"]) * 10**6
    flows = []
    for _ in range(int(scn["n_flows"])):
        a, b = rng.sample(range(2, 30), 2)
        flows.append({"side": rng.randrange(2), "src": f"172.16.{vni % 256}.{a}", "dst": f"172.16.{vni % 256}.{b}",
                      "sport": rng.randint(1024, int(CONSTANTS["PORT_MAX"])), "dport": rng.choice([53, 123, 443, 5201]),
                      "mac_src": f"02:42:ac:10:00:{a:02x}", "mac_dst": f"02:42:ac:10:00:{b:02x}"})
    frames, oversize, inner_bytes = [], 0, 0
    for _round in range(int(scn["packets_per_flow"])):
        for f in flows:
            size = rng.randint(0, int(scn["max_payload"]))
            inner = (Ether(src=f["mac_src"], dst=f["mac_dst"]) / IP(src=f["src"], dst=f["dst"], ttl=64)
                     / UDP(sport=f["sport"], dport=f["dport"]) / bytes(size))
            (smac, sip), (dmac, dip) = VTEP[f["side"]], VTEP[1 - f["side"]]
            outer = Ether(src=smac, dst=dmac) / IP(src=sip, dst=dip, ttl=64, flags="DF")
            if tunnel == "vxlan":
                pkt = outer / UDP(sport=entropy_port(f["src"], f["dst"], f["sport"], f["dport"]), dport=4789) \
                    / VXLAN(flags=0x08, vni=vni) / inner
            else:
                pkt = outer / GRE(proto=0x6558, key_present=1, key=vni) / inner
            pkt = Ether(bytes(pkt))  # lengths and checksums filled in
            pkt.time = Decimal(t_us) / 10**6
            t_us += int(scn["gap_us"])
            frames.append(pkt)
            inner_bytes += len(inner)
            oversize += pkt[IP].len > mtu
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "overlay.pcap")
    wrpcap(path, frames)
    outer_bytes = sum(len(p) for p in frames)
    captured = rdpcap(path)  # what the monitor sees: the file, dissected afresh
    inner_frames = PacketList([p[VXLAN].payload if VXLAN in p else p[GRE].payload for p in captured])
    sessions = [[key, len(pkts)] for key, pkts in sorted(inner_frames.sessions().items())]
    return {"capture": "overlay.pcap", "n_packets": len(frames), "oversize_frames": int(oversize),
            "inner_bytes": inner_bytes, "outer_bytes": outer_bytes,
            "overhead_fraction": (outer_bytes - inner_bytes) / outer_bytes, "tenant_sessions": sessions}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
