"""An SNMP walk of one column of a device's interface table, built with scapy's SNMP layer (BER-encoded ASN.1
PDUs, scapy.layers.snmp and scapy.asn1): GETNEXT requests under SNMPv1 (ending with a noSuchName error) or GETBULK
requests under SNMPv2c (ending with endOfMibView), and the agent's responses; written with scapy.utils.wrpcap."""

import os
import random
import tomllib
from decimal import Decimal
from pathlib import Path

from scapy.asn1.asn1 import ASN1_COUNTER32, ASN1_GAUGE32, ASN1_INTEGER, ASN1_NULL, ASN1_OID, ASN1_STRING
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.layers.snmp import SNMP, SNMPbulk, SNMPnext, SNMPresponse, SNMPvarbind
from scapy.utils import wrpcap

# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
IF_ENTRY = "1.3.6.1.2.1.2.2.1"
COLUMNS = {"ifDescr": 2, "ifSpeed": 5, "ifOperStatus": 8, "ifInOctets": 10, "ifOutOctets": 16}
MANAGER = ("02:00:00:00:16:01", "192.0.2.10")
AGENT = ("02:00:00:00:16:a1", "192.0.2.161")


def draw(column, i, rng):
    """(ASN.1 value, plain value) of instance i (1-based) of the column."""
    if column == "ifDescr":
        return ASN1_STRING(f"eth{i - 1}".encode()), f"eth{i - 1}"
    if column == "ifSpeed":
        v = rng.choice([10**7, 10**8, 10**9])
        return ASN1_GAUGE32(v), v
    if column == "ifOperStatus":
        v = rng.choice([1, 2])
        return ASN1_INTEGER(v), v
    v = rng.randrange(1 << 32)
    return ASN1_COUNTER32(v), v


def main(scn):
    rng = random.Random(int(scn["seed"]))
    column, n = str(scn["column"]), int(scn["n_interfaces"])
    base = f"{IF_ENTRY}.{COLUMNS[column]}"
    port = rng.randint(int(CONSTANTS["EPHEMERAL_PORT_MIN"]), int(CONSTANTS["EPHEMERAL_PORT_MAX"]))
    req_id = rng.randrange(1, 1 << 31)
    table = [draw(column, i, rng) for i in range(1, n + 1)]
    v2c = scn["version"] == "v2c"
    community = str(scn["community"]).encode()
    t_us, rtt, think = int(scn["start_time_s"]) * 10**6, int(scn["rtt_us"]), int(scn["think_us"])
    frames = []

    def frame(src, dst, sport, dport, pdu, delay):
        nonlocal t_us
        t_us += delay
        snmp = SNMP(version=1 if v2c else 0, community=community, PDU=pdu)
        pkt = Ether(bytes(Ether(src=src[0], dst=dst[0]) / IP(src=src[1], dst=dst[1], ttl=64)
                          / UDP(sport=sport, dport=dport) / snmp))
        pkt.time = Decimal(t_us) / 10**6
        frames.append(pkt)

    nxt, last_oid, requests, done = 1, base, 0, False
    while not done:
        bind = [SNMPvarbind(oid=ASN1_OID(last_oid), value=ASN1_NULL(0))]
        if v2c:
            m = int(scn["max_repetitions"])
            frame(MANAGER, AGENT, port, 161, SNMPbulk(id=req_id, non_repeaters=0, max_repetitions=m,
                                                      varbindlist=bind), think if requests else 0)
            out = []
            for i in range(nxt, min(n, nxt + m - 1) + 1):
                out.append(SNMPvarbind(oid=ASN1_OID(f"{base}.{i}"), value=table[i - 1][0]))
                last_oid, nxt = f"{base}.{i}", i + 1
            if len(out) < m:
                out.append(SNMPvarbind(oid=ASN1_OID(last_oid), value=None, endOfMibView=0))
                done = True
            frame(AGENT, MANAGER, 161, port, SNMPresponse(id=req_id, varbindlist=out), rtt)
        else:
            frame(MANAGER, AGENT, port, 161, SNMPnext(id=req_id, varbindlist=bind), think if requests else 0)
            if nxt <= n:
                out = [SNMPvarbind(oid=ASN1_OID(f"{base}.{nxt}"), value=table[nxt - 1][0])]
                frame(AGENT, MANAGER, 161, port, SNMPresponse(id=req_id, varbindlist=out), rtt)
                last_oid, nxt = f"{base}.{nxt}", nxt + 1
            else:
                frame(AGENT, MANAGER, 161, port, SNMPresponse(id=req_id, error=2, error_index=1, varbindlist=bind), rtt)
                done = True
        req_id += 1
        requests += 1
    wrpcap(os.path.join(os.environ["SWR_ARTIFACTS"], "walk.pcap"), frames)
    return {"capture": "walk.pcap", "n_packets": len(frames), "requests": requests,
            "values": [v for _, v in table], "walk_time_us": t_us - int(scn["start_time_s"]) * 10**6}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
