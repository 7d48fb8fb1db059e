"""Conversions across dimensions with pint contexts: spectroscopy (refractive index), boltzmann,
energy and chemistry."""

import pint

UREG = pint.UnitRegistry()


def mag(q, unit):
    return float(q.to(unit).magnitude)


def main(scn):
    photon = UREG.Quantity(float(scn["photon_value"]), str(scn["photon_unit"]))
    n = float(scn["refractive_index"])
    with UREG.context("sp", n=n):
        spectral = {
            "wavelength_nm": mag(photon, "nm"),
            "frequency_THz": mag(photon, "THz"),
            "energy_eV": mag(photon, "eV"),
            "wavenumber_per_cm": mag(photon, "1/cm"),
        }
    with UREG.context("sp", "boltzmann", n=n):
        spectral["temperature_K"] = mag(photon, "K")
    with UREG.context("sp", "energy", n=n):
        spectral["molar_energy_kJ_per_mol"] = mag(photon, "kJ/mol")
        spectral["mass_equivalent_kg"] = mag(photon, "kg")

    mw = UREG.Quantity(float(scn["molar_mass_g_per_mol"]), "g/mol")
    volume = UREG.Quantity(float(scn["volume_mL"]), "mL")
    solvent = UREG.Quantity(float(scn["solvent_mass_g"]), "g")
    conc = UREG.Quantity(float(scn["concentration_mM"]), "mmol/L")
    with UREG.context("chemistry", mw=mw, volume=volume, solvent_mass=solvent):
        amount = conc.to("mmol")
        molality = conc.to("mol/kg")
        chemistry = {
            "amount_mmol": float(amount.magnitude),
            "mass_mg": mag(amount, "mg"),
            "mass_concentration_g_per_L": mag(conc, "g/L"),
            "molality_mol_per_kg": float(molality.magnitude),
            "mass_fraction_ppm": mag(molality, "ppm"),
        }
    return {"spectral": spectral, "chemistry": chemistry}
