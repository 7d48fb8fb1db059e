"""A router's NetFlow v5 export built with scapy (scapy.layers.netflow: NetflowHeader, NetflowHeaderV5 and
NetflowRecordV5): flows drawn from parameters, ordered by their end, packed into export datagrams with the v5 header's
uptime, wall time, flow sequence and sampling fields; written as pcapng with scapy.utils.wrpcapng, then read back
as a collector does (scapy.utils.PcapNgReader dissecting every datagram) to account the traffic."""

import os
import random
from decimal import Decimal

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.layers.netflow import NetflowHeader, NetflowHeaderV5, NetflowRecordV5
from scapy.utils import PcapNgReader, wrpcapng

EXPORTER = ("02:00:00:00:08:01", "192.0.2.1")
COLLECTOR = ("02:00:00:00:08:02", "192.0.2.50")
TCP_FLAGS = [0x02, 0x12, 0x1B, 0x18]


def flows(scn):
    rng = random.Random(int(scn["seed"]))
    n = int(scn["sampling_n"])
    out = []
    for _ in range(int(scn["n_flows"])):
        prot = rng.choice([6, 17])
        first = rng.randint(0, int(scn["window_s"]) * 1000)
        pkts = rng.randint(1, 500)
        out.append({
            "src": f"10.1.{rng.randint(0, 3)}.{rng.randint(1, 254)}",
            "dst": f"198.51.100.{rng.randint(1, 254)}",
            "prot": prot,
            "srcport": rng.randint(1024, 65535),
            "dstport": rng.choice([53, 80, 123, 443, 8080]),
            "dpkts": max(1, pkts // n),
            "dOctets": max(1, pkts // n) * rng.randint(40, 1500),
            "first": first,
            "last": first + rng.randint(0, 60000),
            "tcpFlags": rng.choice(TCP_FLAGS) if prot == 6 else 0,
            "input": rng.randint(1, 4),
            "output": rng.randint(1, 4),
        })
    return out


def main(scn):
    recs = sorted(flows(scn), key=lambda f: (f["last"], f["first"]))
    per = int(scn["max_records"])
    boot_ms = int(scn["boot_time_s"]) * 1000
    delay = int(scn["export_delay_ms"])
    sampling = (1 << 14) | int(scn["sampling_n"]) if int(scn["sampling_n"]) > 1 else 0
    frames, sent = [], 0
    for i in range(0, len(recs), per):
        chunk = recs[i : i + per]
        uptime = chunk[-1]["last"] + delay
        wall_ms = boot_ms + uptime
        pdu = NetflowHeader(version=5) / NetflowHeaderV5(
            count=len(chunk), sysUptime=uptime, unixSecs=wall_ms // 1000, unixNanoSeconds=(wall_ms % 1000) * 10**6,
            flowSequence=sent, engineType=0, engineID=int(scn["engine_id"]), samplingInterval=sampling)
        for f in chunk:
            pdu = pdu / NetflowRecordV5(nexthop="192.0.2.254", src_mask=24, dst_mask=24, **f)
        pkt = Ether(bytes(Ether(src=EXPORTER[0], dst=COLLECTOR[0]) / IP(src=EXPORTER[1], dst=COLLECTOR[1], ttl=64)
                          / UDP(sport=int(scn["exporter_port"]), dport=2055) / pdu))
        pkt.time = Decimal(wall_ms) / 1000
        if i // per + 1 != int(scn["dropped_datagram"]):  # a datagram lost on the way is not captured
            frames.append(pkt)
        sent += len(chunk)
    path = os.path.join(os.environ["SWR_ARTIFACTS"], "netflow.pcapng")
    wrpcapng(path, frames)
    return {"capture": "netflow.pcapng", **collect(path)}


def collect(path):
    """What a collector accounts from the capture: every datagram dissected, its records summed."""
    octets: dict[str, int] = {}
    datagrams, packets, total, tcp, lost = 0, 0, 0, 0, 0
    expected = 0
    with PcapNgReader(path) as reader:
        for pkt in reader:
            head = pkt[NetflowHeaderV5]
            lost += head.flowSequence - expected
            expected = head.flowSequence + head.count
            datagrams += 1
            rec = head.payload
            while isinstance(rec, NetflowRecordV5):
                octets[rec.src] = octets.get(rec.src, 0) + rec.dOctets
                packets += rec.dpkts
                total += rec.dOctets
                tcp += rec.prot == 6
                rec = rec.payload
    top = max(sorted(octets), key=lambda s: octets[s]) if octets else ""
    return {
        "datagrams_received": datagrams,
        "total_packets": packets,
        "total_octets": total,
        "tcp_flows": tcp,
        "sequence_gaps": lost,
        "top_talker": top,
        "top_talker_octets": octets.get(top, 0),
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
