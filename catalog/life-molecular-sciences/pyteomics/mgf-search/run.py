"""A miniature database search: simulated MS/MS spectra written to an MGF file with pyteomics.mgf.write, read back
by title through the indexed reader (mgf.IndexedMGF), and matched against a peptide library by precursor mass
(ppm window) and shared b/y fragment peaks (pyteomics.mass.fast_mass ion masses)."""

import bisect
import csv
import os
import random
import tempfile

from pyteomics import mass, mgf

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
PROTON = mass.nist_mass["H+"][0][0]


def fragments(pep: str) -> list[float]:
    """Singly charged b1..b(n-1) and y1..y(n-1) m/z, sorted."""
    ions = [mass.fast_mass(pep[:i], ion_type="b", charge=1) for i in range(1, len(pep))]
    ions += [mass.fast_mass(pep[-i:], ion_type="y", charge=1) for i in range(1, len(pep))]
    return sorted(ions)


def simulate(scn: dict) -> tuple[list[str], list[dict], list[int]]:
    rng = random.Random(int(scn["seed"]))
    library = ["".join(rng.choices(AMINO_ACIDS, k=rng.randint(7, 20) - 1)) + rng.choice("KR")
               for _ in range(int(scn["n_library"]))]
    spectra, truth = [], []
    ppm, detect = float(scn["mass_error_ppm"]), float(scn["detection_prob"])
    for s in range(int(scn["n_spectra"])):
        src = rng.randrange(len(library))
        pep = library[src]
        z = rng.randint(2, 3)
        peaks = [(mz * (1 + rng.gauss(0.0, ppm) * 1e-6), rng.uniform(10.0, 1000.0))
                 for mz in fragments(pep) if rng.random() < detect]
        top = mass.fast_mass(pep) + PROTON
        peaks += [(rng.uniform(100.0, top), rng.uniform(1.0, 300.0)) for _ in range(int(scn["noise_peaks"]))]
        peaks.sort()
        precursor = mass.fast_mass(pep, charge=z) * (1 + rng.gauss(0.0, ppm) * 1e-6)
        spectra.append({"m/z array": [p[0] for p in peaks], "intensity array": [p[1] for p in peaks],
                        "params": {"title": f"spec{s:03d}", "pepmass": precursor, "charge": [z]}})
        truth.append(src)
    return library, spectra, truth


def main(scn: dict) -> dict:
    library, spectra, truth = simulate(scn)
    prec_tol, frag_tol = float(scn["precursor_tol_ppm"]), float(scn["fragment_tol_da"])
    lib_mass = [mass.fast_mass(p) for p in library]
    lib_frags = [fragments(p) for p in library]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "spectra.mgf")
        mgf.write(spectra, path)
        with mgf.IndexedMGF(path) as reader:
            for s, src in enumerate(truth):
                spec = reader.get_by_id(f"spec{s:03d}")
                z = int(spec["params"]["charge"][0])
                neutral = float(spec["params"]["pepmass"][0]) * z - z * PROTON
                peaks = sorted(float(v) for v in spec["m/z array"])
                best, best_score = -1, -1
                for i, m in enumerate(lib_mass):
                    if abs(neutral - m) / m * 1e6 > prec_tol:
                        continue
                    score = 0
                    for ion in lib_frags[i]:
                        k = bisect.bisect_left(peaks, ion - frag_tol)
                        score += k < len(peaks) and peaks[k] <= ion + frag_tol
                    if score > best_score:
                        best, best_score = i, score
                rows.append([f"spec{s:03d}", library[best] if best >= 0 else "", max(best_score, 0),
                             int(best == src), len(peaks)])
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "psms.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["title", "peptide", "matched_ions", "correct", "n_peaks"])
        w.writerows(rows)
    identified = [r for r in rows if r[1]]
    return {
        "psm_table": "psms.csv",
        "n_identified": len(identified),
        "n_correct": sum(r[3] for r in rows),
        "mean_matched_ions": sum(r[2] for r in identified) / len(identified) if identified else 0.0,
    }
