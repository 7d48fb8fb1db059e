"""NTP clock synchronisation on a tagged VLAN, built with scapy (scapy.layers.ntp NTPHeader with fixed-point
timestamps, scapy.layers.l2 Dot1Q): a client with an offset and drifting clock polls a server; the four timestamps
of every exchange give the clock offset and round-trip delay (RFC 5905); written as pcapng with scapy.utils.wrpcapng."""

import os
import tomllib
from decimal import Decimal
from pathlib import Path

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Dot1Q, Ether
from scapy.layers.ntp import NTPHeader
from scapy.utils import wrpcapng

CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
NTP_EPOCH_OFFSET_S = int(CONSTANTS["NTP_EPOCH_OFFSET_S"])
CLIENT = ("02:00:00:00:7b:01", "10.123.0.10")
SERVER = ("02:00:00:00:7b:02", "10.123.0.1")


def ntp_time(us):
    """NTP seconds (since 1900) of a Unix time in integer microseconds, exact."""
    return Decimal(us) / 10**6 + NTP_EPOCH_OFFSET_S


def main(scn):
    start = int(scn["start_time_s"]) * 10**6
    offset, drift = int(scn["clock_offset_us"]), int(scn["drift_ppm"])
    out_us, back_us, proc_us = int(scn["delay_out_us"]), int(scn["delay_back_us"]), int(scn["server_proc_us"])
    poll = int(scn["poll_exp"])
    version, stratum = int(scn["version"]), int(scn["server_stratum"])
    vlan = int(scn["vlan_id"])
    frames, offsets, delays = [], [], []

    def client_clock(t):
        return t + offset + (drift * (t - start)) // 10**6

    def frame(src, dst, ntp, t):
        pkt = Ether(bytes(Ether(src=src[0], dst=dst[0]) / Dot1Q(vlan=vlan, prio=int(scn["priority"]))
                          / IP(src=src[1], dst=dst[1], ttl=64) / UDP(sport=123, dport=123) / ntp))
        pkt.time = Decimal(t) / 10**6
        frames.append(pkt)

    for k in range(int(scn["n_polls"])):
        t_send = start + k * (2**poll) * 10**6
        t1 = client_clock(t_send)
        t2 = t_send + out_us
        t3 = t2 + proc_us
        t_recv = t3 + back_us
        t4 = client_clock(t_recv)
        frame(CLIENT, SERVER, NTPHeader(leap=0, version=version, mode=3, stratum=0, poll=poll, precision=-20,
                                        ref=0, orig=0, recv=0, sent=ntp_time(t1)), t_send)
        frame(SERVER, CLIENT, NTPHeader(leap=0, version=version, mode=4, stratum=stratum, poll=poll, precision=-23,
                                        id="192.0.2.200", ref=ntp_time(t2 - 64 * 10**6), orig=ntp_time(t1),
                                        recv=ntp_time(t2), sent=ntp_time(t3)), t3)
        offsets.append(((t2 - t1) + (t3 - t4)) / 2)
        delays.append((t4 - t1) - (t3 - t2))
    best = min(range(len(delays)), key=lambda i: (delays[i], i))
    wrpcapng(os.path.join(os.environ["SWR_ARTIFACTS"], "ntp.pcapng"), frames)
    return {"capture": "ntp.pcapng", "n_packets": len(frames), "offsets_us": offsets, "delays_us": delays,
            "best_offset_us": offsets[best]}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
