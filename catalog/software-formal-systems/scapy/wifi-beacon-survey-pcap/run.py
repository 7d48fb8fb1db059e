"""A Wi-Fi site survey built with scapy's 802.11 layers (scapy.layers.dot11: RadioTap, Dot11, Dot11Beacon and
information elements): access points beaconing at their target beacon transmission times, received signal strength
from a log-distance path-loss model, a monitor-mode sniffer on one channel; written as a pcap with RadioTap link type
by scapy.utils.wrpcap."""

import math
import os
import random
import tomllib
from decimal import Decimal
from pathlib import Path

from scapy.layers.dot11 import Dot11, Dot11Beacon, Dot11Elt, RadioTap
from scapy.utils import wrpcap

CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]
FREQ_MHZ = {1: 2412, 6: 2437, 11: 2462}
RATES = bytes([0x82, 0x84, 0x8B, 0x96])  # 1, 2, 5.5, 11 Mbps, basic


def access_points(scn, rng):
    aps = []
    for i in range(int(scn["n_aps"])):
        bssid = "02:" + ":".join(f"{rng.randrange(256):02x}" for _ in range(5))
        channel = rng.choice([1, 6, 11])
        distance = rng.uniform(float(scn["min_distance_m"]), float(scn["max_distance_m"]))
        loss = CONSTANTS["PATH_LOSS_1M_DB"] + 10.0 * float(scn["path_loss_exponent"]) * math.log10(distance)
        aps.append({
            "bssid": bssid, "ssid": f"{scn['ssid_prefix']}-{i}", "channel": channel,
            "rssi": round(float(scn["tx_power_dbm"]) - loss),
            "privacy": rng.random() < 0.5,
            "first_us": rng.randrange(int(scn["beacon_interval_tu"]) * 1024),
            "seq": rng.randrange(4096),
            "tsf": rng.randrange(1 << 40),
        })
    return aps


def main(scn):
    rng = random.Random(int(scn["seed"]))
    aps = access_points(scn, rng)
    period = int(scn["beacon_interval_tu"]) * 1024
    span = int(scn["duration_ms"]) * 1000
    t0 = int(scn["start_time_s"]) * 10**6
    events = sorted((t, i) for i, ap in enumerate(aps) if ap["channel"] == int(scn["listen_channel"])
                    for t in range(ap["first_us"], span, period))
    frames, counts = [], {}
    for t, i in events:
        ap = aps[i]
        seq = (ap["seq"] + counts.get(i, 0)) % 4096
        counts[i] = counts.get(i, 0) + 1
        pkt = (RadioTap(present="Flags+Rate+Channel+dBm_AntSignal", Flags=0, Rate=2,
                        ChannelFrequency=FREQ_MHZ[ap["channel"]], ChannelFlags="CCK+2GHz", dBm_AntSignal=ap["rssi"])
               / Dot11(type=0, subtype=8, addr1="ff:ff:ff:ff:ff:ff", addr2=ap["bssid"], addr3=ap["bssid"], SC=seq << 4)
               / Dot11Beacon(timestamp=ap["tsf"] + t, beacon_interval=int(scn["beacon_interval_tu"]),
                             cap="ESS+privacy" if ap["privacy"] else "ESS")
               / Dot11Elt(ID="SSID", info=ap["ssid"].encode()) / Dot11Elt(ID="Rates", info=RATES)
               / Dot11Elt(ID="DSset", info=bytes([ap["channel"]])))
        pkt = RadioTap(bytes(pkt))
        pkt.time = Decimal(t0 + t) / 10**6
        frames.append(pkt)
    wrpcap(os.path.join(os.environ["SWR_ARTIFACTS"], "survey.pcap"), frames, linktype=127)
    heard = [ap for i, ap in enumerate(aps) if i in counts]
    best = max(heard, key=lambda ap: (ap["rssi"], ap["bssid"])) if heard else None
    return {
        "capture": "survey.pcap",
        "beacons": len(frames),
        "heard": sorted(({"bssid": ap["bssid"], "ssid": ap["ssid"], "rssi_dbm": ap["rssi"], "beacons": counts[i]}
                         for i, ap in enumerate(aps) if i in counts), key=lambda d: d["bssid"]),
        "strongest_bssid": best["bssid"] if best else None,
        "channel_load": [sum(1 for ap in aps if ap["channel"] == c) for c in (1, 6, 11)],
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
