"""Packet capture comparator (pcap, pcapng): packets decoded by layer with scapy and compared field by field,
timestamps within a tolerance, so pcap vs pcapng, micro- vs nanosecond timestamps, byte order, snap length
and the blocks pcapng adds (comments, statistics) do not matter, while a changed field, a dropped, added or
reordered packet, or a shifted timestamp does.

Packet order is meaningful (a capture is a sequence in time; TCP's meaning depends on it), so packets are
compared in file order. Timestamps are exact rationals (ticks x the interface's resolution); the default
`time_atol` is the reference's resolution (1 us for classic pcap, if_tsresol for pcapng). Ethernet padding
(scapy's Padding layer: bytes past the IP length, whose content no protocol reads) is not compared by default.

Bounded: the file size is admitted, then the record/block headers are walked (lengths only, nothing decoded),
counting packets and refusing a length past the file's end, before scapy dissects a single packet."""

from __future__ import annotations

import struct
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ._common import ArtifactConfigError, ArtifactResult, Budget, check, file_size, finish, load_pair, options_for

DEFAULTS: dict[str, Any] = {
    "time_atol": None,  # seconds; None: the reference's timestamp resolution
    "ignore_layers": ["Padding"],  # scapy layer names whose fields are not compared
    "ignore_fields": [],  # "Layer.field" names not compared (e.g. a field the program leaves volatile)
}
PCAP_MAGIC = {0xA1B2C3D4: Fraction(1, 10**6), 0xA1B23C4D: Fraction(1, 10**9)}
SHB, IDB, PB, SPB, EPB = 0x0A0D0D0A, 1, 2, 3, 6
_SHOWN = 200  # characters of a value shown in a check


@dataclass(frozen=True)
class Frame:
    """One captured packet as the file records it."""

    linktype: int
    time: Fraction  # seconds
    wirelen: int
    data: bytes


@dataclass(frozen=True)
class Capture:
    frames: list[Frame]
    resolution: Fraction  # the coarsest timestamp resolution of the file's interfaces


def _tsresol(value: int) -> Fraction:
    """pcapng if_tsresol: 10^-v, or 2^-v when the high bit is set."""
    return Fraction(1, 2 ** (value & 0x7F)) if value & 0x80 else Fraction(1, 10 ** min(value, 30))


def read_pcap(data: bytes, budget: Budget) -> Capture:
    """Classic pcap: a 24-byte header (magic gives byte order and resolution) then 16-byte record headers."""
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic in PCAP_MAGIC else ">"
    magic = struct.unpack(order + "I", data[:4])[0]
    if magic not in PCAP_MAGIC or len(data) < 24:
        raise ValueError("not a pcap or pcapng file (bad magic)")
    res, linktype = PCAP_MAGIC[magic], struct.unpack(order + "I", data[20:24])[0] & 0x0FFFFFFF
    frames: list[Frame] = []
    off = 24
    while off < len(data):
        if off + 16 > len(data):
            raise ValueError(f"packet {len(frames)}: truncated record header")
        sec, frac, incl, orig = struct.unpack(order + "IIII", data[off : off + 16])
        if off + 16 + incl > len(data):
            raise ValueError(f"packet {len(frames)}: {incl} bytes past the end of the file")
        budget.admit("packets", len(frames) + 1)
        frames.append(Frame(linktype, sec + frac * res, orig, data[off + 16 : off + 16 + incl]))
        off += 16 + incl
    return Capture(frames, res)


def _options(body: bytes, order: str) -> Iterator[tuple[int, bytes]]:
    off = 0
    while off + 4 <= len(body):
        code, length = struct.unpack(order + "HH", body[off : off + 4])
        if code == 0:
            return
        yield code, body[off + 4 : off + 4 + length]
        off += 4 + length + (-length % 4)


def read_pcapng(data: bytes, budget: Budget) -> Capture:
    """pcapng: sections of blocks; interfaces (IDB) give linktype and if_tsresol/if_tsoffset; packets come from
    enhanced (EPB), simple (SPB) and obsolete (PB) blocks; every other block is skipped by its length."""
    frames: list[Frame] = []
    ifaces: list[tuple[int, Fraction, int, int]] = []  # linktype, resolution, offset s, snaplen
    resolutions: set[Fraction] = set()
    order, off = "<", 0
    while off < len(data):
        if off + 12 > len(data):
            raise ValueError(f"block at byte {off}: truncated")
        if struct.unpack("<I", data[off : off + 4])[0] == SHB:
            bom = data[off + 8 : off + 12]
            order = "<" if bom == b"\x4d\x3c\x2b\x1a" else ">"
            ifaces = []
        btype, blen = struct.unpack(order + "II", data[off : off + 8])
        if blen < 12 or blen % 4 or off + blen > len(data):
            raise ValueError(f"block at byte {off}: bad length {blen}")
        body = data[off + 8 : off + blen - 4]
        off += blen
        if btype == IDB:
            link, snap = struct.unpack(order + "HxxI", body[:8])
            opts = dict(_options(body[8:], order))
            res = _tsresol(opts[9][0]) if 9 in opts and opts[9] else Fraction(1, 10**6)
            shift = struct.unpack(order + "q", opts[14][:8])[0] if len(opts.get(14, b"")) >= 8 else 0
            ifaces.append((link, res, shift, snap))
        elif btype in (EPB, PB, SPB):
            budget.admit("packets", len(frames) + 1)
            frames.append(_packet(btype, body, order, ifaces, resolutions))
    return Capture(frames, max(resolutions, default=Fraction(1, 10**6)))


def _packet(
    btype: int, body: bytes, order: str, ifaces: list[tuple[int, Fraction, int, int]], seen: set[Fraction]
) -> Frame:
    if btype == SPB:
        if not ifaces:
            raise ValueError("simple packet block before any interface")
        (orig,) = struct.unpack(order + "I", body[:4])
        link, res, _, snap = ifaces[0]
        seen.add(res)
        cap = min(orig, snap or orig, len(body) - 4)
        return Frame(link, Fraction(0), orig, body[4 : 4 + cap])
    if btype == EPB:
        iface, hi, lo, cap, orig = struct.unpack(order + "IIIII", body[:20])
    else:
        iface, hi, lo, cap, orig = struct.unpack(order + "HxxIIII", body[:20])
    if iface >= len(ifaces) or 20 + cap > len(body):
        raise ValueError(f"packet block of interface {iface} ({len(ifaces)} declared), {cap} bytes: invalid")
    link, res, shift, _ = ifaces[iface]
    seen.add(res)
    return Frame(link, shift + ((hi << 32) | lo) * res, orig, body[20 : 20 + cap])


def read_capture(path: Path, budget: Budget) -> Capture:
    """Either format, told by its magic (never by its name)."""
    file_size(path, budget)
    data = Path(path).read_bytes()
    if len(data) >= 4 and struct.unpack("<I", data[:4])[0] == SHB:
        return read_pcapng(data, budget)
    return read_pcap(data, budget)


def _plain(value: Any) -> Any:
    """A field value scapy decoded, as comparable plain data (packets in a field as their own fields)."""
    from scapy.packet import Packet

    if isinstance(value, Packet):
        return [(layer.name, tuple((k, _plain(v)) for k, v in layer.fields.items())) for layer in _layers(value)]
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    if isinstance(value, (bytes, str, type(None), bool)):
        return value
    if isinstance(value, int):
        return int(value)  # FlagValue, enums
    return repr(value)


def _layers(pkt: Any) -> Iterator[Any]:
    layer = pkt
    while layer is not None and layer.__class__.__name__ != "NoPayload":
        yield layer
        layer = layer.payload


def _load_layers() -> None:
    """A fixed set of scapy's layers (not scapy.all: a second more per comparison, and it reads the host's
    interfaces): what is loaded decides how deep a packet is dissected, the same for both sides."""
    import scapy.layers.dhcp
    import scapy.layers.dns
    import scapy.layers.inet
    import scapy.layers.inet6
    import scapy.layers.l2
    import scapy.layers.ntp  # noqa: F401


def decode(frame: Frame, skip: frozenset[str], fields: frozenset[str]) -> list[tuple[str, dict[str, Any]]]:
    """(layer name, {field: value}) per layer, dissected from the frame's bytes by its link type."""
    from scapy.config import conf
    from scapy.packet import Raw

    _load_layers()
    cls: Any = conf.l2types.get(frame.linktype) or Raw
    out = []
    for layer in _layers(cls(frame.data)):
        name = layer.__class__.__name__
        if name in skip:
            continue
        values = {f.name: _plain(layer.getfieldval(f.name)) for f in layer.fields_desc}
        out.append((name, {k: v for k, v in values.items() if f"{name}.{k}" not in fields}))
    return out


def _opts(options: Mapping[str, Any] | None) -> dict[str, Any]:
    opts = options_for("pcap", options, DEFAULTS)
    t = opts["time_atol"]
    if t is not None and (isinstance(t, bool) or not isinstance(t, (int, float)) or not 0 <= t < 1e9):
        raise ArtifactConfigError(f"pcap option time_atol must be a number of seconds >= 0 or null, got {t!r}")
    for key in ("ignore_layers", "ignore_fields"):
        if not isinstance(opts[key], list) or not all(isinstance(x, str) for x in opts[key]):
            raise ArtifactConfigError(f"pcap option {key} must be a list of strings, got {opts[key]!r}")
    return opts


def compare_pcap(
    reference: Path, candidate: Path, atol: float, rtol: float, options: Mapping[str, Any] | None = None
) -> ArtifactResult:
    """Packet count, then per packet in order: timestamp, original length, and each layer's fields."""
    opts = _opts(options)
    pair = load_pair("pcap", reference, lambda b: read_capture(reference, b), lambda b: read_capture(candidate, b))
    if isinstance(pair, ArtifactResult):
        return pair
    ref, got = pair
    tol = Fraction(opts["time_atol"]) if opts["time_atol"] is not None else ref.resolution
    checks = {"packets": check(len(ref.frames) == len(got.frames), len(ref.frames), len(got.frames))}
    skip, fields = frozenset(opts["ignore_layers"]), frozenset(opts["ignore_fields"])
    for i, (a, b) in enumerate(zip(ref.frames, got.frames)):
        bad = _first_difference(a, b, tol, skip, fields)
        if bad is not None:
            what, exp, val, t = bad
            checks[what] = check(False, exp, val, t, where=f"packet {i}")
            break
    return finish("pcap", checks)


def _first_difference(
    a: Frame, b: Frame, tol: Fraction, skip: frozenset[str], fields: frozenset[str]
) -> tuple[str, Any, Any, Any] | None:
    """The first differing aspect of two packets: (check name, expected, got, tolerance), or None."""
    if abs(a.time - b.time) > tol:
        return "timestamp", float(a.time), float(b.time), float(tol)
    if a.wirelen != b.wirelen:
        return "wire_length", a.wirelen, b.wirelen, None
    la, lb = decode(a, skip, fields), decode(b, skip, fields)
    if [n for n, _ in la] != [n for n, _ in lb]:
        return "layers", "/".join(n for n, _ in la), "/".join(n for n, _ in lb), None
    for (name, fa), (_, fb) in zip(la, lb):
        for key, value in fa.items():
            if fb.get(key) != value:
                return f"field {name}.{key}", repr(value)[:_SHOWN], repr(fb.get(key))[:_SHOWN], None
    return None
