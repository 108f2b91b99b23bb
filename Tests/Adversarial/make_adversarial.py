#!/usr/bin/env python3
"""Writes adversarial inputs for the `typedstream` tool: big, deep, wide, shared and lying files.

    python3 Tests/Adversarial/make_adversarial.py --size-mb 4 --out /tmp/adv [--shapes a,b]
    python3 Tests/Adversarial/make_adversarial.py --list        # name, kind, valid, description

One file per shape, about --size-mb MiB each (within 10 %), deterministic (no randomness except
a fixed-seed generator). Kinds and file names:

* typedstream  SHAPE.typedstream   little-endian, streamer 4, `04 0b "streamtyped" 81 e8 03`
* keyed        SHAPE.plist         NSKeyedArchiver archives (binary, or XML for *-xml shapes)
* json         SHAPE.json          the tool's lossless JSON (docs/json-schema.md), for `encode`

`valid` says whether the file is a well-formed archive: `yes` (verify must say identical),
`wire` (well-formed bytes whose contents lie, e.g. an NSArray count larger than its elements),
`limit` (well-formed, but beyond a documented limit of the tool: refused), or `no` (must be
refused cleanly). Python 3 standard library only.
"""
import argparse
import os
import random
import struct
import sys

MB = 1 << 20
HEADER = b"\x04\x0bstreamtyped\x81\xe8\x03"


# --------------------------------------------------------------------------------------------
# typedstream writing
# --------------------------------------------------------------------------------------------

def ienc(v):
    """Integer coding (format doc section 2): inline, 0x81 int16, 0x82 int32, 0x87 int64."""
    if -110 <= v <= 127:
        return bytes([v & 0xFF])
    if -32767 <= v <= 32767:
        return b"\x81" + v.to_bytes(2, "little", signed=True)
    if -(1 << 31) <= v < (1 << 31):
        return b"\x82" + v.to_bytes(4, "little", signed=True)
    return b"\x87" + v.to_bytes(8, "little", signed=True)


def ref(index):
    """A reference label to table slot `index`: the integer index - 110."""
    return ienc(index - 110)


class W:
    """Writer state: the shared-string table and the object table, as NSArchiver numbers them."""

    def __init__(self):
        self.ss = {}        # shared string bytes -> index
        self.nobj = 0       # next object-table slot
        self.classes = {}   # class name -> slot

    def s(self, text):
        """A shared string: a reference when written before (content de-dup), else a literal."""
        if isinstance(text, str):
            text = text.encode()
        if text in self.ss:
            return ref(self.ss[text])
        self.ss[text] = len(self.ss)
        return b"\x84" + ienc(len(text)) + text

    def slot(self):
        n = self.nobj
        self.nobj += 1
        return n

    def chain(self, *links):
        """A class chain: (name, version) pairs, most derived first, up to the first known class."""
        out = bytearray()
        for name, version in links:
            if isinstance(name, str):
                name = name.encode()
            if name in self.classes:
                out += ref(self.classes[name])
                return bytes(out)
            out += b"\x84" + self.s(name) + ienc(version)
            self.classes[name] = self.slot()
        out += b"\x85"
        return bytes(out)

    def new(self, *links):
        """Start of a new object (0x84, slot, class chain). Returns (bytes, slot)."""
        slot = self.slot()
        return b"\x84" + self.chain(*links), slot

    def cstring(self, text):
        """A new C string (type `*`): takes an object slot, then its text as a shared string."""
        slot = self.slot()
        return b"\x84" + self.s(text), slot

    def string_object(self, data):
        """A complete NSString object holding `data` (bytes) in one "+" group."""
        head, slot = self.new(("NSString", 1), ("NSObject", 0))
        return head + self.s("+") + ienc(len(data)) + data + b"\x86", slot


NSOBJ = ("NSObject", 0)


def array_head(w, cls="NSArray"):
    """Header, group "@", new root object of `cls` : NSObject (slots 0, 1, 2), group "i"."""
    head = HEADER + w.s("@")
    obj, _ = w.new((cls, 0), NSOBJ)
    return head + obj + w.s("i")


def array_file(head, count, body):
    return head + ienc(count) + bytes(body) + b"\x86"


def fill(body, unit, target):
    """Appends copies of the constant `unit` until body reaches target; returns copies added."""
    if len(body) >= target:
        return 0
    n = (target - len(body) + len(unit) - 1) // len(unit)
    body += unit * n
    return n


def ts_tiny_objects(target):
    w = W()
    head = array_head(w)
    body = bytearray()
    first, _ = w.new(("Tiny", 0), NSOBJ)
    body += w.s("@") + first + b"\x86"
    unit = w.s("@") + b"\x84" + ref(w.classes[b"Tiny"]) + b"\x86"
    n = 1 + fill(body, unit, target - len(head) - 8)
    return array_file(head, n, body)


OBJECT_DEPTH = 250      # objects nested inside each element; with the root array: 251
STRUCT_TAIL = 5         # structs nested in the innermost object: 251 + 5 = 256 = the limit
TYPE_DEPTH = 63         # one type string nested 63 deep (64 is refused: see README)


def ts_deep_nesting(target):
    """Elements alternate: A = 250 nested objects, the innermost holding a 5-deep struct
    (nesting 256 with the root array); B = an object holding one group whose type string is
    nested 63 deep (arrays and structs alternating)."""
    w = W()
    head = array_head(w)
    body = bytearray()
    at = w.s("@")
    first, _ = w.new(("Nest", 0), NSOBJ)
    nest = ref(w.classes[b"Nest"])
    tail_type = b"{?=" * STRUCT_TAIL + b"i" + b"}" * STRUCT_TAIL
    a = bytearray(at + first)
    w.nobj += OBJECT_DEPTH - 1
    a += (at + b"\x84" + nest) * (OBJECT_DEPTH - 1)
    a += w.s(tail_type) + b"\x00"
    a += b"\x86" * OBJECT_DEPTH
    body += a
    deep_type = b""
    for level in range(TYPE_DEPTH):
        deep_type += b"[1" if level % 2 == 0 else b"{?="
    deep_type += b"i"
    for level in reversed(range(TYPE_DEPTH)):
        deep_type += b"]" if level % 2 == 0 else b"}"
    b = at + b"\x84" + nest + w.s(deep_type) + b"\x00" + b"\x86"
    a_again = (at + b"\x84" + nest) * OBJECT_DEPTH + w.s(tail_type) + b"\x00" + b"\x86" * OBJECT_DEPTH
    unit = b + a_again
    n = 1 + 2 * fill(body, unit, target - len(head) - 8)
    return array_file(head, n, body)


def class_name(n, minimum=12, maximum=200):
    length = minimum + (n * 37) % (maximum - minimum + 1)
    stem = b"K%07d_" % n
    pad = (b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" * 4)[: max(0, length - len(stem))]
    return stem + pad


def ts_many_classes(target):
    w = W()
    head = array_head(w)
    body = bytearray()
    n = 0
    at = w.s("@")
    limit = target - len(head) - 8
    while len(body) < limit:
        obj, _ = w.new((class_name(n), n % 1000), NSOBJ)
        body += at + obj + b"\x86"
        n += 1
    return array_file(head, n, body)


def ts_long_class_chain(target):
    """One object whose class has a superclass chain of ~target/12 new classes."""
    w = W()
    head = array_head(w)
    limit = target - len(head) - 16
    chain = bytearray()
    n = 0
    w.slot()  # the object's slot comes before its class chain
    while len(chain) < limit:
        name = b"S%07d" % n
        chain += b"\x84" + w.s(name) + b"\x00"
        w.classes[name] = w.slot()
        n += 1
    body = w.s("@") + b"\x84" + bytes(chain) + ref(w.classes[b"NSObject"]) + b"\x86"
    return array_file(head, 1, body)


CHAIN_LINKS = 1000       # new classes per object (the tool refuses chains longer than 1024)


def ts_class_chains(target, tower=False):
    """Objects whose class chains are 1 000 new classes long. Plain: each chain ends at
    NSObject. Tower: each chain ends at the previous object's class, so the superclass
    hierarchy grows 1 000 deeper with every object (while each chain on the wire is 1 000)."""
    w = W()
    head = array_head(w)
    body = bytearray()
    at = w.s("@")
    limit = target - len(head) - 8
    n = 0
    top = "NSObject"
    while len(body) < limit:
        names = [b"T%04d_%04d" % (n, i) for i in range(CHAIN_LINKS)]
        obj, _ = w.new(*[(x, i % 300) for i, x in enumerate(names)], (top, 0))
        body += at + obj + b"\x86"
        if tower:
            top = names[0]
        n += 1
    return array_file(head, n, body)


def base3(n, letters=b"ics"):
    out = bytearray()
    while True:
        out.append(letters[n % 3])
        n //= 3
        if n == 0:
            return bytes(out)


def ts_many_type_strings(target):
    """Objects of class TS, each with one group whose type string is new: `{S<n>=i}` or
    `{?=<n in base 3 over i c s>}`; 200 000+ distinct type strings at 4 MB and up."""
    w = W()
    head = array_head(w)
    body = bytearray()
    at = w.s("@")
    first, _ = w.new(("TS", 0), NSOBJ)
    cls = ref(w.classes[b"TS"])
    limit = target - len(head) - 8
    n = 0
    while len(body) < limit:
        if n % 2 == 0:
            t = b"{S%d=i}" % n
            values = b"\x00"
        else:
            letters = base3(n)
            t = b"{?=" + letters + b"}"
            values = b"\x00" * len(letters)
        start = first if n == 0 else b"\x84" + cls
        w.nobj += 0 if n == 0 else 1
        body += at + start + w.s(t) + values + b"\x86"
        n += 1
    return array_file(head, n, body)


def ts_chain(target):
    """Root array of N Link objects; object i holds "@" = a reference to object i-1."""
    w = W()
    head = array_head(w)
    body = bytearray()
    at = w.s("@")
    first, prev = w.new(("Link", 0), NSOBJ)
    body += at + first + at + b"\x85" + b"\x86"
    link = ref(w.classes[b"Link"])
    limit = target - len(head) - 8
    n = 1
    while len(body) < limit:
        slot = w.slot()
        body += at + b"\x84" + link + at + ref(prev) + b"\x86"
        prev = slot
        n += 1
    return array_file(head, n, body)


def ts_laid_out_chain(target):
    """Root array of N NSCustomObject v41 objects (a class the layout catalogue describes: one
    "@@" group, className and extension): each one's className a new NSString, its extension a
    reference to the object before it, so every command names fields all the way."""
    w = W()
    head = array_head(w)
    body = bytearray()
    at, pair = w.s("@"), w.s("@@")
    first, prev = w.new(("NSCustomObject", 41), NSOBJ)
    name, _ = w.string_object(b"C")
    body += at + first + pair + name + b"\x85" + b"\x86"
    custom, nsstring = ref(w.classes[b"NSCustomObject"]), ref(w.classes[b"NSString"])
    limit = target - len(head) - 8
    n = 1
    while len(body) < limit:
        slot = w.slot()
        w.slot()  # the className string
        body += at + b"\x84" + custom + pair + b"\x84" + nsstring + w.s("+") + ienc(1) + b"C" + b"\x86" + ref(prev) + b"\x86"
        prev = slot
        n += 1
    return array_file(head, n, body)


FAN_LEVELS = 40


def ts_fan_in(target):
    """Billion laughs: L0 = NSString "lol"; Lk = NSArray [L(k-1), L(k-1)] for k = 1…39; then
    the root array refers to L39 until the file is full (each mention stands for 2^39 strings)."""
    w = W()
    head = array_head(w)
    body = bytearray()
    at = w.s("@")
    obj, prev = w.string_object(b"lol")
    body += at + obj
    for _ in range(1, FAN_LEVELS):
        slot = w.slot()
        body += at + b"\x84" + ref(w.classes[b"NSArray"]) + w.s("i") + ienc(2) + at + ref(prev) + at + ref(prev) + b"\x86"
        prev = slot
    n = FAN_LEVELS + fill(body, at + ref(prev), target - len(head) - 8)
    return array_file(head, n, body)


def ts_big_shared(target):
    """One NSString of min(1 MiB, size/2) bytes, referred to by the rest of the root array."""
    w = W()
    head = array_head(w)
    length = min(MB, target // 2)
    text = (b"big shared string 0123456789 " * (length // 29 + 1))[:length]
    obj, slot = w.string_object(text)
    body = bytearray(w.s("@") + obj)
    n = 1 + fill(body, w.s("@") + ref(slot), target - len(head) - 8)
    return array_file(head, n, body)


def ts_big_shared_type(target):
    """A type string `{NNNN…=c}` of min(1 MiB, size/2) bytes, used by every top-level group
    (2 bytes each: type reference + one byte)."""
    w = W()
    length = min(MB, target // 2)
    t = b"{" + b"N" * (length - 4) + b"=c}"
    out = bytearray(HEADER + w.s(t) + b"\x01")
    fill(out, w.s(t) + b"\x01", target)
    return bytes(out)


def ts_huge_count_array(target):
    """NSArray whose count says 2 147 483 647 while it holds ~size/4 tiny objects (wire-valid)."""
    data = ts_tiny_objects(target)
    at = len(array_head(W()))
    width = {0x81: 3, 0x82: 5}.get(data[at], 1)
    return data[:at] + ienc(0x7FFFFFFF) + data[at + width:]


def ts_huge_count_bytes(target):
    """Group `[2147483647c]` followed by size bytes: refused (the bytes end first)."""
    w = W()
    out = bytearray(HEADER + w.s("[2147483647c]"))
    out += bytes(range(256)) * (max(0, target - len(out)) // 256)
    return bytes(out)


def ts_huge_count_string(target):
    """NSString whose "+" length is 0x82 int32 2 147 483 647, followed by size bytes."""
    w = W()
    head = HEADER + w.s("@")
    obj, _ = w.new(("NSString", 1), NSOBJ)
    out = bytearray(head + obj + w.s("+") + ienc(0x7FFFFFFF))
    out += b"x" * max(0, target - len(out))
    return bytes(out)


def ts_huge_count_nested(target):
    """Group `[2147483647[2147483647i]]` (2^62 ints claimed) followed by size zero bytes."""
    w = W()
    out = bytearray(HEADER + w.s("[2147483647[2147483647i]]"))
    out += b"\x00" * max(0, target - len(out))
    return bytes(out)


def filler_groups(w, out, target):
    """Top-level groups `[4096c]` until out reaches target."""
    t = w.s("[4096c]")
    unit_tail = bytes(range(256)) * 16
    out += t + unit_tail
    fill(out, w.s("[4096c]") + unit_tail, target)


def ts_empty_limit(target):
    """At the empty-value limit (65 536 in the whole input): `[65000!]`, 500 × `{?=}`, then
    `[4096c]` filler groups. Should be accepted."""
    w = W()
    out = bytearray(HEADER + w.s("[65000!]"))
    for _ in range(500):
        out += w.s("{?=}")
    filler_groups(w, out, target)
    return bytes(out)


def ts_empty_over(target):
    """`[4096c]` filler groups, then `[60000[60000!]]` (3.6 billion empty values): refused."""
    w = W()
    out = bytearray(HEADER)
    filler_groups(w, out, target - 32)
    out += w.s("[60000[60000!]]")
    return bytes(out)


def ts_long_strings(target):
    """Four NSStrings of size/4 bytes each: UTF-8 text with multi-byte characters, control
    characters (\\u0001 in JSON: 6×), invalid UTF-8 (hex in JSON), quotes and backslashes."""
    w = W()
    head = array_head(w)
    part = max(1, (target - len(head) - 64) // 4)
    kinds = [
        "héllo wörld € 😀 ".encode(),
        b"\x01\x02\x1f\x00\n\t",
        b"\xff\xfe\xc0\x80\xed\xa0\x80",
        b'"\\/"\\',
    ]
    body = bytearray()
    at = w.s("@")
    for k in kinds:
        text = (k * (part // len(k) + 1))[:part]
        obj, _ = w.string_object(text)
        body += at + obj
    return array_file(head, len(kinds), body)


def ts_many_shared_strings(target):
    """Objects of class Atoms, each with three new shared strings: a `%` atom, a `:` selector
    and a `*` C string (which also takes an object slot)."""
    w = W()
    head = array_head(w)
    body = bytearray()
    at = w.s("@")
    limit = target - len(head) - 8
    n = 0
    while len(body) < limit:
        obj, _ = w.new(("Atoms", 0), NSOBJ)
        body += at + obj
        body += w.s("%") + w.s(b"atom%07d" % n)
        body += w.s(":") + w.s(b"selector%07d:with:" % n)
        body += w.s("*")
        cs, _ = w.cstring(b"cstring %07d" % n)
        body += cs
        body += b"\x86"
        n += 1
    return array_file(head, n, body)


def ts_wide_dict(target):
    """NSDictionary: "i" count, then per entry "@" key (new NSString "k<n>") and "@" value
    (new NSNumber, objCType "i")."""
    w = W()
    head = array_head(w, "NSDictionary")
    body = bytearray()
    at = w.s("@")
    limit = target - len(head) - 8
    n = 0
    cstr_slot = None
    while len(body) < limit:
        key, _ = w.string_object(b"k%07d" % n)
        body += at + key
        obj, _ = w.new(("NSNumber", 0), ("NSValue", 0), NSOBJ)
        body += at + obj + w.s("*")
        if cstr_slot is None:
            cs, cstr_slot = w.cstring(b"i")
            body += cs
        else:
            body += ref(cstr_slot)
        body += w.s("i") + ienc(n) + b"\x86"
        n += 1
    return array_file(head, n, body)


def ts_dup_keys(target):
    """NSDictionary whose entries all use the same key object and the same value object."""
    w = W()
    head = array_head(w, "NSDictionary")
    at = w.s("@")
    key, kslot = w.string_object(b"same key")
    val, vslot = w.string_object(b"same value")
    body = bytearray(at + key + at + val)
    n = 1 + fill(body, at + ref(kslot) + at + ref(vslot), target - len(head) - 8)
    return array_file(head, n, body)


def ts_cycles(target):
    """Cycles, repeated: an NSArray containing itself and the root; an object of class Cyc
    referring to itself; a pair A ↔ B (B defined inside A, referring back to A)."""
    w = W()
    head = array_head(w)
    body = bytearray()
    at = w.s("@")
    limit = target - len(head) - 8
    n = 0
    while len(body) < limit:
        obj, slot = w.new(("NSArray", 0), NSOBJ)
        body += at + obj + w.s("i") + ienc(2) + at + ref(slot) + at + ref(0) + b"\x86"
        obj, slot = w.new(("Cyc", 0), NSOBJ)
        body += at + obj + at + ref(slot) + b"\x86"
        a, aslot = w.new(("Cyc", 0), NSOBJ)
        body += at + a + at
        b, bslot = w.new(("Cyc", 0), NSOBJ)
        body += b + at + ref(aslot) + b"\x86" + b"\x86"
        n += 3
    return array_file(head, n, body)


def ts_top_groups(target):
    """Many top-level groups of every scalar kind with fixed-seed random values: ints of every
    width, int64 (0x87), unsigned patterns, random float and double bit patterns (NaN payloads,
    subnormals, infinities), bytes, BOOLs, short strings with random bytes, structs."""
    rng = random.Random(20240601)
    w = W()
    out = bytearray(HEADER)
    while len(out) < target:
        k = rng.randrange(10)
        if k == 0:
            v = rng.choice([rng.randrange(-110, 128), rng.randrange(-32767, 32768), rng.randrange(-(1 << 31), 1 << 31)])
            out += w.s("i") + ienc(v)
        elif k == 1:
            out += w.s("q") + b"\x87" + rng.getrandbits(63).to_bytes(8, "little")
        elif k == 2:
            out += w.s("sS") + ienc(rng.randrange(-32767, 32768)) + ienc(rng.randrange(-32767, 32768))
        elif k == 3:
            bits = rng.getrandbits(64)
            d = struct.unpack("<d", bits.to_bytes(8, "little"))[0]
            if d == d and d not in (float("inf"), float("-inf")) and d == int(d) and abs(d) < 2 ** 31:
                bits ^= 1
            out += w.s("d") + b"\x83" + bits.to_bytes(8, "little")
        elif k == 4:
            bits = rng.getrandbits(32)
            f = struct.unpack("<f", bits.to_bytes(4, "little"))[0]
            if f == f and f not in (float("inf"), float("-inf")) and f == int(f) and abs(f) < 2 ** 31:
                bits ^= 1
            out += w.s("f") + b"\x83" + bits.to_bytes(4, "little")
        elif k == 5:
            out += w.s("cCB") + bytes([rng.randrange(256), rng.randrange(256), rng.randrange(2)])
        elif k == 6:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
            out += w.s("+") + ienc(len(data)) + data
        elif k == 7:
            out += w.s("[16c]") + bytes(rng.randrange(256) for _ in range(16))
        elif k == 8:
            out += w.s("{?=is[2q]}") + ienc(rng.randrange(-1000, 1000)) + ienc(7) + ienc(-1) + ienc(300)
        else:
            out += w.s("%") + w.s(b"atom%d" % rng.randrange(1000))
    return bytes(out)


# --------------------------------------------------------------------------------------------
# keyed archives (binary plist writer with explicit object references, and XML)
# --------------------------------------------------------------------------------------------

class UID:
    def __init__(self, n):
        self.n = n


class Ref:
    """A raw reference to a bplist object (only for low-level bplist shapes)."""

    def __init__(self, n):
        self.n = n


class BPlist:
    """Binary plist objects with explicit references (cycles and sharing possible)."""

    def __init__(self):
        self.objs = []
        self.cache = {}

    def add(self, obj):
        self.objs.append(obj)
        return len(self.objs) - 1

    def reserve(self):
        return self.add(None)

    def scalar(self, kind, value):
        key = (kind, value)
        if key not in self.cache:
            self.cache[key] = self.add((kind, value))
        return self.cache[key]

    def s(self, text):
        return self.scalar("str", text)

    def i(self, value):
        return self.scalar("int", value)

    def uid(self, value):
        return self.scalar("uid", value)

    def data(self, value):
        return self.scalar("data", value)

    def arr(self, refs):
        return self.add(("arr", list(refs)))

    def dict(self, pairs):
        return self.add(("dict", [(self.s(k), v) for k, v in pairs]))

    @staticmethod
    def _count(marker, n):
        if n < 15:
            return bytes([marker | n])
        return bytes([marker | 0xF]) + BPlist._int(n)

    @staticmethod
    def _int(v):
        if 0 <= v < 1 << 8:
            return b"\x10" + v.to_bytes(1, "big")
        if 0 <= v < 1 << 16:
            return b"\x11" + v.to_bytes(2, "big")
        if 0 <= v < 1 << 32:
            return b"\x12" + v.to_bytes(4, "big")
        return b"\x13" + v.to_bytes(8, "big", signed=True)

    def write(self, top):
        n = len(self.objs)
        # at least 3-byte references and 4-byte offsets (legal: wider than needed), so that
        # the size grows linearly with the object count and `scaled` can aim at a size
        ref_size = 3 if n <= 0xFFFFFF else 4
        out = bytearray(b"bplist00")
        offsets = []

        def r(x):
            return x.to_bytes(ref_size, "big")

        for obj in self.objs:
            offsets.append(len(out))
            kind, value = obj
            if kind == "str":
                try:
                    raw = value.encode("ascii")
                    out += self._count(0x50, len(raw)) + raw
                except UnicodeEncodeError:
                    raw = value.encode("utf-16-be")
                    out += self._count(0x60, len(raw) // 2) + raw
            elif kind == "int":
                out += self._int(value)
            elif kind == "uid":
                size = 1 if value < 1 << 8 else 2 if value < 1 << 16 else 4
                out += bytes([0x80 | (size - 1)]) + value.to_bytes(size, "big")
            elif kind == "data":
                out += self._count(0x40, len(value)) + value
            elif kind == "arr":
                out += self._count(0xA0, len(value)) + b"".join(r(x) for x in value)
            elif kind == "dict":
                out += self._count(0xD0, len(value))
                out += b"".join(r(k) for k, _ in value) + b"".join(r(v) for _, v in value)
            else:
                raise ValueError(kind)
        table_at = len(out)
        off_size = 4 if table_at <= 0xFFFFFFFF else 8
        for o in offsets:
            out += o.to_bytes(off_size, "big")
        out += bytes(6) + bytes([off_size, ref_size]) + n.to_bytes(8, "big") + top.to_bytes(8, "big") + table_at.to_bytes(8, "big")
        return bytes(out)


class Keyed:
    """An NSKeyedArchiver `$objects` list of Python values (str, int, bytes, list, dict, UID)."""

    def __init__(self):
        self.objects = ["$null"]

    def add(self, value):
        self.objects.append(value)
        return len(self.objects) - 1

    def set(self, index, value):
        self.objects[index] = value

    def binary(self, top=None):
        p = BPlist()

        def conv(v):
            if isinstance(v, UID):
                return p.uid(v.n)
            if isinstance(v, bool):
                return p.scalar("bool", v)
            if isinstance(v, int):
                return p.i(v)
            if isinstance(v, str):
                return p.s(v)
            if isinstance(v, bytes):
                return p.data(v)
            if isinstance(v, list):
                return p.arr([conv(x) for x in v])
            if isinstance(v, dict):
                return p.dict([(k, conv(x)) for k, x in v.items()])
            raise TypeError(type(v))

        objects = p.arr([conv(o) for o in self.objects])
        topd = p.dict([("root", p.uid(1))]) if top is None else conv(top)
        root = p.dict([("$archiver", p.s("NSKeyedArchiver")), ("$objects", objects), ("$top", topd), ("$version", p.i(100000))])
        return p.write(root)

    def xml(self):
        parts = ['<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
                 '"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0">\n<dict>\n'
                 '<key>$archiver</key><string>NSKeyedArchiver</string>\n<key>$objects</key>\n<array>\n']

        def esc(text):
            return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

        def emit(v):
            if isinstance(v, UID):
                parts.append("<dict><key>CF$UID</key><integer>%d</integer></dict>" % v.n)
            elif isinstance(v, int):
                parts.append("<integer>%d</integer>" % v)
            elif isinstance(v, str):
                parts.append("<string>%s</string>" % esc(v))
            elif isinstance(v, bytes):
                import base64
                parts.append("<data>%s</data>" % base64.b64encode(v).decode())
            elif isinstance(v, list):
                parts.append("<array>")
                for x in v:
                    emit(x)
                parts.append("</array>")
            elif isinstance(v, dict):
                parts.append("<dict>")
                for k, x in v.items():
                    parts.append("<key>%s</key>" % esc(k))
                    emit(x)
                parts.append("</dict>")
            parts.append("\n")

        for o in self.objects:
            emit(o)
        parts.append('</array>\n<key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>\n'
                     '<key>$version</key><integer>100000</integer>\n</dict>\n</plist>\n')
        return "".join(parts).encode()


def scaled(build, target, minimum=1):
    """build(count) -> bytes, growing linearly with count: the count that gives ~target bytes
    (measured on two small builds), at least `minimum`."""
    small = len(build(200))
    large = len(build(400))
    per = max(1e-9, (large - small) / 200)
    base = small - per * 200
    count = max(minimum, int((target - base) / per))
    data = build(count)
    for _ in range(3):  # reference and offset widths grow with the count: correct by ratio
        if count == minimum and len(data) >= target or abs(len(data) - target) <= target * 0.03:
            break
        count = max(minimum, int(count * target / len(data)))
        data = build(count)
    return data


def model_document(k, models_uid):
    """objects[1] = the ModelDocument root (version 2), [2] its class, [3] its format string."""
    root = k.add(None)
    cls = k.add({"$classes": ["ModelDocument", "NSObject"], "$classname": "ModelDocument"})
    fmt = k.add("ModelDocument")
    k.set(root, {"$class": UID(cls), "format": UID(fmt), "models": UID(models_uid), "version": 2})
    return root


def array_class(k):
    return k.add({"$classes": ["NSArray", "NSObject"], "$classname": "NSArray"})


def kd_self(count):
    """models = an NSArray whose NS.objects holds itself `count` times."""
    k = Keyed()
    model_document(k, 4)
    arr = k.add(None)
    ac = array_class(k)
    k.set(arr, {"$class": UID(ac), "NS.objects": [UID(arr)] * count})
    return k


def kd_mutual(count):
    """models = NSArray A; A holds B `count` times, B holds A `count` times."""
    k = Keyed()
    model_document(k, 4)
    a = k.add(None)
    b = k.add(None)
    ac = array_class(k)
    k.set(a, {"$class": UID(ac), "NS.objects": [UID(b)] * count})
    k.set(b, {"$class": UID(ac), "NS.objects": [UID(a)] * count})
    return k


def kd_chain(n):
    """models = NSArray 1 holding NSArray 2 holding … NSArray n holding one Model."""
    k = Keyed()
    model_document(k, 0)
    ac = array_class(k)
    mc = k.add({"$classes": ["Model", "NSObject"], "$classname": "Model"})
    rt = k.add("{{0, 0}, {1, 1}}")
    start = len(k.objects)
    k.objects[1]["models"] = UID(start)
    for i in range(n):
        k.add({"$class": UID(ac), "NS.objects": [UID(start + i + 1)]})
    k.add({"$class": UID(mc), "md_rt": UID(rt), "md_flag": 0, "md_kind": 0, "md_para": 0})
    return k


def kd_models(count, last_class):
    """A version-2 document of `count` Models sharing one class; the last Model's `$class` is
    last_class(k) (a UID), or the class itself when last_class is None."""
    k = Keyed()
    model_document(k, 0)
    ac = array_class(k)
    mc = k.add({"$classes": ["Model", "NSObject"], "$classname": "Model"})
    rt = k.add("{{0, 0}, {320, 240}}")
    name = k.add("name")
    bad = last_class(k) if last_class else UID(mc)
    items = []
    for i in range(count):
        cls = UID(mc) if i < count - 1 else bad
        items.append(UID(k.add({"$class": cls, "md_name": UID(name), "md_type": UID(name), "md_rt": UID(rt),
                                "md_flag": i % 7, "md_kind": -(i % 5), "md_para": i})))
    k.objects[1]["models"] = UID(k.add({"$class": UID(ac), "NS.objects": items}))
    return k


def kd_wide(count):
    """A well-formed document of `count` models with distinct names and rectangles."""
    k = Keyed()
    model_document(k, 0)
    ac = array_class(k)
    mc = k.add({"$classes": ["Model", "NSObject"], "$classname": "Model"})
    items = []
    for i in range(count):
        name = k.add("model %d" % i)
        rt = k.add("{{%d, 0}, {1, 2.5}}" % i)
        items.append(UID(k.add({"$class": UID(mc), "md_name": UID(name), "md_rt": UID(rt),
                                "md_flag": i, "md_kind": -i, "md_para": 1})))
    k.objects[1]["models"] = UID(k.add({"$class": UID(ac), "NS.objects": items}))
    return k


def kd_class_string(count):
    """The last Model's `$class` points at a string, not a class dictionary."""
    return kd_models(count, lambda k: UID(k.add("Model")))


def kd_class_self(count):
    """The last Model's `$class` points at the Model itself."""
    k = kd_models(count, None)
    last = k.objects[k.objects[1]["models"].n]["NS.objects"][-1].n
    k.objects[last]["$class"] = UID(last)
    return k


def kd_class_range(count):
    """The last Model's `$class` is UID 4 000 000 000 (no such object)."""
    return kd_models(count, lambda k: UID(4000000000))


BOMB_LEVELS = 48


def kd_bomb(count):
    """UID bomb: A0 = a Model; Ak = NSArray [A(k-1), A(k-1)] for 48 levels; models = an
    NSArray holding A48 `count` times."""
    k = Keyed()
    model_document(k, 4)
    top_arr = k.add(None)
    ac = array_class(k)
    mc = k.add({"$classes": ["Model", "NSObject"], "$classname": "Model"})
    rt = k.add("{{0, 0}, {1, 1}}")
    prev = k.add({"$class": UID(mc), "md_rt": UID(rt), "md_flag": 0, "md_kind": 0, "md_para": 0})
    for _ in range(BOMB_LEVELS):
        prev = k.add({"$class": UID(ac), "NS.objects": [UID(prev), UID(prev)]})
    k.set(top_arr, {"$class": UID(ac), "NS.objects": [UID(prev)] * count})
    return k


def bp_keyed_shell(p, objects_ref):
    return p.dict([("$archiver", p.s("NSKeyedArchiver")), ("$objects", objects_ref),
                   ("$top", p.dict([("root", p.uid(1))])), ("$version", p.i(100000))])


def bp_bomb(count):
    """bplist-level bomb: bplist array k holds two references to array k-1 (64 levels);
    `$objects` holds the top array `count` times. Expanded: 2^64 strings per mention."""
    p = BPlist()
    prev = p.s("lol")
    for _ in range(64):
        prev = p.arr([prev, prev])
    objects = p.arr([p.s("$null")] + [prev] * count)
    return p.write(bp_keyed_shell(p, objects))


def bp_cycle(count):
    """bplist-level cycle: `$objects[1]` is an array whose `count` elements are itself."""
    p = BPlist()
    selfarr = p.reserve()
    p.objs[selfarr] = ("arr", [selfarr] * count)
    objects = p.arr([p.s("$null"), selfarr])
    return p.write(bp_keyed_shell(p, objects))


def bp_deep(n):
    """bplist-level nesting: `$objects[1]` is an array nested n deep."""
    p = BPlist()
    inner = p.s("bottom")
    for _ in range(n):
        inner = p.arr([inner])
    objects = p.arr([p.s("$null"), inner])
    return p.write(bp_keyed_shell(p, objects))


def xml_deep(n):
    """XML plist: `$objects[1]` is an <array> nested n deep."""
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n'
            '<key>$archiver</key><string>NSKeyedArchiver</string>\n<key>$objects</key>\n<array><string>$null</string>\n')
    tail = ('</array>\n<key>$top</key><dict><key>root</key><dict><key>CF$UID</key><integer>1</integer></dict></dict>\n'
            '<key>$version</key><integer>100000</integer>\n</dict>\n</plist>\n')
    return head.encode() + b"<array>" * n + b"<string>bottom</string>" + b"</array>" * n + tail.encode()


def kbin(build, minimum=1):
    return lambda t: scaled(lambda c: build(c).binary(), t, minimum)


def kxml(build, minimum=1):
    return lambda t: scaled(lambda c: build(c).xml(), t, minimum)


def kraw(build, minimum=1):
    return lambda t: scaled(build, t, minimum)


# --------------------------------------------------------------------------------------------
# lossless JSON for `encode`
# --------------------------------------------------------------------------------------------

# The counts of the json-* shapes that pass a limit: past the reader's default limits, or with
# --fuzz-limits past the small limits of the jsonimporter fuzz target
# (Tests/Fuzz/JSONImporterTarget.swift), so that the shapes fit its seeds of a few kilobytes.
JSON_COUNTS = {"empty": 70000, "empty_groups": 7000, "digits": 1000000, "deep_json": 100000, "deep_objects": 260, "class_name": 300}
FUZZ_JSON_COUNTS = {"empty": 70, "empty_groups": 7, "digits": 0, "deep_json": 0, "deep_objects": 20, "class_name": 30}


def jdoc(groups_text):
    return ('{"format": "typedstream-json", "formatVersion": 1, '
            '"header": {"streamerVersion": 4, "byteOrder": "little", "systemVersion": 1000}, '
            '"groups": [' + groups_text + ']}\n').encode()


def j_filler(budget, start_id):
    """Many small top-level groups, ~budget bytes: ints and short strings."""
    unit = '{"type": "i", "values": [12345]}, {"type": "+", "values": ["filler"]}, '
    return unit * max(0, budget // len(unit))


def js_class_loop(target):
    """Class chain A → B → A (a reference back to A), then many objects of class A."""
    parts = ['{"type": "@", "values": [{"object": 0, "class": [{"id": 1, "name": "NSArray", "version": 0}, '
             '{"id": 2, "name": "NSObject", "version": 0}], "groups": [']
    elems = ['{"type": "@", "values": [{"object": 3, "class": [{"id": 4, "name": "LoopA", "version": 0}, '
             '{"id": 5, "name": "LoopB", "version": 0}, {"ref": 4}], "groups": []}]}']
    used, i = len(elems[0]), 0
    while used < target - 400:
        e = '{"type": "@", "values": [{"object": %d, "class": [{"ref": 4}], "groups": []}]}' % (6 + i)
        elems.append(e)
        used += len(e) + 2
        i += 1
    count = len(elems)
    parts.append('{"type": "i", "values": [%d]}, ' % count)
    parts.append(", ".join(elems))
    parts.append("]}]}")
    return jdoc("".join(parts))


def js_class_name(length, target):
    """An object whose class name is `length` bytes, then objects of that class."""
    name = ("C" + "x" * (length - 1))
    elems = ['{"type": "@", "values": [{"object": 3, "class": [{"id": 4, "name": "%s", "version": 0}, {"ref": 2}], "groups": []}]}' % name]
    used = len(elems[0])
    i = 0
    while used < target - 200:
        e = '{"type": "@", "values": [{"object": %d, "class": [{"ref": 4}], "groups": []}]}' % (5 + i)
        elems.append(e)
        used += len(e) + 2
        i += 1
    return jdoc('{"type": "@", "values": [{"object": 0, "class": [{"id": 1, "name": "NSArray", "version": 0}, '
                '{"id": 2, "name": "NSObject", "version": 0}], "groups": [{"type": "i", "values": [%d]}, %s]}]}'
                % (len(elems), ", ".join(elems)))


def js_class_300(target):
    return js_class_name(JSON_COUNTS["class_name"], target)


def js_class_huge(target):
    return js_class_name(max(1000, target - 300), target)


def js_empty_70000(target):
    """Filler groups, then `[70000!]` with 70 000 nulls (over the 65 536 limit)."""
    count = JSON_COUNTS["empty"]
    tail = '{"type": "[%d!]", "values": [[' % count + ", ".join(["null"] * count) + ']]}'
    return jdoc(j_filler(target - len(tail) - 200, 0) + tail)


def js_many_empty(target):
    """Groups of type `{?=!!!!!!!!!!}` (ten empty values each), well over 65 536 empty values."""
    unit = '{"type": "{?=!!!!!!!!!!}", "values": [[null, null, null, null, null, null, null, null, null, null]]}'
    n = max(JSON_COUNTS["empty_groups"], target // (len(unit) + 2))
    return jdoc(", ".join([unit] * n))


def js_big_int(target):
    """An `i` value of ~size decimal digits."""
    return jdoc('{"type": "i", "values": [1' + "0" * max(JSON_COUNTS["digits"], target - 200) + ']}')


def js_big_real(target):
    """A `d` value 0.000…0001 with ~size digits, then a `d` 1e+<many digits>."""
    half = max(JSON_COUNTS["digits"] // 2, (target - 300) // 2)
    return jdoc('{"type": "d", "values": [0.' + "0" * half + '1]}, {"type": "d", "values": [1e' + "9" * half + ']}')


def js_deep_json(target):
    """JSON arrays nested ~size/2 deep as the value of a `[1…]` group (syntax-valid JSON)."""
    n = max(JSON_COUNTS["deep_json"], (target - 300) // 2)
    return jdoc('{"type": "[1i]", "values": [' + "[" * n + "]" * n + ']}')


def js_deep_objects(target):
    """Filler groups, then objects nested 260 deep (limit 256; 4 JSON levels per object keep
    the JSON depth, 1 040, under the parser's own limit of 1 088)."""
    depth = JSON_COUNTS["deep_objects"]
    tail = ""
    for i in range(depth):
        tail += '{"type": "@", "values": [{"object": %d, "class": [%s], "groups": [' % (
            i, '{"id": 1000000, "name": "Deep", "version": 0}' if i == 0 else '{"ref": 1000000}')
    tail += "]}]}" * depth
    return jdoc(j_filler(target - len(tail) - 200, 0) + tail)


def js_chain(target):
    """Root array of N Link objects, object i refers to object i-1 (valid)."""
    elems = ['{"type": "@", "values": [{"object": 3, "class": [{"id": 4, "name": "Link", "version": 0}, {"ref": 2}], '
             '"groups": [{"type": "@", "values": [null]}]}]}']
    used = len(elems[0])
    i = 5
    while used < target - 300:
        e = '{"type": "@", "values": [{"object": %d, "class": [{"ref": 4}], "groups": [{"type": "@", "values": [{"ref": %d}]}]}]}' % (
            i, 3 if i == 5 else i - 1)
        elems.append(e)
        used += len(e) + 2
        i += 1
    return jdoc('{"type": "@", "values": [{"object": 0, "class": [{"id": 1, "name": "NSArray", "version": 0}, '
                '{"id": 2, "name": "NSObject", "version": 0}], "groups": [{"type": "i", "values": [%d]}, %s]}]}'
                % (len(elems), ", ".join(elems)))


def js_escapes(target):
    """One `+` string of ~size bytes of escapes: \\u0001, surrogate pairs, \\n, \\", é."""
    unit = r'\u0001\ud83d\ude00\n\"\u00e9\\'
    return jdoc('{"type": "+", "values": ["' + unit * max(1, (target - 300) // len(unit)) + '"]}')


def js_lone_surrogate(target):
    """A long valid string ending in a lone surrogate escape \\ud800 (syntax error at the end)."""
    return jdoc('{"type": "+", "values": ["' + "a" * max(1, target - 300) + r'\ud800"]}')


# --------------------------------------------------------------------------------------------

# name -> (kind, valid, function(target bytes) -> bytes, description)
SHAPES = {
    "tiny-objects": ("typedstream", "yes", ts_tiny_objects, "NSArray of ~size/4 empty objects of unknown class Tiny"),
    "deep-nesting": ("typedstream", "yes", ts_deep_nesting,
                     "elements: 250 nested objects + 5 structs (nesting 256 with the root), and a 63-deep type string"),
    "many-classes": ("typedstream", "yes", ts_many_classes, "every object its own new class, names 12-200 bytes"),
    "long-class-chain": ("typedstream", "limit", ts_long_class_chain,
                         "one object whose class chain is ~size/12 new classes (the tool's limit is 1 024)"),
    "class-chains": ("typedstream", "yes", ts_class_chains, "objects with class chains of 1 000 new classes ending at NSObject"),
    "class-tower": ("typedstream", "yes", lambda t: ts_class_chains(t, tower=True),
                    "chains of 1 000 new classes ending at the previous object's class: hierarchy ~size/12 deep"),
    "many-type-strings": ("typedstream", "yes", ts_many_type_strings, "~size/20 distinct struct type strings, one group each"),
    "chain": ("typedstream", "yes", ts_chain, "~size/8 Link objects, each referring to the previous one"),
    "laid-out-chain": ("typedstream", "yes", ts_laid_out_chain,
                       "~size/16 NSCustomObjects (a catalogued class: named fields), each referring to the previous one"),
    "fan-in": ("typedstream", "yes", ts_fan_in, "billion laughs: 40 levels of NSArray [L(k-1), L(k-1)], top referenced ~size/2 times"),
    "big-shared": ("typedstream", "yes", ts_big_shared, "one 1 MiB NSString referenced ~size/2 times"),
    "big-shared-type": ("typedstream", "yes", ts_big_shared_type, "one 1 MiB type string {NNN…=c} used by ~size/2 top-level groups"),
    "huge-count-array": ("typedstream", "wire", ts_huge_count_array, "NSArray count 2^31-1 holding only ~size/4 elements"),
    "huge-count-bytes": ("typedstream", "no", ts_huge_count_bytes, "[2147483647c] followed by size bytes"),
    "huge-count-string": ("typedstream", "no", ts_huge_count_string, "NSString + length 2^31-1 followed by size bytes"),
    "huge-count-nested": ("typedstream", "no", ts_huge_count_nested, "[2147483647[2147483647i]] followed by size zero bytes"),
    "empty-limit": ("typedstream", "yes", ts_empty_limit, "[65000!] + 500 {?=} (65 500 empty values), then [4096c] filler"),
    "empty-over": ("typedstream", "no", ts_empty_over, "[4096c] filler then [60000[60000!]]"),
    "long-strings": ("typedstream", "yes", ts_long_strings, "4 NSStrings of size/4: UTF-8, control chars, invalid UTF-8, quotes"),
    "many-shared-strings": ("typedstream", "yes", ts_many_shared_strings, "objects with new %, : and * shared strings (~size/45 each)"),
    "wide-dict": ("typedstream", "yes", ts_wide_dict, "NSDictionary of ~size/28 NSString keys -> NSNumber values"),
    "dup-keys": ("typedstream", "yes", ts_dup_keys, "NSDictionary of ~size/4 entries, all the same key and value object"),
    "cycles": ("typedstream", "yes", ts_cycles, "self-containing NSArrays, self-referencing and mutually referencing objects"),
    "top-groups": ("typedstream", "yes", ts_top_groups, "many top-level groups of every scalar kind, random bit patterns"),
    "keyed-self": ("keyed", "no", kbin(kd_self), "models NSArray containing itself"),
    "keyed-mutual": ("keyed", "no", kbin(kd_mutual), "two NSArrays containing each other"),
    "keyed-chain": ("keyed", "limit", kbin(kd_chain, 100000), "NSArray nested via UIDs ~size/34 deep (>= 100 000)"),
    "keyed-wide": ("keyed", "yes", kbin(kd_wide), "well-formed document of ~size/60 models"),
    "keyed-class-string": ("keyed", "no", kbin(kd_class_string), "models; the last one's $class is a string"),
    "keyed-class-self": ("keyed", "no", kbin(kd_class_self), "models; the last one's $class is itself"),
    "keyed-class-range": ("keyed", "no", kbin(kd_class_range), "models; the last one's $class is UID 4e9"),
    "keyed-bomb": ("keyed", "no", kbin(kd_bomb), "UID expansion bomb, 48 levels of [A, A], top referenced many times"),
    "keyed-bplist-bomb": ("keyed", "no", kraw(bp_bomb), "bplist object-reference bomb: 64 levels of [a, a]"),
    "keyed-bplist-cycle": ("keyed", "no", kraw(bp_cycle), "bplist array containing itself"),
    "keyed-bplist-deep": ("keyed", "no", kraw(bp_deep, 100000), "bplist arrays nested >= 100 000 deep"),
    "keyed-self-xml": ("keyed", "no", kxml(kd_self), "XML: NSArray containing itself"),
    "keyed-chain-xml": ("keyed", "limit", kxml(kd_chain), "XML: NSArray UID chain >= 100 000 deep"),
    "keyed-bomb-xml": ("keyed", "no", kxml(kd_bomb), "XML: UID expansion bomb"),
    "keyed-class-string-xml": ("keyed", "no", kxml(kd_class_string), "XML: $class pointing at a string"),
    "keyed-deep-xml": ("keyed", "no", kraw(xml_deep, 100000), "XML plist <array> nested >= 100 000 deep"),
    "json-class-loop": ("json", "no", js_class_loop, "class chain LoopA -> LoopB -> LoopA, many objects of LoopA"),
    "json-class-300": ("json", "no", js_class_300, "a 300-byte class name (limit 256), many objects of it"),
    "json-class-huge": ("json", "no", js_class_huge, "a class name of ~size bytes"),
    "json-empty-70000": ("json", "no", js_empty_70000, "filler then [70000!]"),
    "json-many-empty": ("json", "no", js_many_empty, "> 65 536 empty values in {?=!!!!!!!!!!} groups"),
    "json-big-int": ("json", "no", js_big_int, "an i value of >= 1 M digits"),
    "json-big-real": ("json", "no", js_big_real, "d values with >= 0.5 M digits: 0.000…1 and 1e999…"),
    "json-deep-json": ("json", "no", js_deep_json, "JSON arrays nested >= 100 000 deep"),
    "json-deep-objects": ("json", "no", js_deep_objects, "filler then objects nested 260 deep (limit 256)"),
    "json-chain": ("json", "yes", js_chain, "~size/110 Link objects each referring to the previous"),
    "json-escapes": ("json", "yes", js_escapes, "one string of ~size bytes of escapes and surrogate pairs"),
    "json-lone-surrogate": ("json", "no", js_lone_surrogate, "a long string ending in a lone \\ud800"),
}

EXTENSIONS = {"typedstream": ".typedstream", "keyed": ".plist", "json": ".json"}


def file_name(shape):
    return shape + EXTENSIONS[SHAPES[shape][0]]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, default=1)
    ap.add_argument("--out", default=None)
    ap.add_argument("--shapes", default="", help="comma-separated shape names (default: all)")
    ap.add_argument("--list", action="store_true", help="print name, kind, valid, file, description")
    ap.add_argument("--fuzz-limits", action="store_true",
                    help="json-* shapes pass the jsonimporter fuzz target's small limits instead of the defaults")
    args = ap.parse_args(argv)
    if args.fuzz_limits:
        JSON_COUNTS.update(FUZZ_JSON_COUNTS)
    if args.list:
        for name, (kind, valid, _, desc) in SHAPES.items():
            print("\t".join([name, kind, valid, file_name(name), desc]))
        return 0
    if not args.out:
        ap.error("--out DIR is required")
    names = [s for s in args.shapes.split(",") if s] or list(SHAPES)
    unknown = [s for s in names if s not in SHAPES]
    if unknown:
        ap.error("unknown shape(s): %s (see --list)" % ", ".join(unknown))
    os.makedirs(args.out, exist_ok=True)
    target = int(args.size_mb * MB)
    for name in names:
        data = SHAPES[name][2](target)
        path = os.path.join(args.out, file_name(name))
        with open(path, "wb") as f:
            f.write(data)
        print("%s\t%d" % (path, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
