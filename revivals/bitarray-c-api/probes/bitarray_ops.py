"""Probe: what the compiled bitarray computes on fixed inputs, as one JSON object (recorded from the original
natively; a ported build must print the same). It leans on the paths the port touches: every resize (append,
extend, slicing, deletion), the type objects set up at import, and tofile/fromfile (the file's read/write calls)."""
import io
import json

from bitarray import bitarray, bits2bytes, bitdiff, frozenbitarray
from bitarray import util

a = bitarray("1101001110001011", endian="big")
b = bitarray(endian="little")
for i in range(45):
    b.append(i % 3 == 0)
b.extend("0110")
del b[3:17]
grow = bitarray()
for k in range(1, 200):
    grow.extend(bitarray(k % 7 * "1" + "0"))
del grow[::3]

buf = io.BytesIO()
a.tofile(buf)
b.tofile(buf)
buf.seek(0)
back = bitarray(endian="big")
back.fromfile(buf)
part = bitarray(endian="little")
buf.seek(1)
part.fromfile(buf, 2)

srt = bitarray("1100101")
srt.sort(reverse=True)

code = util.huffman_code({"a": 45, "b": 13, "c": 12, "d": 16, "e": 9, "f": 5})
enc = bitarray()
enc.encode(code, "abacabadfeed")

out = {
    "a": a.to01(), "a_bytes": list(a.tobytes()), "a_count": a.count(), "a_search": list(a.itersearch(bitarray("1"))),
    "b": b.to01(), "b_len": len(b), "b_bytes": list(b.tobytes()), "b_endian": b.endian(),
    "grow": [len(grow), grow.count(), grow[:64].to01(), util.ba2hex(grow[:200])],
    "ops": [(a & a[::-1]).to01(), (a | ~a).count(), (a ^ a[2:] + a[:2]).to01()],
    "tofile_fromfile": [back.to01(), part.to01(), len(buf.getvalue())],
    "frozen": [hash(frozenbitarray("10110")) == hash(frozenbitarray("10110")), frozenbitarray("0011").to01()],
    "bits2bytes": [bits2bytes(n) for n in (0, 1, 8, 9, 64, 65)],
    "bitdiff": bitdiff(bitarray("110110"), bitarray("011011")),
    "util": {
        "zeros": util.zeros(11).to01(), "strip": util.strip(bitarray("0011000"), mode="both").to01(),
        "rindex": util.rindex(a), "count_n": util.count_n(a, 5), "ba2int": util.ba2int(a),
        "int2ba": util.int2ba(123456789, 40, "little").to01(), "hex2ba": util.hex2ba("f0a5").to01(),
        "subset": util.subset(bitarray("0100"), bitarray("1101")),
    },
    "huffman": {k: v.to01() for k, v in sorted(code.items())},
    "encode": enc.to01(), "decode": "".join(enc.decode(code)),
    "sort": srt.to01(),
    "reverse_fill": [bitarray("1100101")[::-1].to01(), bitarray("11001").fill()],
}
print(json.dumps(out, sort_keys=True))
