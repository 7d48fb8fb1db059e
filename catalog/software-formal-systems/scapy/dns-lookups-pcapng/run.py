"""Build a stub resolver's DNS lookups over UDP (queries and the server's answers or NXDOMAIN replies) with scapy,
from parameters, and write them as a pcapng capture with scapy.utils.wrpcapng."""

import os
import random
import tomllib
from decimal import Decimal
from pathlib import Path

from scapy.layers.dns import DNS, DNSQR, DNSRR
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.utils import wrpcapng

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
CLIENT, SERVER = ("02:00:00:00:00:0a", "10.2.0.10"), ("02:00:00:00:00:35", "10.2.0.53")
QTYPES = {"A": 1, "AAAA": 28}


def address(rng, qtype):
    if qtype == "A":
        return f"198.51.100.{rng.randint(1, 254)}"
    return "2001:db8::" + ":".join(f"{rng.randrange(1 << 16):x}" for _ in range(2))


def main(scn):
    rng = random.Random(int(scn["seed"]))
    qtype, zone = scn["qtype"], scn["zone"]
    t_us = int(scn["start_time_s"]) * 10**6
    frames, answered, records = [], 0, 0

    def frame(src, dst, sport, dport, dns):
        pkt = Ether(src=src[0], dst=dst[0]) / IP(src=src[1], dst=dst[1], ttl=64) / UDP(sport=sport, dport=dport) / dns
        pkt = Ether(bytes(pkt))  # lengths and checksums filled in
        pkt.time = Decimal(t_us) / 10**6  # exact microseconds
        frames.append(pkt)

    for _ in range(int(scn["n_queries"])):
        label = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 10)))
        name = f"{label}.{zone}."
        qid = rng.randrange(1 << 16)
        sport = rng.randint(CONSTANTS["EPHEMERAL_PORT_MIN"], CONSTANTS["EPHEMERAL_PORT_MAX"])
        question = DNSQR(qname=name, qtype=QTYPES[qtype])
        t_us += int(scn["gap_us"])
        frame(CLIENT, SERVER, sport, 53, DNS(id=qid, rd=1, qd=question))
        t_us += int(scn["latency_us"])
        if rng.random() < float(scn["nxdomain_rate"]):
            frame(SERVER, CLIENT, 53, sport, DNS(id=qid, qr=1, rd=1, ra=1, rcode=3, qd=question))
            continue
        n = rng.randint(1, int(scn["max_answers"]))
        answers = [DNSRR(rrname=name, type=QTYPES[qtype], ttl=int(scn["ttl_s"]), rdata=address(rng, qtype))
                   for _ in range(n)]
        frame(SERVER, CLIENT, 53, sport, DNS(id=qid, qr=1, rd=1, ra=1, qd=question, an=answers))
        answered += 1
        records += n
    wrpcapng(os.path.join(os.environ["SWR_ARTIFACTS"], "lookups.pcapng"), frames)
    return {"capture": "lookups.pcapng", "n_packets": len(frames), "answered": answered, "answer_records": records}
