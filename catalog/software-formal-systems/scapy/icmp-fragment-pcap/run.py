"""ICMP echo traffic over a link with a small MTU, built with scapy: an optional don't-fragment probe answered by
the router's 'fragmentation needed' error (ICMP quoting the offending header), then echo requests and replies whose
IP datagrams scapy.layers.inet.fragment splits; written as a classic pcap with scapy.utils.wrpcap."""

import os
import random
from decimal import Decimal

from scapy.layers.inet import ICMP, IP, fragment
from scapy.layers.l2 import Ether
from scapy.utils import wrpcap

HOST = ("02:00:00:00:01:01", "10.9.0.2")
PEER = ("02:00:00:00:01:02", "192.0.2.77")
ROUTER = ("02:00:00:00:01:fe", "10.9.0.1")


def main(scn):
    rng = random.Random(int(scn["seed"]))
    mtu, size = int(scn["mtu"]), int(scn["payload_bytes"])
    icmp_id = rng.randrange(1 << 16)
    ip_id = {"h": rng.randint(0, 60000), "p": rng.randint(0, 60000)}
    t0_us = int(scn["start_time_s"]) * 10**6
    frames, stats = [], {"datagrams": 0, "fragmented": 0, "max_frags": 0}

    def emit(src, dst, ip, t_us):
        """Wrap each fragment of the datagram `ip` (1 us apart) in Ether; return the time of the last."""
        frags = fragment(ip, fragsize=mtu - 20) if not ip.flags.DF else [ip]
        stats["datagrams"] += 1
        stats["fragmented"] += len(frags) > 1
        stats["max_frags"] = max(stats["max_frags"], len(frags))
        for j, frag in enumerate(frags):
            pkt = Ether(bytes(Ether(src=src[0], dst=dst[0]) / frag))  # lengths and checksums filled in
            pkt.time = Decimal(t_us + j) / 10**6
            frames.append(pkt)
        return t_us + len(frags) - 1

    start = t0_us
    if scn["df_probe"]:
        probe = (IP(src=HOST[1], dst=PEER[1], id=ip_id["h"], ttl=64, flags="DF") / ICMP(id=icmp_id, seq=0)
                 / (b"\0" * mtu))
        ip_id["h"] += 1
        t = emit(HOST, ROUTER, probe, start)
        quoted = bytes(IP(bytes(probe)))[:28]
        err = IP(src=ROUTER[1], dst=HOST[1], id=0, ttl=255) / ICMP(type=3, code=4, nexthopmtu=mtu) / quoted
        emit(ROUTER, HOST, err, t + int(scn["rtt_us"]) // 4)
        start += int(scn["interval_ms"]) * 1000
    answered = 0
    for i in range(int(scn["n_pings"])):
        data = bytes(rng.randrange(256) for _ in range(size))
        lost = rng.random() < float(scn["loss_rate"])
        t_req = start + i * int(scn["interval_ms"]) * 1000
        req = IP(src=HOST[1], dst=PEER[1], id=ip_id["h"], ttl=64) / ICMP(type=8, id=icmp_id, seq=i + 1) / data
        ip_id["h"] += 1
        t = emit(HOST, ROUTER, req, t_req)
        if lost:
            continue
        rep = IP(src=PEER[1], dst=HOST[1], id=ip_id["p"], ttl=52) / ICMP(type=0, id=icmp_id, seq=i + 1) / data
        ip_id["p"] += 1
        emit(ROUTER, HOST, rep, t + int(scn["rtt_us"]))
        answered += 1
    wrpcap(os.path.join(os.environ["SWR_ARTIFACTS"], "pings.pcap"), frames)
    return {
        "capture": "pings.pcap",
        "n_packets": len(frames),
        "datagrams": stats["datagrams"],
        "fragmented_datagrams": stats["fragmented"],
        "max_fragments": stats["max_frags"],
        "replies": answered,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
