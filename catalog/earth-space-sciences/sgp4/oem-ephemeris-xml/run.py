"""A CCSDS Orbit Ephemeris Message (OEM, NDM/XML 2.0) generated from a TLE with sgp4: the TLE parsed with
Satrec.twoline2rv, its epoch as a UTC datetime (sgp4.conveniences.sat_epoch_datetime), states on a time grid from
Satrec.sgp4_array, written as OEM state vectors in the TEME frame, as a flight-dynamics team hands an ephemeris to a
ground-station scheduler.

Entry workflow: main(dict) -> dict; reads the chosen TLE file, writes one XML file to $SWR_ARTIFACTS.
"""

import datetime as dt
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
from sgp4.api import WGS72, Satrec
from sgp4.conveniences import sat_epoch_datetime

FMT = "%Y-%m-%dT%H:%M:%S.%f"


def main(s: dict) -> dict:
    lines = [ln.rstrip() for ln in Path(str(s["tle_file"])).read_text(encoding="ascii").splitlines() if ln.strip()]
    k = 3 * (int(s["satellite_index"]) % (len(lines) // 3))
    name = lines[k].strip()
    sat = Satrec.twoline2rv(lines[k + 1], lines[k + 2], WGS72)
    epoch = sat_epoch_datetime(sat).replace(tzinfo=None)
    t_min = float(s["start_offset_min"]) + np.arange(int(s["n_points"])) * float(s["step_min"])
    err, r, v = sat.sgp4_array(np.full(t_min.size, sat.jdsatepoch), sat.jdsatepochF + t_min / 1440.0)
    if np.any(err):
        raise RuntimeError("sgp4 error")
    stamps = [(epoch + dt.timedelta(minutes=float(t))).strftime(FMT) for t in t_min]
    root = ET.Element("oem", id="CCSDS_OEM_VERS", version="2.0")
    header = ET.SubElement(root, "header")
    ET.SubElement(header, "CREATION_DATE").text = epoch.strftime(FMT)
    ET.SubElement(header, "ORIGINATOR").text = "SWR"
    seg = ET.SubElement(ET.SubElement(root, "body"), "segment")
    meta = ET.SubElement(seg, "metadata")
    for key, val in (("OBJECT_NAME", name), ("OBJECT_ID", sat.intldesg), ("CENTER_NAME", "EARTH"),
                     ("REF_FRAME", "TEME"), ("TIME_SYSTEM", "UTC"), ("START_TIME", stamps[0]),
                     ("STOP_TIME", stamps[-1])):
        ET.SubElement(meta, key).text = val
    data = ET.SubElement(seg, "data")
    for i, stamp in enumerate(stamps):
        sv = ET.SubElement(data, "stateVector")
        ET.SubElement(sv, "EPOCH").text = stamp
        for key, val in zip(("X", "Y", "Z", "X_DOT", "Y_DOT", "Z_DOT"), list(r[i]) + list(v[i])):
            ET.SubElement(sv, key).text = repr(float(val))
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "ephemeris.xml"), "wb") as fh:
        fh.write(ET.tostring(root, encoding="utf-8", xml_declaration=True))
    radius = np.linalg.norm(r, axis=1)
    return {"oem": "ephemeris.xml", "object_name": name, "start_time": stamps[0], "stop_time": stamps[-1],
            "min_radius_km": float(radius.min()), "max_radius_km": float(radius.max())}


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
