"""A protein-level identification report from an mzTab file with pyteomics: simulated search results are written in
the HUPO-PSI mzTab 1.0 text format, read back with pyteomics.mztab.MzTab (metadata, protein and PSM sections as
tables), filtered by the search engine's expect value, and summarised per protein (PSMs, distinct peptides, sequence
coverage with parser.coverage, precursor mass error)."""

import csv
import os
import random
import statistics
import tempfile

from pyteomics import mass, mztab, parser

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
WEIGHTS = (8.25, 1.38, 5.46, 6.72, 3.86, 7.07, 2.27, 5.91, 5.80, 9.65,
           2.41, 4.06, 4.74, 3.93, 5.53, 6.65, 5.36, 6.86, 1.10, 2.92)
MTD = ("MTD\tmzTab-version\t1.0.0", "MTD\tmzTab-mode\tSummary", "MTD\tmzTab-type\tIdentification",
       "MTD\tdescription\tsimulated search", "MTD\tms_run[1]-location\tfile:///run1.mzML",
       "MTD\tpsm_search_engine_score[1]\t[MS, MS:1001330, X!Tandem:expect, ]")
PRH = "PRH\taccession\tdescription\ttaxid\tspecies\tdatabase\tdatabase_version\tsearch_engine\tambiguity_members\t" \
      "modifications"
PSH = "PSH\tsequence\tPSM_ID\taccession\tunique\tdatabase\tdatabase_version\tsearch_engine\tsearch_engine_score[1]\t" \
      "modifications\tretention_time\tcharge\texp_mass_to_charge\tcalc_mass_to_charge\tspectra_ref\tpre\tpost\tstart\tend"
ENGINE = "[MS, MS:1001476, X!Tandem, ]"


def simulate(scn: dict) -> tuple[list[str], list[tuple]]:
    rng = random.Random(int(scn["seed"]))
    proteins = ["M" + "".join(rng.choices(AMINO_ACIDS, weights=WEIGHTS, k=rng.randint(100, 300) - 1))
                for _ in range(int(scn["n_proteins"]))]
    digests = [sorted(parser.cleave(p, parser.expasy_rules["trypsin"], min_length=6, max_length=25, regex=True))
               for p in proteins]
    psms = []
    for i in range(int(scn["n_psms"])):
        p = rng.randrange(len(proteins))
        pep = rng.choice(digests[p])
        z = rng.randint(2, 3)
        calc = mass.fast_mass(pep, charge=z)
        exp = calc * (1 + rng.gauss(0.0, float(scn["mass_error_sd_ppm"])) * 1e-6)
        psms.append((pep, i + 1, f"P{p:03d}", rng.uniform(-6.0, 0.0), rng.uniform(5.0, 60.0), z, exp, calc))
    return proteins, psms


def write_mztab(path: str, proteins: list[str], psms: list[tuple]) -> None:
    lines = list(MTD) + ["", PRH]
    lines += [f"PRT\tP{k:03d}\tsimulated protein {k}\t9606\tHomo sapiens\tsimdb\t1\t{ENGINE}\tnull\tnull"
              for k in range(len(proteins))]
    lines += ["", PSH]
    for pep, pid, acc, log_e, rt, z, exp, calc in psms:
        lines.append(f"PSM\t{pep}\t{pid}\t{acc}\tnull\tsimdb\t1\t{ENGINE}\t{10 ** log_e!r}\tnull\t{rt!r}\t{z}\t{exp!r}\t"
                     f"{calc!r}\tms_run[1]:scan={pid}\tnull\tnull\tnull\tnull")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")


def main(scn: dict) -> dict:
    proteins, psms = simulate(scn)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "search.mzTab")
        write_mztab(path, proteins, psms)
        tab = mztab.MzTab(path)
        table = tab.spectrum_match_table
        n_listed = len(tab.protein_table)
    passing = table[table["search_engine_score[1]"].astype(float) <= float(scn["max_expect"])]
    rows = []
    for k, seq in enumerate(proteins):
        hits = passing[passing["accession"] == f"P{k:03d}"]
        peps = sorted(set(hits["sequence"]))
        ppm = [(float(e) - float(c)) / float(c) * 1e6 for e, c in zip(hits["exp_mass_to_charge"], hits["calc_mass_to_charge"])]
        rows.append([f"P{k:03d}", len(seq), len(hits), len(peps), float(parser.coverage(seq, peps)) if peps else 0.0,
                     statistics.median(abs(v) for v in ppm) if ppm else 0.0])
    with open(os.path.join(os.environ["SWR_ARTIFACTS"], "protein_report.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["accession", "length", "psms", "distinct_peptides", "coverage", "median_abs_ppm"])
        w.writerows(rows)
    return {
        "protein_report": "protein_report.csv",
        "mztab_version": str(tab.version),
        "n_proteins_listed": n_listed,
        "n_psms": len(table),
        "n_psms_passing": len(passing),
        "n_proteins_identified": sum(r[2] > 0 for r in rows),
    }
