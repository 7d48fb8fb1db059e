"""Build a TCP connection (handshake, request segments each acknowledged, a response, teardown) between two hosts
with scapy, from parameters, and write it as a classic pcap with microsecond timestamps."""

import os
import random
import tomllib
from decimal import Decimal
from pathlib import Path

from scapy.layers.inet import IP, TCP
from scapy.layers.l2 import Ether
from scapy.utils import wrpcap

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
CLIENT_MAC, SERVER_MAC = "02:00:00:00:00:01", "02:00:00:00:00:02"


def main(scn):
    rng = random.Random(int(scn["seed"]))
    client = f"10.0.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
    server = f"10.1.{rng.randint(0, 255)}.{rng.randint(1, 254)}"
    cport, sport = rng.randint(CONSTANTS["EPHEMERAL_PORT_MIN"], CONSTANTS["EPHEMERAL_PORT_MAX"]), int(scn["server_port"])
    cseq, sseq = rng.randrange(1 << 32), rng.randrange(1 << 32)
    mss, half_rtt_us = int(scn["mss"]), int(scn["rtt_us"]) // 2
    ip_ids = {"c": rng.randint(0, 60000), "s": rng.randint(0, 60000)}
    t_us = int(scn["start_time_s"]) * 10**6
    frames = []

    def send(side, flags, payload=b"", options=None, delay_us=0):
        nonlocal t_us, cseq, sseq
        t_us += delay_us
        src, dst = (client, server) if side == "c" else (server, client)
        smac, dmac = (CLIENT_MAC, SERVER_MAC) if side == "c" else (SERVER_MAC, CLIENT_MAC)
        seq, ack = (cseq, sseq) if side == "c" else (sseq, cseq)
        tcp = TCP(sport=cport if side == "c" else sport, dport=sport if side == "c" else cport, flags=flags,
                  seq=seq % (1 << 32), ack=ack % (1 << 32) if "A" in flags else 0,
                  window=int(scn["window"]), options=options or [])
        pkt = Ether(src=smac, dst=dmac) / IP(src=src, dst=dst, id=ip_ids[side], ttl=64 if side == "c" else 57) / tcp
        if payload:
            pkt = pkt / payload
        ip_ids[side] += 1
        used = len(payload) + (1 if ("S" in flags or "F" in flags) else 0)
        if side == "c":
            cseq += used
        else:
            sseq += used
        pkt = Ether(bytes(pkt))  # checksums and lengths filled in
        pkt.time = Decimal(t_us) / 10**6  # exact microseconds
        frames.append(pkt)

    send("c", "S", options=[("MSS", mss)])
    send("s", "SA", options=[("MSS", mss)], delay_us=half_rtt_us)
    send("c", "A", delay_us=half_rtt_us)
    request = bytes(rng.randrange(32, 127) for _ in range(int(scn["request_bytes"])))
    for i in range(0, len(request), mss):
        send("c", "PA", request[i : i + mss], delay_us=int(scn["gap_us"]))
        send("s", "A", delay_us=half_rtt_us)
    total = sum(request) % CONSTANTS["RESPONSE_SUM_MODULUS"]
    response = f"OK {len(request)} {total}\n".encode()
    send("s", "PA", response, delay_us=int(scn["gap_us"]))
    send("c", "A", delay_us=half_rtt_us)
    send("c", "FA", delay_us=int(scn["gap_us"]))
    send("s", "FA", delay_us=half_rtt_us)
    send("c", "A", delay_us=half_rtt_us)
    wrpcap(os.path.join(os.environ["SWR_ARTIFACTS"], "exchange.pcap"), frames)
    return {
        "capture": "exchange.pcap",
        "n_packets": len(frames),
        "request_segments": -(-len(request) // mss),
        "duration_us": t_us - int(scn["start_time_s"]) * 10**6,
    }
