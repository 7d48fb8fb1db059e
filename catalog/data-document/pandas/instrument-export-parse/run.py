"""Parse a seeded locale-formatted instrument export with pandas.read_csv (separator, decimal and thousands marks,
NA token, comment lines, date format) and its nested JSON metadata with pandas.json_normalize, then calibrate."""

import io
import json

import numpy as np
import pandas as pd

# separator, decimal mark, thousands mark, timestamp format
LOCALES = {"de": (";", ",", ".", "%d.%m.%Y %H:%M"), "us": (",", ".", ",", "%m/%d/%Y %H:%M")}
FLAGS = ["ok", "warn", "fail"]


def fmt_number(v, dec, thou):
    s = f"{v:,.3f}"
    return s.replace(",", "\0").replace(".", dec).replace("\0", thou)


def export_text(scn, rng):
    n, k = int(scn["n_rows"]), int(scn["n_instruments"])
    sep, dec, thou, date_format = LOCALES[str(scn["locale"])]
    minutes = np.cumsum(rng.integers(1, 120, n))
    instr = rng.integers(0, k, n)
    value = np.round(rng.lognormal(np.log(float(scn["value_scale"])), 1.0, n), 3)
    missing = rng.random(n) < float(scn["missing_fraction"])
    flag = rng.integers(0, 3, n)
    t0 = pd.Timestamp("2023-01-01 00:00")
    lines = ["# instrument export v2", "# units: mV", sep.join(["timestamp", "instrument", "value", "flag"])]
    for i in range(n):
        ts = (t0 + pd.Timedelta(minutes=int(minutes[i]))).strftime(date_format)
        val = str(scn["na_token"]) if missing[i] else fmt_number(value[i], dec, thou)
        val = f'"{val}"' if sep in val else val  # CSV quoting when the thousands mark is the separator
        lines.append(sep.join([ts, f"I{instr[i]}", val, FLAGS[flag[i]]]))
    return "\n".join(lines) + "\n"


def metadata_json(k, rng):
    gain = np.round(rng.uniform(0.9, 1.1, k), 4)
    offset = np.round(rng.normal(0.0, 1.0, k), 3)
    lat, lon = np.round(rng.uniform(-60.0, 60.0, k), 4), np.round(rng.uniform(-180.0, 180.0, k), 4)
    return json.dumps(
        [
            {
                "id": f"I{j}",
                "site": {"name": f"site-{j // 2}", "coords": {"lat": lat[j], "lon": lon[j]}},
                "calibration": {"gain": gain[j], "offset": offset[j]},
            }
            for j in range(k)
        ],
        default=float,
    )


def main(scn):
    rng = np.random.default_rng(int(scn["seed"]))
    text = export_text(scn, rng)
    meta_text = metadata_json(int(scn["n_instruments"]), rng)
    sep, dec, thou, date_format = LOCALES[str(scn["locale"])]
    df = pd.read_csv(
        io.StringIO(text),
        sep=sep,
        decimal=dec,
        thousands=thou,
        comment="#",
        na_values=[str(scn["na_token"])],
        keep_default_na=False,
        dtype={"instrument": str, "flag": str},
    )
    df["timestamp"] = pd.to_datetime(df["timestamp"], format=date_format)
    meta = pd.json_normalize(json.loads(meta_text), sep="_")
    df = df.merge(meta, left_on="instrument", right_on="id", how="left", validate="many_to_one")
    df["calibrated"] = df["calibration_gain"] * df["value"] + df["calibration_offset"]

    per = []
    for ins, g in df.groupby("instrument", sort=True):
        per.append(
            {
                "instrument": ins,
                "site": str(g["site_name"].iloc[0]),
                "n": int(len(g)),
                "n_missing": int(g["value"].isna().sum()),
                "mean_calibrated": float(g["calibrated"].mean()) if g["calibrated"].notna().any() else 0.0,
                "max_calibrated": float(g["calibrated"].max()) if g["calibrated"].notna().any() else 0.0,
                "n_fail": int((g["flag"] == "fail").sum()),
            }
        )
    site = df.groupby("site_name", sort=True).agg(lat=("site_coords_lat", "mean"), total=("calibrated", "sum"))
    return {
        "export_chars": len(text),
        "n_quoted_values": sum(1 for line in text.splitlines() if '"' in line),
        "n_rows": int(len(df)),
        "n_missing_values": int(df["value"].isna().sum()),
        "span_hours": float((df["timestamp"].max() - df["timestamp"].min()) / pd.Timedelta(hours=1)),
        "busiest_hour_count": int(df["timestamp"].dt.floor("h").value_counts().max()),
        "flag_counts": {f: int((df["flag"] == f).sum()) for f in FLAGS},
        "per_instrument": per,
        "site_totals": [
            {"site": s, "mean_latitude": float(r["lat"]), "sum_calibrated": float(r["total"])}
            for s, r in site.iterrows()
        ],
    }
