"""Probe: what periodictable computes for a few materials (masses, densities, neutron and X-ray scattering
length densities, attenuation, reflectivity), as one JSON object recorded from the original natively."""
import json

import numpy as np
import periodictable as pt
from periodictable import formula, neutron_sld, xray_sld
from periodictable.nsf import neutron_scattering
from periodictable.xsf import index_of_refraction, mirror_reflectivity


def floats(x):
    return [float(v) for v in np.ravel(x)]


materials = {"H2O": 1.0, "D2O": 1.11, "SiO2": 2.2, "Fe2O3": 5.24, "CaCO3": 2.71, "C6H12O6": 1.54}
out = {"mass": {}, "neutron_sld": {}, "xray_sld": {}, "neutron_scattering": {}}
for name, density in materials.items():
    f = formula(name, density=density)
    out["mass"][name] = f.mass
    out["neutron_sld"][name] = floats(neutron_sld(name, density=density, wavelength=4.75))
    out["xray_sld"][name] = floats(xray_sld(name, density=density, wavelength=pt.Cu.K_alpha))
    sld, xs, penetration = neutron_scattering(name, density=density, wavelength=1.798)
    out["neutron_scattering"][name] = floats(sld) + floats(xs) + [float(penetration)]
out["elements"] = {el.symbol: [el.mass, el.neutron.b_c, float(el.xray.sld(wavelength=pt.Cu.K_alpha)[0])]
                   for el in (pt.H, pt.C, pt.O, pt.Si, pt.Fe, pt.Ni, pt.Cu, pt.Au)}
out["energy_dependent_b_c"] = floats(pt.Gd.neutron.sld(wavelength=np.array([1.0, 1.8, 4.75]))[0])
out["index_of_refraction"] = [float(abs(n)) for n in index_of_refraction("SiO2", density=2.2, wavelength=np.array([1.0, 1.5418]))]
out["mirror_reflectivity"] = floats(mirror_reflectivity(compound="Ni", density=8.9, wavelength=1.5418,
                                                        angle=np.array([0.1, 0.2, 0.3, 0.5])))
print(json.dumps(out, sort_keys=True))
