"""A satellite's mean elements published as a CCSDS Orbit Mean-Elements Message (OMM, NDM/XML 2.0), the format
space-track and CelesTrak distribute instead of TLEs: sgp4's export_omm gives the fields, the XML is read back
with sgp4.omm.parse_xml and loaded with sgp4.omm.initialize, and the re-loaded satellite is propagated.

Entry workflow: main(dict) -> dict; builds new objects only.
"""

import io
import math
import os
import xml.etree.ElementTree as ET

from sgp4 import omm
from sgp4.api import WGS72, Satrec, jday
from sgp4.exporter import export_omm

SGP4_EPOCH0_JD = 2433281.5  # 1949 December 31 00:00 UT: origin of sgp4init's epoch argument
DEG = math.pi / 180.0
ARGP_DEG = 90.0
METADATA = ("OBJECT_NAME", "OBJECT_ID", "CENTER_NAME", "REF_FRAME", "TIME_SYSTEM", "MEAN_ELEMENT_THEORY")
MEAN = ("EPOCH", "MEAN_MOTION", "ECCENTRICITY", "INCLINATION", "RA_OF_ASC_NODE", "ARG_OF_PERICENTER", "MEAN_ANOMALY")
TLE = ("EPHEMERIS_TYPE", "CLASSIFICATION_TYPE", "NORAD_CAT_ID", "ELEMENT_SET_NO", "REV_AT_EPOCH", "BSTAR",
       "MEAN_MOTION_DOT", "MEAN_MOTION_DDOT")


def satellite(s: dict) -> Satrec:
    """sgp4init from the scenario's mean elements, with the TLE bookkeeping fields export_omm reads."""
    jd, fr = jday(int(s["epoch_year"]), 1, 1, 0, 0, 0.0)
    epoch_jd = jd + fr + float(s["epoch_day_of_year"]) - 1.0
    sat = Satrec()
    sat.sgp4init(WGS72, "i", int(s["satnum"]), epoch_jd - SGP4_EPOCH0_JD, float(s["bstar"]), 0.0, 0.0,
                 float(s["eccentricity"]), ARGP_DEG * DEG, float(s["inclination_deg"]) * DEG,
                 float(s["mean_anomaly_deg"]) * DEG, float(s["mean_motion_rev_day"]) * 2.0 * math.pi / 1440.0,
                 float(s["raan_deg"]) * DEG)
    sat.intldesg = f"{int(s['launch_year']) % 100:02d}001A"
    sat.classification = "U"
    sat.elnum = 999
    sat.revnum = 0
    return sat


def omm_xml(fields: dict) -> bytes:
    """NDM/XML: ndm > omm(id, version) > header, body > segment > metadata, data > meanElements, tleParameters."""
    root = ET.Element("ndm")
    doc = ET.SubElement(root, "omm", id="CCSDS_OMM_VERS", version="2.0")
    header = ET.SubElement(doc, "header")
    ET.SubElement(header, "CREATION_DATE").text = fields["EPOCH"]
    ET.SubElement(header, "ORIGINATOR").text = "SWR"
    segment = ET.SubElement(ET.SubElement(doc, "body"), "segment")
    groups = ((segment, "metadata", METADATA),)
    data = ET.SubElement(segment, "data")
    groups += ((data, "meanElements", MEAN), (data, "tleParameters", TLE))
    for parent, tag, keys in groups:
        node = ET.SubElement(parent, tag)
        for key in keys:
            ET.SubElement(node, key).text = str(fields[key])
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def main(s: dict) -> dict:
    fields = export_omm(satellite(s), f"SWR {int(s['satnum'])}")
    blob = omm_xml(fields)
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "elements.xml"), "wb") as fh:
        fh.write(blob)
    parsed = list(omm.parse_xml(io.BytesIO(blob)))
    sat = Satrec()
    omm.initialize(sat, parsed[0], WGS72)
    states = []
    for t in s["times_min"]:
        err, r, v = sat.sgp4_tsince(float(t))
        if err:
            raise RuntimeError(f"sgp4 error {err} at t={t} min")
        states.append({"t_min": float(t), "r_km": [float(c) for c in r], "v_km_s": [float(c) for c in v]})
    return {
        "omm": "elements.xml",
        "object_id": fields["OBJECT_ID"],
        "epoch": fields["EPOCH"],
        "parsed_epoch_jd": float(sat.jdsatepoch) + float(sat.jdsatepochF),
        "states": states,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
