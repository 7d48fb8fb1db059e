"""Hidden cases from a seed: perturbed hexahedral, tetrahedral and mixed blocks, clamped or stretched."""
import json
import sys

import numpy as np

from meshes import block, cantilever, stretched


def cases(seed: int) -> list[dict]:
    rng = np.random.default_rng(1000 + seed)
    E, nu = float(rng.choice([70e3, 210e3, 2.0e5])), float(rng.choice([0.25, 0.3, 0.33]))
    models = [
        ("hex-cantilever", cantilever(rng, block(rng, (6, 2, 2), (6.0, 1.0, 1.5), "hex", first_id=10, id_step=3),
                                      E, nu, 100.0)),
        ("hex-stretch", stretched(rng, block(rng, (3, 3, 2), (2.0, 2.0, 1.0), "hex", jitter=0.2), E, 0.45, 1e-3)),
        ("tet-cantilever", cantilever(rng, block(rng, (4, 2, 2), (4.0, 1.0, 1.0), "tet"), E, nu, 50.0)),
        ("mixed-cantilever", cantilever(rng, block(rng, (4, 2, 2), (8.0, 2.0, 1.0), "mixed", first_id=101),
                                        E, nu, 200.0)),
        ("tet-stretch", stretched(rng, block(rng, (2, 2, 3), (1.0, 1.0, 2.0), "tet", jitter=0.1), E, nu, -2e-3)),
    ]
    reorder(np.random.default_rng(2000 + seed), models[0][1], models[2][1])
    return [{"id": f"{name}-{seed}", "input": m} for name, m in models]


def reorder(rng: np.random.Generator, shuffled: dict, split: dict) -> None:
    """Input conventions the spec states and block meshes never show: nodes listed out of id order
    (displacements follow the input order), and a load given as several entries on one (node, dof) (they
    add up). Applied after every model is drawn, so that the models' own draws stay as they were."""
    shuffled["nodes"] = [shuffled["nodes"][k] for k in rng.permutation(len(shuffled["nodes"]))]
    loads = []
    for node, dof, value in split["loads"]:
        part = float(np.round(value * rng.uniform(0.2, 0.8), 6))
        loads += [[node, dof, part], [node, dof, float(np.round(value - part, 6))]]
    split["loads"] = loads


if __name__ == "__main__":
    print(json.dumps({"cases": cases(int(json.load(sys.stdin).get("seed", 0)))}))
