"""Settling of a solid sphere in a still fluid with Caleb Bell's `fluids`: terminal velocity by a chosen drag
correlation, the drag coefficient and Reynolds number there, and the velocity and distance fallen from rest
after a given time (the drag ODE integrated by fluids.integrate_drag_sphere).

Entry workflow: main(dict) -> dict; pure function of the scenario, no module state is mutated.
"""

import fluids

FLUIDS = {  # name -> (density kg/m^3, dynamic viscosity Pa s), at about 20 C
    "air": (1.204, 1.813e-5),
    "water": (998.2, 1.002e-3),
    "light-oil": (850.0, 2.0e-2),
}


def main(s: dict) -> dict:
    rho, mu = FLUIDS[str(s["fluid"])]
    d = float(s["diameter_um"]) * 1e-6
    rhop = float(s["particle_density_kg_m3"])
    method = str(s["drag_method"])
    t = float(s["time_s"])
    vt = fluids.v_terminal(D=d, rhop=rhop, rho=rho, mu=mu, Method=method)
    re_t = fluids.Reynolds(V=vt, D=d, rho=rho, mu=mu)
    v_t, x_t = fluids.integrate_drag_sphere(D=d, rhop=rhop, rho=rho, mu=mu, t=t, V=0.0, Method=method, distance=True)
    return {
        "archimedes": fluids.Archimedes(L=d, rhof=rho, rhop=rhop, mu=mu),
        "stokes_velocity_m_s": fluids.v_terminal(D=d, rhop=rhop, rho=rho, mu=mu, Method="Stokes"),
        "terminal_velocity_m_s": vt,
        "reynolds_terminal": re_t,
        "drag_coefficient_terminal": fluids.drag_sphere(Re=re_t, Method=method),
        "velocity_at_t_m_s": float(v_t),
        "distance_at_t_m": float(x_t),
        "fraction_of_terminal": float(v_t) / vt,
    }


if __name__ == "__main__":
    import json
    import sys

    json.dump(main(json.load(sys.stdin)), sys.stdout)
    sys.stdout.write("\n")
