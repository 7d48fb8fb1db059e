"""A DHCPv6 client obtaining an address and a delegated prefix, built with scapy's DHCPv6 layer
(scapy.layers.dhcp6): Solicit/Advertise/Request/Reply, or Solicit/Reply with Rapid Commit, carrying client and server
DUIDs, IA_NA with an address, IA_PD with a delegated prefix and DNS options; written as pcapng with
scapy.utils.wrpcapng."""

import ipaddress
import os
import random
import tomllib
from decimal import Decimal
from pathlib import Path

from scapy.layers.dhcp6 import (
    DUID_LL,
    DUID_LLT,
    DHCP6_Advertise,
    DHCP6_Reply,
    DHCP6_Request,
    DHCP6_Solicit,
    DHCP6OptClientId,
    DHCP6OptDNSServers,
    DHCP6OptElapsedTime,
    DHCP6OptIA_NA,
    DHCP6OptIA_PD,
    DHCP6OptIAAddress,
    DHCP6OptIAPrefix,
    DHCP6OptOptReq,
    DHCP6OptRapidCommit,
    DHCP6OptServerId,
)
from scapy.layers.inet import UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.utils import wrpcapng
from scapy.utils6 import in6_mactoifaceid

CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
SERVER_MAC, SERVER_LL = "02:00:00:00:d6:01", "fe80::d6:1"
ADDRESS_POOL = ipaddress.IPv6Network("2001:db8:0:1::/64")
PD_POOL = ipaddress.IPv6Network("2001:db8:100::/40")


def main(scn):
    rng = random.Random(int(scn["seed"]))
    mac = "02:00:00:" + ":".join(f"{rng.randrange(256):02x}" for _ in range(3))
    ll = str(ipaddress.IPv6Address("fe80::" + in6_mactoifaceid(mac).lower()))  # modified EUI-64
    trid, iaid_na, iaid_pd = rng.randrange(1 << 24), rng.randrange(1 << 32), rng.randrange(1 << 32)
    address = str(ADDRESS_POOL.network_address + rng.randrange(1, 1 << 16))
    plen = int(scn["pd_length"])
    offset = rng.randrange(1 << (plen - 40)) << (128 - plen)
    prefix = ipaddress.IPv6Network((int(PD_POOL.network_address) + offset, plen))
    valid = int(scn["valid_lifetime_s"])
    preferred = valid // 2
    t1, t2 = preferred // 2, preferred * 4 // 5
    pd = bool(scn["prefix_delegation"])
    dns = [f"2001:db8::53:{i + 1}" for i in range(int(scn["n_dns"]))]
    t_us, step = int(scn["start_time_s"]) * 10**6, int(scn["step_us"])
    frames = []
    client_id = DHCP6OptClientId(duid=DUID_LL(lladdr=mac))
    server_id = DHCP6OptServerId(duid=DUID_LLT(lladdr=SERVER_MAC, timeval=int(CONSTANTS["SERVER_DUID_TIME"])))

    def frame(pkt):
        nonlocal t_us
        pkt = Ether(bytes(pkt))
        pkt.time = Decimal(t_us) / 10**6
        frames.append(pkt)
        t_us += step

    def from_client(msg, ia_times):
        body = msg(trid=trid) / client_id
        if msg is DHCP6_Request:
            body = body / server_id
        body = body / DHCP6OptElapsedTime(elapsedtime=0) / DHCP6OptIA_NA(iaid=iaid_na, T1=ia_times[0], T2=ia_times[1])
        if pd:
            body = body / DHCP6OptIA_PD(iaid=iaid_pd, T1=ia_times[0], T2=ia_times[1])
        if msg is DHCP6_Solicit and scn["rapid_commit"]:
            body = body / DHCP6OptRapidCommit()
        body = body / DHCP6OptOptReq(reqopts=[23])
        frame(Ether(src=mac, dst="33:33:00:01:00:02") / IPv6(src=ll, dst="ff02::1:2", hlim=1)
              / UDP(sport=546, dport=547)
              / body)

    def from_server(msg):
        body = msg(trid=trid) / client_id / server_id / DHCP6OptIA_NA(
            iaid=iaid_na, T1=t1, T2=t2, ianaopts=[DHCP6OptIAAddress(addr=address, preflft=preferred, validlft=valid)])
        if pd:
            body = body / DHCP6OptIA_PD(iaid=iaid_pd, T1=t1, T2=t2, iapdopt=[DHCP6OptIAPrefix(
                prefix=str(prefix.network_address), plen=plen, preflft=preferred, validlft=valid)])
        if msg is DHCP6_Reply and scn["rapid_commit"]:
            body = body / DHCP6OptRapidCommit()
        if dns:
            body = body / DHCP6OptDNSServers(dnsservers=dns)
        frame(Ether(src=SERVER_MAC, dst=mac) / IPv6(src=SERVER_LL, dst=ll, hlim=64) / UDP(sport=547, dport=546) / body)

    from_client(DHCP6_Solicit, (0, 0))
    if not scn["rapid_commit"]:
        from_server(DHCP6_Advertise)
        from_client(DHCP6_Request, (t1, t2))
    from_server(DHCP6_Reply)
    wrpcapng(os.path.join(os.environ["SWR_ARTIFACTS"], "dhcpv6.pcapng"), frames)
    return {
        "capture": "dhcpv6.pcapng", "n_packets": len(frames), "client_link_local": str(ipaddress.IPv6Address(ll)),
        "address": address, "delegated_prefix": str(prefix) if pd else "", "t1_s": t1, "t2_s": t2,
        "subnets_64": (1 << (64 - plen)) if pd else 0,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
