"""Reading the bounded ASCII DXF subset of spec.md: the ENTITIES section's LINE, CIRCLE, ARC and LWPOLYLINE,
keyed by handle; every other section, entity type and group code is skipped."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class DxfError(ValueError):
    """The DXF text is not in the subset (bad group code, missing coordinate)."""


@dataclass
class Entity:
    """One drawing entity: its type, handle and the group values that define its geometry."""

    kind: str
    handle: str
    values: dict[int, float] = field(default_factory=dict)
    vertices: list[list[float]] = field(default_factory=list)  # LWPOLYLINE: [x, y, bulge]
    closed: bool = False


def tag_pairs(text: str) -> list[tuple[int, str]]:
    """The (group code, value) pairs: a code line then a value line, surrounding blanks stripped."""
    lines = text.splitlines()
    if len(lines) % 2:
        lines = lines[:-1] if not lines[-1].strip() else lines
    pairs = []
    for i in range(0, len(lines) - 1, 2):
        try:
            code = int(lines[i].strip())
        except ValueError:
            raise DxfError(f"line {i + 1}: group code {lines[i].strip()!r} is not an integer") from None
        pairs.append((code, lines[i + 1].strip()))
    return pairs


def entity_groups(pairs: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
    """The tag groups of the ENTITIES section, one per entity (each starts with its code-0 tag)."""
    groups: list[list[tuple[int, str]]] = []
    inside = False
    for i, (code, value) in enumerate(pairs):
        if code == 0 and value == "SECTION":
            inside = i + 1 < len(pairs) and pairs[i + 1] == (2, "ENTITIES")
            continue
        if not inside:
            continue
        if code == 0 and value in ("ENDSEC", "EOF"):
            inside = False
        elif code == 0:
            groups.append([(code, value)])
        elif groups:
            groups[-1].append((code, value))
    return groups


def parse_entity(group: list[tuple[int, str]]) -> Entity | None:
    """An entity of the subset from its tags, or None for a type outside it."""
    kind = group[0][1]
    if kind not in ("LINE", "CIRCLE", "ARC", "LWPOLYLINE"):
        return None
    ent = Entity(kind, "")
    for code, value in group[1:]:
        if code == 5:
            ent.handle = value.upper()
        elif kind == "LWPOLYLINE" and code in (10, 20, 42):
            _poly_tag(ent, code, float(value))
        elif kind == "LWPOLYLINE" and code == 70:
            ent.closed = int(value) == 1
        elif code in (10, 20, 11, 21, 40, 50, 51):
            ent.values[code] = float(value)
    _require(ent)
    return ent


def _poly_tag(ent: Entity, code: int, value: float) -> None:
    if code == 10:
        ent.vertices.append([value, float("nan"), 0.0])
    elif not ent.vertices:
        raise DxfError(f"LWPOLYLINE {ent.handle}: group {code} before the first vertex")
    else:
        ent.vertices[-1][1 if code == 20 else 2] = value


def _require(ent: Entity) -> None:
    need = {"LINE": (10, 20, 11, 21), "CIRCLE": (10, 20, 40), "ARC": (10, 20, 40, 50, 51), "LWPOLYLINE": ()}[ent.kind]
    missing = [c for c in need if c not in ent.values]
    if missing or not ent.handle:
        raise DxfError(f"{ent.kind} {ent.handle or '(no handle)'}: missing group code(s) {missing or [5]}")
    if ent.kind == "LWPOLYLINE" and (len(ent.vertices) < 2 or any(v[1] != v[1] for v in ent.vertices)):
        raise DxfError(f"LWPOLYLINE {ent.handle}: needs at least two vertices, each with 10 and 20")


def read_entities(text: Any) -> dict[str, Entity]:
    """Every entity of the subset, by upper-case handle."""
    if not isinstance(text, str):
        raise DxfError("`dxf` must be a string holding ASCII DXF text")
    out = {}
    for group in entity_groups(tag_pairs(text)):
        ent = parse_entity(group)
        if ent is not None:
            out[ent.handle] = ent
    return out
