"""Modified tryptic peptide with pyteomics: formula, masses, precursor and fragment m/z, 13C envelope, pI, RT."""

import json
import random
import sys
import tomllib
from pathlib import Path

from pyteomics import achrom, electrochem, mass


# The constants the instruction states, read from workflow.toml's [constants] (one source for both).
CONSTANTS = tomllib.loads(Path(__file__).with_name("workflow.toml").read_text())["constants"]

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"
# Unimod monoisotopic deltas, 6 decimals
MOD_MASS = {"cam": CONSTANTS["CAM_DELTA"], "ox": CONSTANTS["OX_DELTA"], "p": CONSTANTS["PHOSPHO_DELTA"]}
MOD_COMP = {"cam": {"H": 3, "C": 2, "N": 1, "O": 1}, "ox": {"O": 1}, "p": {"H": 1, "P": 1, "O": 3}}
ACETYL = {"H": 3, "C": 2, "O": 1}
ELEMENTS = ("C", "H", "N", "O", "P", "S")
FRAGMENT_IONS = {"b/y": ("b", "y"), "a/x": ("a", "x"), "c/z-dot": ("c", "z-dot")}
PK_TABLES = {"lehninger": {}, "rodwell": {"pK": electrochem.pK_rodwell},
             "sillero": {"pK": electrochem.pK_sillero}, "dawson": {"pK": electrochem.pK_dawson},
             "bjellqvist": {"pK": electrochem.pK_bjellqvist, "pK_nterm": electrochem.pK_nterm_bjellqvist,
                            "pK_cterm": electrochem.pK_cterm_bjellqvist}}
RC_TABLES = {"guo_ph2_0": achrom.RCs_guo_ph2_0, "guo_ph7_0": achrom.RCs_guo_ph7_0,
             "meek_ph2_1": achrom.RCs_meek_ph2_1, "meek_ph7_4": achrom.RCs_meek_ph7_4,
             "browne_tfa": achrom.RCs_browne_tfa}


def make_peptide(seed: int, length: int) -> str:
    """A tryptic-like peptide: length-1 uniform residues, then K or R."""
    rng = random.Random(seed)
    return "".join(rng.choices(AMINO_ACIDS, k=length - 1)) + rng.choice("KR")


def modx(seq: str, acetyl: bool, cam: bool, ox: bool, phospho: int) -> list[str]:
    """The peptide as modX tokens with termini: the first `phospho` S/T/Y are phosphorylated."""
    tokens, left = [], phospho
    for aa in seq:
        if aa == "C" and cam:
            tokens.append("camC")
        elif aa == "M" and ox:
            tokens.append("oxM")
        elif aa in "STY" and left > 0:
            tokens.append("p" + aa)
            left -= 1
        else:
            tokens.append(aa)
    return ["Ac-" if acetyl else "H-", *tokens, "-OH"]


def tables() -> tuple[dict, dict]:
    """Residue masses (fragment_series) and compositions (formula, isotopes) extended by the modifications."""
    aa_mass = dict(mass.std_aa_mass, **MOD_MASS, **{"Ac-": mass.calculate_mass(formula="C2H3O")})
    aa_comp = dict(mass.std_aa_comp, **{k: mass.Composition(v) for k, v in MOD_COMP.items()},
                   **{"Ac-": mass.Composition(ACETYL)})
    return aa_mass, aa_comp


def envelope(comp: mass.Composition, threshold: float) -> list[dict]:
    """13C isotopologues (only carbon varies) above `threshold`, by number of 13C (0, 1, ...)."""
    peaks = []
    for iso, abundance in mass.isotopologues(composition=comp, report_abundance=True, overall_threshold=threshold,
                                             elements_with_isotopes=["C"]):
        peaks.append((int(iso.get("C[13]", 0)), float(mass.calculate_mass(composition=iso)), float(abundance)))
    return [{"mass": m, "abundance": a} for _, m, a in sorted(peaks)]


def main(scn: dict) -> dict:
    """One scenario in, the peptide's mass-spectrometry and chromatography figures out."""
    seq = make_peptide(int(scn["seed"]), int(scn["length"]))
    tokens = modx(seq, scn["n_term"] == "acetyl", bool(scn["carbamidomethyl_cys"]), bool(scn["oxidized_met"]),
                  int(scn["phospho_sites"]))
    aa_mass, aa_comp = tables()
    pep = "".join(tokens)
    comp = mass.Composition(parsed_sequence=tokens, aa_comp=aa_comp)
    zmax = int(scn["precursor_charge_max"])
    frags = mass.fragment_series(pep, ion_types=FRAGMENT_IONS[str(scn["fragment_ions"])],
                                 maxcharge=int(scn["fragment_charge_max"]), aa_mass=aa_mass)
    pk = PK_TABLES[str(scn["pk_table"])]
    return {
        "sequence": seq,
        "modx": pep,
        "formula": {el: int(comp.get(el, 0)) for el in ELEMENTS},
        "monoisotopic_mass": float(mass.calculate_mass(composition=comp)),
        "average_mass": float(mass.calculate_mass(composition=comp, average=True)),
        "precursor_mz": [float(mass.calculate_mass(composition=comp, charge=z)) for z in range(1, zmax + 1)],
        "fragments": [{"label": label, "mz": float(mz)} for series in frags.values() for label, mz in series.items()],
        "isotope_envelope": envelope(comp, float(scn["isotope_threshold"])),
        "pI": float(electrochem.pI(seq, **pk)),
        "charge_at_pH": float(electrochem.charge(seq, float(scn["pH"]), **pk)),
        "gravy": float(electrochem.gravy(seq)),
        "retention_time": float(achrom.calculate_RT(seq, RC_TABLES[str(scn["rc_table"])])),
    }


if __name__ == "__main__":
    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
