"""Synthesize a modulated, filtered tone with SoX and report SoX's `stat` and `stats` measurements."""

import math
import subprocess

STAT_KEYS = {
    "Samples read": "samples_read", "Length (seconds)": "length_s", "Maximum amplitude": "max_amplitude",
    "Minimum amplitude": "min_amplitude", "Midline amplitude": "midline_amplitude",
    "Mean    norm": "mean_norm", "Mean    amplitude": "mean_amplitude", "RMS     amplitude": "rms_amplitude",
    "Maximum delta": "max_delta", "Minimum delta": "min_delta", "Mean    delta": "mean_delta",
    "RMS     delta": "rms_delta", "Rough   frequency": "rough_frequency_hz",
    "Volume adjustment": "volume_adjustment",
}
STATS_KEYS = {"DC offset": "dc_offset", "Pk lev dB": "peak_level_db", "RMS lev dB": "rms_level_db",
              "RMS Pk dB": "rms_peak_db", "Crest factor": "crest_factor", "Flat factor": "flat_factor"}


def command(scn):
    rate = int(scn["rate"])
    dur = float(scn["duration_s"])
    cutoff = float(scn["lowpass_fraction"]) * rate / 2.0
    return [
        "sox", "-R", "-r", str(rate), "-n", "-n",
        "synth", f"{dur:.6f}", str(scn["waveform"]), f"{float(scn['freq_hz']):.6f}",
        "synth", f"{dur:.6f}", "sine", "amod", f"{float(scn['am_freq_hz']):.6f}", f"{float(scn['am_offset_pct']):.6f}",
        "vol", f"{float(scn['volume']):.6f}",
        "lowpass", f"{cutoff:.6f}",
        "fade", "q", f"{float(scn['fade_s']):.6f}", f"{dur:.6f}", f"{float(scn['fade_s']):.6f}",
        "stat", "stats",
    ]


def parse(text, keys, sep):
    out = {}
    for line in text.splitlines():
        for label, key in keys.items():
            if line.startswith(label):
                rest = line[len(label):].lstrip(sep).strip()
                out[key] = float(rest.split()[0])
    return out


def main(scn):
    proc = subprocess.run(command(scn), capture_output=True, text=True, check=True)
    err = proc.stderr
    stat = parse(err, STAT_KEYS, ":")
    stats = parse(err, STATS_KEYS, " ")
    missing = [k for k in list(STAT_KEYS.values()) + list(STATS_KEYS.values()) if k not in {**stat, **stats}]
    if missing or not all(math.isfinite(v) for v in {**stat, **stats}.values()):
        raise RuntimeError(f"unexpected sox output (missing {missing}):\n{err}")
    return {"stat": stat, "stats": stats}
