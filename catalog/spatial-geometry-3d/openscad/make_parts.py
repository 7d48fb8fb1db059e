"""Writes the pattern STLs mould-cavity imports: three closed triangle meshes made with trimesh.creation (a pin, a
ring and a stepped boss), binary STL, in millimetres, each resting on z = 0 and centred on the z axis.

Run once with the catalog's Python (needs trimesh): `python make_parts.py`; the files are shipped.
"""
from pathlib import Path

import trimesh

HERE = Path(__file__).resolve().parent


def main() -> None:
    pin = trimesh.creation.capsule(height=16.0, radius=4.0, count=[12, 6])
    ring = trimesh.creation.torus(major_radius=9.0, minor_radius=3.0, major_sections=16, minor_sections=8)
    boss = trimesh.util.concatenate([trimesh.creation.cylinder(radius=8.0, height=6.0, sections=16)])
    top = trimesh.creation.cylinder(radius=4.0, height=8.0, sections=12)
    top.apply_translation((0.0, 0.0, 6.0))
    boss = boss.union(top, engine="manifold")
    for name, mesh in (("pin.stl", pin), ("ring.stl", ring), ("boss.stl", boss)):
        mesh.apply_translation((0.0, 0.0, -mesh.bounds[0][2]))
        mesh.export(HERE / "mould-cavity" / "data" / name, file_type="stl")
        print(name, len(mesh.faces), mesh.is_watertight, mesh.bounds.tolist())


if __name__ == "__main__":
    main()
