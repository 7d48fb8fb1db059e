"""User-defined dimensions, units, prefixes and a parametrised context in a pint registry: a biologic
dose calculation."""

import pint


def registry(vial_ml):
    """A fresh registry per run: the vial definition depends on the scenario."""
    ureg = pint.UnitRegistry()
    ureg.define("international_unit = [bioactivity] = IU")
    ureg.define("cell = [cell_count]")
    ureg.define("myria- = 1e4")
    ureg.define(f"vial = {vial_ml!r} * mL")
    ctx = pint.Context("activity", defaults={"sa": 1})
    ctx.add_transformation("[bioactivity]", "[mass]", lambda reg, x, sa: x / sa)
    ctx.add_transformation("[mass]", "[bioactivity]", lambda reg, x, sa: x * sa)
    ureg.add_context(ctx)
    return ureg


def main(scn):
    ureg = registry(float(scn["vial_ml"]))
    Q = ureg.Quantity
    out_unit = str(scn["dose_unit"])
    dose = (Q(float(scn["dose_kIU_per_kg"]), "kIU/kg") * Q(float(scn["body_mass"]), str(scn["mass_unit"]))).to(out_unit)
    sa = Q(float(scn["specific_activity_IU_per_mg"]), "IU/mg")
    per_vial = Q(float(scn["mg_per_vial"]), "mg/vial")
    cells = (Q(float(scn["cell_density"]), "myriacell/mL") * Q(float(scn["culture_ml"]), "mL")).to("Mcell")
    with ureg.context("activity", sa=sa):
        dose_mass = dose.to("mg")
        stock = (per_vial.to("mg/mL") * sa).to("kIU/mL")
        vial_activity = Q(1.0, "vial").to("mL") * stock
    vials = (dose_mass / per_vial).to("vial")
    per_cell = (dose / cells).to("mIU/cell")
    return {
        "dose": {"magnitude": float(dose.magnitude), "units": str(dose.units), "pretty": format(dose, ".5g~P")},
        "dose_mass_mg": float(dose_mass.magnitude),
        "stock_kIU_per_mL": float(stock.magnitude),
        "vial_activity_kIU": float(vial_activity.to("kIU").magnitude),
        "vials_needed": float(vials.magnitude),
        "culture_cells_Mcell": float(cells.magnitude),
        "dose_per_cell_mIU": float(per_cell.magnitude),
        "per_cell_pretty": format(per_cell, ".4g~P"),
    }
