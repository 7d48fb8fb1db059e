"""A DHCP client joining a LAN, built with scapy: the DISCOVER/OFFER/REQUEST/ACK exchange (BOOTP with DHCP
options, scapy.layers.dhcp) and the ARP address-conflict probes and announcement of RFC 5227 (scapy.layers.l2.ARP),
written as a pcapng capture with scapy.utils.wrpcapng."""

import ipaddress
import os
import random
from decimal import Decimal

from scapy.layers.dhcp import BOOTP, DHCP
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import ARP, Ether
from scapy.utils import mac2str, wrpcapng

SERVER_MAC, BROADCAST = "02:00:00:00:20:01", "ff:ff:ff:ff:ff:ff"


def main(scn):
    rng = random.Random(int(scn["seed"]))
    mac = "02:" + ":".join(f"{rng.randrange(256):02x}" for _ in range(5))
    xid = rng.randrange(1 << 32)
    prefix = int(scn["prefix_len"])
    net = ipaddress.ip_network(f"10.20.0.0/{prefix}")
    server, router = str(net.network_address + 1), str(net.network_address + 1)
    offered = str(net.network_address + rng.randint(2, net.num_addresses - 2))
    dns = [f"192.0.2.{53 + i}" for i in range(int(scn["n_dns"]))]
    bcast = bool(scn["broadcast_flag"])
    flags = 0x8000 if bcast else 0
    host = str(scn["hostname"])
    t_us, step = int(scn["start_time_s"]) * 10**6, int(scn["step_us"])
    frames = []

    def frame(pkt):
        nonlocal t_us
        pkt = Ether(bytes(pkt))  # lengths and checksums filled in
        pkt.time = Decimal(t_us) / 10**6
        frames.append(pkt)
        t_us += step

    def client(kind, extra):
        opts = [("message-type", kind), *extra, ("hostname", host), "end"]
        frame(Ether(src=mac, dst=BROADCAST) / IP(src="0.0.0.0", dst="255.255.255.255", ttl=64)
              / UDP(sport=68, dport=67) / BOOTP(op=1, chaddr=mac2str(mac), xid=xid, flags=flags) / DHCP(options=opts))

    def reply(kind):
        opts = [("message-type", kind), ("server_id", server), ("lease_time", int(scn["lease_time_s"])),
                ("subnet_mask", str(net.netmask)), ("router", router)]
        if dns:
            opts.append(("name_server", *dns))
        opts.append("end")
        dst_mac, dst_ip = (BROADCAST, "255.255.255.255") if bcast else (mac, offered)
        frame(Ether(src=SERVER_MAC, dst=dst_mac) / IP(src=server, dst=dst_ip, ttl=64) / UDP(sport=67, dport=68)
              / BOOTP(op=2, chaddr=mac2str(mac), xid=xid, flags=flags, yiaddr=offered, siaddr=server)
              / DHCP(options=opts))

    client("discover", [])
    reply("offer")
    client("request", [("requested_addr", offered), ("server_id", server)])
    reply("ack")
    for _ in range(int(scn["arp_probes"])):
        frame(Ether(src=mac, dst=BROADCAST) / ARP(op=1, hwsrc=mac, psrc="0.0.0.0", hwdst="00:00:00:00:00:00",
                                                  pdst=offered))
    frame(Ether(src=mac, dst=BROADCAST) / ARP(op=1, hwsrc=mac, psrc=offered, hwdst="00:00:00:00:00:00",
                                              pdst=offered))
    wrpcapng(os.path.join(os.environ["SWR_ARTIFACTS"], "join.pcapng"), frames)
    return {
        "capture": "join.pcapng",
        "n_packets": len(frames),
        "client_mac": mac,
        "leased_address": offered,
        "usable_hosts": net.num_addresses - 2,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
