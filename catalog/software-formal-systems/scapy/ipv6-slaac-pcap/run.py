"""An IPv6 host bringing up its address on a LAN, built with scapy: router solicitation and advertisement
(prefix information, MTU and link-layer options), stateless address autoconfiguration (EUI-64 interface id from
scapy.utils6, or a random one), duplicate address detection, neighbour discovery of a peer and ICMPv6 echoes
(scapy.layers.inet6); written as a classic pcap with scapy.utils.wrpcap."""

import ipaddress
import os
import random
import socket
from decimal import Decimal

from scapy.layers.inet6 import (
    ICMPv6EchoReply,
    ICMPv6EchoRequest,
    ICMPv6ND_NA,
    ICMPv6ND_NS,
    ICMPv6ND_RA,
    ICMPv6ND_RS,
    ICMPv6NDOptDstLLAddr,
    ICMPv6NDOptMTU,
    ICMPv6NDOptPrefixInfo,
    ICMPv6NDOptSrcLLAddr,
    IPv6,
)
from scapy.layers.l2 import Ether
from scapy.pton_ntop import inet_ntop, inet_pton
from scapy.utils import wrpcap
from scapy.utils6 import in6_getnsma, in6_getnsmac, in6_mactoifaceid

ROUTER_MAC, ROUTER_LL = "02:00:00:00:66:01", "fe80::1"
PEER_MAC = "02:00:00:00:66:02"


def nsma(addr):
    """Solicited-node multicast address and its MAC of an IPv6 address (RFC 4291, RFC 2464)."""
    group = in6_getnsma(inet_pton(socket.AF_INET6, addr))
    return inet_ntop(socket.AF_INET6, group), in6_getnsmac(group)


def main(scn):
    rng = random.Random(int(scn["seed"]))
    mac = "02:00:00:" + ":".join(f"{rng.randrange(256):02x}" for _ in range(3))
    eui = in6_mactoifaceid(mac).lower()
    link_local = str(ipaddress.IPv6Address(f"fe80::{eui}"))
    prefix = ipaddress.IPv6Network(str(scn["prefix"]))
    random_iid = ":".join(f"{rng.randrange(1 << 16):x}" for _ in range(4))  # drawn either way
    iid = random_iid if scn["privacy"] else eui
    address = str(ipaddress.IPv6Address(int(prefix.network_address) | int(ipaddress.IPv6Address("::" + iid))))
    peer = str(ipaddress.IPv6Address(int(prefix.network_address) | 0x2))
    t_us, step, rtt = int(scn["start_time_s"]) * 10**6, int(scn["step_us"]), int(scn["rtt_us"])
    frames = []

    def frame(pkt, delay):
        nonlocal t_us
        t_us += delay
        pkt = Ether(bytes(pkt))  # lengths and checksums filled in
        pkt.time = Decimal(t_us) / 10**6
        frames.append(pkt)

    frame(Ether(src=mac, dst="33:33:00:00:00:02") / IPv6(src=link_local, dst="ff02::2", hlim=255)
          / ICMPv6ND_RS() / ICMPv6NDOptSrcLLAddr(lladdr=mac), 0)
    frame(Ether(src=ROUTER_MAC, dst="33:33:00:00:00:01") / IPv6(src=ROUTER_LL, dst="ff02::1", hlim=255)
          / ICMPv6ND_RA(chlim=int(scn["hop_limit"]), routerlifetime=1800)
          / ICMPv6NDOptSrcLLAddr(lladdr=ROUTER_MAC) / ICMPv6NDOptMTU(mtu=int(scn["link_mtu"]))
          / ICMPv6NDOptPrefixInfo(prefix=str(prefix.network_address), prefixlen=64, L=1, A=1,
                                  validlifetime=int(scn["valid_lifetime_s"]),
                                  preferredlifetime=int(scn["valid_lifetime_s"]) // 2), rtt // 2)
    group, gmac = nsma(address)
    frame(Ether(src=mac, dst=gmac) / IPv6(src="::", dst=group, hlim=255) / ICMPv6ND_NS(tgt=address), step)
    group, gmac = nsma(peer)
    frame(Ether(src=mac, dst=gmac) / IPv6(src=address, dst=group, hlim=255) / ICMPv6ND_NS(tgt=peer)
          / ICMPv6NDOptSrcLLAddr(lladdr=mac), 1000 * step)
    frame(Ether(src=PEER_MAC, dst=mac) / IPv6(src=peer, dst=address, hlim=255) / ICMPv6ND_NA(R=0, S=1, O=1, tgt=peer)
          / ICMPv6NDOptDstLLAddr(lladdr=PEER_MAC), rtt // 2)
    hlim = int(scn["hop_limit"])
    for seq in range(1, int(scn["n_echo"]) + 1):
        data = bytes(rng.randrange(256) for _ in range(int(scn["echo_bytes"])))
        frame(Ether(src=mac, dst=PEER_MAC) / IPv6(src=address, dst=peer, hlim=hlim)
              / ICMPv6EchoRequest(id=0x5eed, seq=seq, data=data), step)
        frame(Ether(src=PEER_MAC, dst=mac) / IPv6(src=peer, dst=address, hlim=64)
              / ICMPv6EchoReply(id=0x5eed, seq=seq, data=data), rtt // 2)
    wrpcap(os.path.join(os.environ["SWR_ARTIFACTS"], "slaac.pcap"), frames)
    return {"capture": "slaac.pcap", "n_packets": len(frames), "link_local": link_local, "address": address,
            "solicited_node_group": nsma(address)[0]}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
