#!/usr/bin/env python3
"""Writes the hand-made malformed typedstream inputs and their table.

    python3 Tests/Malformed/make_catalogue.py

(run from the package root, or from anywhere: paths are relative to this file) rewrites every
hand-made file in Samples/malformed/ and Samples/malformed/CATALOGUE.tsv. Review the result
with `git diff`. Fuzz finds (Samples/malformed/fuzz-*) are not generated: they are listed in
FUZZ_FINDS below and kept as they were found.

Every row says which WireError code TokenReader.readAll() must throw and at which byte
offset; `ok` rows must decode (the wire layer accepts them; a higher layer reports the
problem). Tests/TypedStreamTests/MalformedCatalogueTests.swift checks every row exactly.
"""
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "Samples", "malformed")

# The header modern macOS writes: streamer 4, signature length 11, "streamtyped", system 1000.
H = b"\x04\x0bstreamtyped\x81\xe8\x03"
assert len(H) == 16


def lit(text):
    """A literal shared string: 0x84 (new), inline length, bytes."""
    data = text if isinstance(text, bytes) else text.encode()
    assert len(data) < 128
    return b"\x84" + bytes([len(data)]) + data


def lit16(text):
    """A literal shared string whose length is written as 0x81 int16 (little-endian)."""
    data = text.encode()
    return b"\x84\x81" + len(data).to_bytes(2, "little") + data


def ref(index):
    """A one-byte reference label for table slot `index` (written as index - 110)."""
    assert 0 <= index <= 237
    return bytes([(index - 110) & 0xFF])


def nsobject_root():
    """H + group "@" + a complete NSObject instance: 34 bytes, object #0, class #1."""
    return H + lit("@") + b"\x84" + b"\x84" + lit("NSObject") + b"\x00" + b"\x85" + b"\x86"


assert len(nsobject_root()) == 34


def nested_objects(count):
    """`count` objects, each the only content of the one before (class A, slot #1)."""
    out = H + lit("@") + b"\x84" + b"\x84" + lit("A") + b"\x00" + b"\x85"  # obj #0 at 19, class #1
    for _ in range(count - 1):
        out += ref(0) + b"\x84" + ref(1)  # group "@", new object, class = reference to #1
    return out


def v3_quadratic(length):
    """Streamer 3: object #0 of class #1 whose name (shared string #0) is `length` bytes that do
    not parse as types, then `length` bytes 0x92: each is a group head that refers to shared
    string #0 / object #0; since the text does not parse it is an untyped object reference."""
    text = b"i" * (length - 1) + b"z"
    return b"\x03" + H[1:] + b"\x84\x84\x84\x81" + length.to_bytes(2, "little") + text + b"\x00\x85\x00\x86" + ref(0) * length


# (file, code, offset, description, bytes). offset None for `ok` rows.
CASES = [
    # --- header -------------------------------------------------------------------------
    ("empty.bin", "empty", 0, "empty file", b""),
    ("one-byte.bin", "truncated", 1, "1-byte file: streamer version 4, then nothing (signature length missing)", b"\x04"),
    ("header-wrong-signature.bin", "badHeader", 2, "signature 'streamtypes' is neither typedstream nor streamtyped", b"\x04\x0bstreamtypes\x81\xe8\x03"),
    ("header-signature-length-10.bin", "badHeader", 1, "signature length 10 instead of 11", b"\x04\x0astreamtype\x81\xe8\x03"),
    ("header-signature-length-0x84.bin", "badHeader", 1, "signature length byte is the tag 0x84", b"\x04\x84\x0bstreamtyped\x81\xe8\x03"),
    ("header-version-5.bin", "unsupportedVersion", 0, "streamer version 5 with a valid signature", b"\x05" + H[1:]),
    ("header-version-2.bin", "unsupportedVersion", 0, "streamer version 2 with a valid signature", b"\x02" + H[1:]),
    ("header-version-0-no-signature.bin", "badHeader", 0, "first byte 0 and no signature: not a typedstream at all", b"\x00\x01\x02\x03"),
    ("header-truncated-signature.bin", "truncated", 2, "signature cut after 6 of 11 bytes", b"\x04\x0bstream"),
    ("header-no-system-version.bin", "truncated", 13, "header ends after the signature: system version missing", H[:13]),
    ("header-truncated-system-version.bin", "truncated", 14, "system version 0x81 int16 with only 1 of 2 bytes", H[:15]),
    ("header-system-version-0x80.bin", "unexpectedHeadByte", 13, "system version head is the reserved tag 0x80", H[:13] + b"\x80"),
    ("header-system-version-0x87.bin", "unexpectedHeadByte", 13, "system version as 0x87 int64 (not allowed in the header)", H[:13] + b"\x87" + b"\xe8\x03" + b"\x00" * 6),
    ("foreign-gnustep.bin", "foreignGNUstep", 0, "GNUstep archive header (a different format)", b"GNUstep archive00002c88:00000004:00000005:00000000:\x01\x02"),
    ("foreign-bplist00.bin", "foreignKeyedArchive", 0, "bplist00 header (NSKeyedArchiver binary plist)", b"bplist00\xd1\x01\x02QaQb\x08\x0b\x0d"),
    ("foreign-xml-plist.bin", "foreignKeyedArchive", 0, "XML property list", b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict/></plist>\n'),
    # --- tags in the wrong place ------------------------------------------------------------
    ("tag-0x80-top-level.bin", "unexpectedHeadByte", 16, "reserved tag 0x80 where a type string should start", H + b"\x80"),
    ("tag-0x80-shared-string-length.bin", "unexpectedHeadByte", 17, "reserved tag 0x80 as the length of a literal type string", H + b"\x84\x80"),
    ("tag-0x83-in-int.bin", "unexpectedHeadByte", 19, "real tag 0x83 (float) where an int (i) is expected", H + lit("i") + b"\x83\x00\x00\x80\x3f"),
    ("tag-0x83-type-string.bin", "unexpectedHeadByte", 16, "real tag 0x83 where a type string should start", H + b"\x83\x00\x00\x00\x00"),
    ("tag-0x84-in-int.bin", "unexpectedHeadByte", 19, "new tag 0x84 where an int (i) is expected", H + lit("i") + b"\x84\x01\x69"),
    ("tag-0x85-in-int.bin", "unexpectedHeadByte", 19, "nil 0x85 where an int (i) is expected", H + lit("i") + b"\x85"),
    ("tag-0x85-type-string.bin", "unexpectedHeadByte", 16, "nil 0x85 where a type string should start", H + b"\x85"),
    ("tag-0x86-top-level.bin", "unexpectedHeadByte", 16, "end of object 0x86 at top level (no object open)", H + b"\x86"),
    ("tag-0x86-in-int.bin", "unexpectedHeadByte", 19, "end of object 0x86 where an int (i) is expected", H + lit("i") + b"\x86"),
    ("tag-0x87-in-short.bin", "unexpectedHeadByte", 19, "int64 tag 0x87 in a short (s)", H + lit("s") + b"\x87" + b"\x01" + b"\x00" * 7),
    ("tag-0x82-in-short.bin", "unexpectedHeadByte", 19, "int32 tag 0x82 in a short (s): shorts are inline or int16 only", H + lit("s") + b"\x82\x00\x00\x01\x00"),
    ("tag-0x87-object-reference.bin", "unexpectedHeadByte", 19, "int64 tag 0x87 as an object reference label", H + lit("@") + b"\x87" + b"\x00" * 8),
    ("tag-0x88-type-string.bin", "unexpectedHeadByte", 16, "reserved tag 0x88 where a type string should start", H + b"\x88"),
    ("tag-0x89-in-int.bin", "unexpectedHeadByte", 19, "reserved tag 0x89 in an int (i)", H + lit("i") + b"\x89"),
    ("tag-0x8a-in-short.bin", "unexpectedHeadByte", 19, "reserved tag 0x8A in a short (s)", H + lit("s") + b"\x8a"),
    ("tag-0x8b-object.bin", "unexpectedHeadByte", 19, "reserved tag 0x8B where an object (@) is expected", H + lit("@") + b"\x8b"),
    ("tag-0x8c-class.bin", "unexpectedHeadByte", 20, "reserved tag 0x8C where a new object's class is expected", H + lit("@") + b"\x84\x8c"),
    ("tag-0x8d-plus-length.bin", "unexpectedHeadByte", 19, "reserved tag 0x8D as the length of counted bytes (+)", H + lit("+") + b"\x8d"),
    ("tag-0x8e-cstring.bin", "unexpectedHeadByte", 19, "reserved tag 0x8E where a C string (*) is expected", H + lit("*") + b"\x8e"),
    ("tag-0x8f-atom.bin", "unexpectedHeadByte", 19, "reserved tag 0x8F where an atom (%) is expected", H + lit("%") + b"\x8f"),
    ("tag-0x90-double.bin", "unexpectedHeadByte", 19, "reserved tag 0x90 where a double (d) is expected", H + lit("d") + b"\x90"),
    ("tag-0x91-class-version.bin", "unexpectedHeadByte", 24, "reserved tag 0x91 as a class version", H + lit("@") + b"\x84\x84" + lit("A") + b"\x91"),
    ("tag-0x87-class-version.bin", "unexpectedHeadByte", 24, "int64 tag 0x87 as a class version", H + lit("@") + b"\x84\x84" + lit("A") + b"\x87" + b"\x00" * 8),
    # --- references ------------------------------------------------------------------------
    ("ref-shared-string-undefined.bin", "badReference", 16, "type string refers to shared string #0 before any is defined", H + ref(0)),
    ("ref-shared-string-out-of-range.bin", "badReference", 20, "second group's type string refers to shared string #5; only #0 exists", H + lit("i") + b"\x05" + ref(5) + b"\x07"),
    ("ref-shared-string-negative.bin", "badReference", 16, "int16 reference label -32768 (shared-string index -32658)", H + b"\x81\x00\x80"),
    ("ref-shared-string-int32-huge.bin", "badReference", 16, "int32 reference label 2147483647", H + b"\x82\xff\xff\xff\x7f"),
    ("ref-atom-undefined.bin", "badReference", 19, "atom (%) refers to shared string #9; only #0 exists", H + lit("%") + ref(9)),
    ("ref-object-undefined.bin", "badReference", 19, "object reference to #0 before any object is defined", H + lit("@") + ref(0)),
    ("ref-object-out-of-range.bin", "badReference", 35, "object reference to #2 when only #0 (object) and #1 (class) exist", nsobject_root() + ref(0) + ref(2)),
    ("ref-object-int16-out-of-range.bin", "badReference", 35, "int16 object reference to #10110", nsobject_root() + ref(0) + b"\x81\x10\x27"),
    ("ref-cstring-to-class.bin", "referenceKindMismatch", 37, "C string (*) reference to slot #1, which holds a class", nsobject_root() + lit("*") + ref(1)),
    ("ref-cstring-to-object.bin", "referenceKindMismatch", 37, "C string (*) reference to slot #0, which holds an object", nsobject_root() + lit("*") + ref(0)),
    ("ref-class-to-cstring.bin", "referenceKindMismatch", 26, "class (#) reference to slot #0, which holds a C string", H + lit("*") + b"\x84" + lit("c") + lit("#") + ref(0)),
    ("ref-object-to-cstring.bin", "referenceKindMismatch", 26, "object (@) reference to slot #0, which holds a C string", H + lit("*") + b"\x84" + lit("c") + lit("@") + ref(0)),
    ("class-loop-self.bin", "referenceKindMismatch", 20, "closest thing to a class chain that loops: the new object's class is a reference to the object itself (#0)", H + lit("@") + b"\x84" + ref(0)),
    ("class-loop-superclass.bin", "referenceKindMismatch", 25, "class A's superclass is a reference to the object being defined (#0)", H + lit("@") + b"\x84\x84" + lit("A") + b"\x00" + ref(0)),
    ("class-loop-self-superclass.bin", "ok", None, "class A (#1) whose superclass is a reference to #1 itself (a class takes its slot before its superclass): a real loop, accepted at the wire level (each link is well-formed); the archive graph refuses it with classChainLoop at 0x19 (a cycle of classes would leak)", H + lit("@") + b"\x84\x84" + lit("A") + b"\x00" + ref(1) + b"\x86"),
    ("class-loop-two-classes.bin", "ok", None, "class A (#1), superclass B (#2), whose superclass refers back to A: a loop of two, accepted at the wire level; the archive graph refuses it with classChainLoop", H + lit("@") + b"\x84\x84" + lit("A") + b"\x00\x84" + lit("B") + b"\x00" + ref(1) + b"\x86"),
    ("class-loop-class-value.bin", "ok", None, "a # value: class A (#0) whose superclass refers to #0 (wire: accepted; archive graph: classChainLoop)", H + lit("#") + b"\x84" + lit("A") + b"\x00" + ref(0)),
    ("ref-cstring-text-undefined.bin", "badReference", 20, "new C string whose text refers to shared string #5; only #0 exists", H + lit("*") + b"\x84" + ref(5)),
    ("ref-class-name-undefined.bin", "badReference", 21, "new class whose name refers to shared string #5; only #0 exists", H + lit("@") + b"\x84\x84" + ref(5)),
    ("cstring-text-nil.bin", "unexpectedHeadByte", 20, "new C string whose text is nil (0x85)", H + lit("*") + b"\x84\x85"),
    ("class-name-nil.bin", "unexpectedHeadByte", 21, "new class whose name is nil (0x85)", H + lit("@") + b"\x84\x84\x85"),
    # --- lengths and counts ---------------------------------------------------------------
    ("length-plus-past-end.bin", "badLength", 19, "counted bytes (+) of length 50 with 3 bytes left", H + lit("+") + b"\x32ABC"),
    ("length-plus-negative.bin", "badLength", 19, "counted bytes (+) of length -1 (inline 0xFF)", H + lit("+") + b"\xffA"),
    ("length-plus-negative-int16.bin", "badLength", 19, "counted bytes (+) of length -1 as int16", H + lit("+") + b"\x81\xff\xff"),
    ("length-plus-int32-huge.bin", "badLength", 19, "counted bytes (+) of length 0x70000000", H + lit("+") + b"\x82\x00\x00\x00\x70" + b"x" * 4),
    ("length-shared-string-past-end.bin", "badLength", 17, "literal type string of length 32 with 1 byte left", H + b"\x84\x20i"),
    ("length-shared-string-negative.bin", "badLength", 17, "literal type string of length -2", H + b"\x84\xfei"),
    ("array-2000000000i-40-bytes.bin", "badLength", 31, "[2000000000i] in a 40-byte file: refused before anything is allocated", H + lit("[2000000000i]") + b"\x00" * 9),
    ("array-bytes-past-end.bin", "badLength", 22, "[9c] with 2 bytes left", H + lit("[9c]") + b"AB"),
    ("array-empty-elements-limit.bin", "limitExceeded", 26, "[70000!]: 70 000 elements that take no bytes (limit 65 536)", H + lit("[70000!]")),
    ("array-empty-elements-nested.bin", "limitExceeded", 33, "[60000[60000!]]: each array is under the limit but together 3.6e9 empty elements", H + lit("[60000[60000!]]")),
    ("array-empty-elements-repeated.bin", "limitExceeded", 35, "[2{?=[60000!]i}]: 2 x 60 000 empty elements, more than 65 536 in all", H + lit("[2{?=[60000!]i}]") + b"\x01\x02"),
    ("empty-values-many-groups.bin", "limitExceeded", 4132, "type string of 4 096 '!' used by 17 groups: 69 632 values that take no bytes from 4 132 bytes (refused at the end of the data, where the 65 537th would be)", H + lit16("!" * 4096) + ref(0) * 16),
    ("real-float-inexact-int32.bin", "inexactReal", 19, "float (f) written as int32 16 777 217, which no float holds: reading it as 16 777 216 would lose the written bytes", H + lit("f") + b"\x82\x01\x00\x00\x01"),
    ("real-double-inexact-int64.bin", "inexactReal", 19, "double (d) written as int64 2^53 + 1, which no double holds", H + lit("d") + b"\x87\x01\x00\x00\x00\x00\x00\x20\x00"),
    ("real-double-int64-exact.bin", "ok", None, "double (d) written as int64 2^40: exact, so accepted (no writer uses 0x87 for reals, but the value is kept)", H + lit("d") + b"\x87\x00\x00\x00\x00\x00\x01\x00\x00"),
    # --- type strings ---------------------------------------------------------------------
    ("type-open-brace.bin", "badTypeString", 16, "type string '{' does not parse", H + lit("{")),
    ("type-unknown-letter.bin", "badTypeString", 16, "type string 'z' does not parse", H + lit("z")),
    ("type-array-count-too-large.bin", "badTypeString", 16, "type string '[3000000000i]': count above 2^31-1", H + lit("[3000000000i]")),
    ("type-name-with-brace.bin", "badTypeString", 16, "'<ffffffffi}>' (fuzz find fuzz-objctype-35ee9c23bf5a in a group): a struct name may not hold '}'", H + lit("<ffffffffi}>")),
    ("type-array-members-depth.bin", "badTypeString", 16, "62 nested [1 … ] around [2ii]: within 64 levels as written, but the members of [2ii] form a struct one level deeper (fuzz find fuzz-objctype-517e6f3e4675)", H + lit16("[1" * 62 + "[2ii]" + "]" * 62) + b"\x01\x02"),
    ("type-pointer.bin", "badTypeString", 16, "'^i' parses but a pointer cannot be archived: the group is refused at its type string, as NeXT does", H + lit("^i") + b"\x00"),
    ("type-bitfield.bin", "badTypeString", 16, "'b3' parses but a bitfield cannot be archived", H + lit("b3") + b"\x00"),
    ("type-void.bin", "badTypeString", 16, "'v' parses but void cannot be archived", H + lit("v")),
    ("type-unknown-in-struct.bin", "badTypeString", 16, "'{?=i?}': the unknown type '?' inside a struct cannot be archived", H + lit("{?=i?}") + b"\x00"),
    ("type-pointer-after-valid.bin", "badTypeString", 16, "'i^i': refused before the valid first value is read", H + lit("i^i") + b"\x05\x00"),
    ("type-union-unsized.bin", "badTypeString", 16, "union '(v)' has no size", H + lit("(v)") + b"\x00"),
    ("type-nesting-limit.bin", "badTypeString", 16, "type string of 65 nested arrays [1[1…i]…] exceeds maximumTypeNesting 64", H + lit16("[1" * 65 + "i" + "]" * 65) + b"\x00"),
    # --- truncation -----------------------------------------------------------------------
    ("trunc-type-string-length.bin", "truncated", 17, "literal type string cut after 0x84", H + b"\x84"),
    ("trunc-byte.bin", "truncated", 19, "group 'c' with no byte", H + lit("c")),
    ("trunc-int16.bin", "truncated", 20, "int (i) 0x81 with 1 of 2 bytes", H + lit("i") + b"\x81\x01"),
    ("trunc-int32.bin", "truncated", 20, "int (i) 0x82 with 2 of 4 bytes", H + lit("i") + b"\x82\x01\x02"),
    ("trunc-int64.bin", "truncated", 20, "long long (q) 0x87 with 3 of 8 bytes", H + lit("q") + b"\x87\x01\x02\x03"),
    ("trunc-float.bin", "truncated", 20, "float (f) 0x83 with 2 of 4 bytes", H + lit("f") + b"\x83\x00\x00"),
    ("trunc-double.bin", "truncated", 20, "double (d) 0x83 with 4 of 8 bytes", H + lit("d") + b"\x83\x00\x00\x00\x00"),
    ("trunc-string-missing.bin", "truncated", 19, "group '+' with no string", H + lit("+")),
    ("trunc-cstring-text.bin", "truncated", 20, "new C string (*) cut before its text", H + lit("*") + b"\x84"),
    ("trunc-class-missing.bin", "truncated", 20, "new object cut before its class", H + lit("@") + b"\x84"),
    ("trunc-class-name-missing.bin", "truncated", 21, "new class cut before its name", H + lit("@") + b"\x84\x84"),
    ("trunc-class-name.bin", "badLength", 22, "class name of length 8 with 2 bytes left", H + lit("@") + b"\x84\x84\x84\x08NS"),
    ("trunc-class-version.bin", "truncated", 24, "new class cut before its version", H + lit("@") + b"\x84\x84" + lit("A")),
    ("trunc-superclass.bin", "truncated", 25, "new class cut before its superclass", H + lit("@") + b"\x84\x84" + lit("A") + b"\x00"),
    ("trunc-object-end.bin", "truncated", 26, "new object with no end-of-object 0x86", H + lit("@") + b"\x84\x84" + lit("A") + b"\x00\x85"),
    ("trunc-values-left-over.bin", "truncated", 21, "group 'ii' with only one value", H + lit("ii") + b"\x05"),
    ("trunc-struct.bin", "truncated", 25, "struct {?=ii} with only its first field", H + lit("{?=ii}") + b"\x05"),
    ("trunc-union.bin", "truncated", 21, "union (i) (4 bytes) with 2 bytes left", H + lit("(i)") + b"\x01\x02"),
    ("trunc-v3-instance-size.bin", "truncated", 23, "streamer 3: untyped object whose instance-size int is missing", b"\x03" + H[1:] + b"\x84\x84" + lit("A") + b"\x00\x85"),
    # --- accepted at the wire level -------------------------------------------------------
    ("utf8-invalid-plus.bin", "ok", None, "counted bytes (+) 'C3 28' are invalid UTF-8: the wire layer keeps raw bytes; the string codec reports it", H + lit("+") + b"\x02\xc3\x28"),
    ("v3-unparsable-type-string-reused.bin", "limitExceeded", 18, "streamer 3: an 8 000-byte class name that does not parse as types, then 8 000 one-byte groups that refer to it and are read as object references; refused at the name, longer than maximumClassNameLength 256 (it decoded once: each probe of the text is remembered, which once took seconds)", v3_quadratic(8000)),
    ("v3-unparsable-type-string-reused-256.bin", "ok", None, "streamer 3: the same with a 256-byte class name (the limit) and 256 groups that refer to it; decodes", v3_quadratic(256)),
    # --- limits and leftovers -------------------------------------------------------------
    ("nesting-10000-objects.bin", "limitExceeded", 792, "10 000 objects each inside the one before; the 257th exceeds maximumNesting 256", nested_objects(10000)),
    ("trailing-end-of-object.bin", "unexpectedHeadByte", 34, "complete root object, then a stray 0x86: a new group cannot start with end of object", nsobject_root() + b"\x86"),
    ("trailing-newline.bin", "badReference", 34, "complete root object, then a newline: read as a type-string reference to #120", nsobject_root() + b"\n"),
    ("trailing-bad-type-string.bin", "badTypeString", 34, "complete root object, then a new group whose type string 'zz' does not parse", nsobject_root() + lit("zz")),
    ("trailing-truncated-group.bin", "truncated", 35, "complete root object, then a group '@' (type string reference to #0) with no value", nsobject_root() + ref(0)),
]

# Inputs found by Tests/Fuzz/fuzz.sh, kept byte for byte: (file, code, offset, description).
FUZZ_FINDS = [
    ("fuzz-unarchiver-0460f6477f46", "ok", None, "unarchiver find (leak): a # value whose class A is its own superclass made a cycle of ArchivedClass objects that was never freed; fixed: ArchiveReader refuses the loop (classChainLoop at 0x18); FuzzFindsTests replays it at the graph level"),
    ("fuzz-unarchiver-c8eb8aea13d9", "ok", None, "unarchiver find (leak): an NSMutableArray that contains itself — legal (like Samples/cycle.typedstream), but the graph's cycle was never freed; fixed: an Archive owns its objects and empties them when it goes away (typed cycles stay the caller's, as in Objective-C)"),
    ("fuzz-objctype-517e6f3e4675", "badHeader", 0, "objctype find: an array with several members ('[3irr…^^…+…i]') parsed at the nesting limit, but its canonical print wraps the members in a struct ('[3{…}]') one level deeper, which did not parse; fixed: that struct counts toward the limit. Not an archive, so refused at its first byte"),
    ("fuzz-unarchiver-8aec486c90ae", "limitExceeded", 18, "unarchiver find (timeout): a mutation of v3-unparsable-type-string-reused.bin, whose 7 950 objects of one 8 000-byte class (mostly invalid UTF-8) took seconds to name and to re-encode — each object's class name was made into text and hashed again (the tree view, the archiver); fixed: DecodingLimits.maximumClassNameLength (256) refuses the name"),
    ("fuzz-unarchiver-528316f63c76", "ok", None, "unarchiver find (leak): a streamer-3 object whose class chain has three classes named PrintNSOb; re-encoded through the Archiver, which shares class entries by name, the class became its own superclass (a cycle of ArchivedClass never freed, and a chain no reader takes); fixed: the Archiver refuses a chain that names a class twice (invalidValue)"),
    ("fuzz-unarchiver-5eed90190866", "ok", None, "unarchiver find (timeout): the adversarial seed fan-in at 12 KB ('lol', then NSArrays whose level k holds level k-1 twice, the top referenced from everywhere); the target's naturalValue(of:) wrote every shared object again at each use, 2^39 strings; fixed: naturalValue has a budget of objects converted (maximumObjects, default 2^24), past which objects are '<over budget>'"),
    ("fuzz-jsonimporter-14e88fa607d7", "badHeader", 0, "jsonimporter find (crash, then leak): the adversarial seed json-class-loop, a class chain LoopA -> LoopB -> LoopA; the importer accepted it and the writer wrote an archive the reader refuses (classChainLoop); fixed: the importer refuses a chain that refers back to a class it defines, and ArchiveWriter refuses a chain that loops or passes maximumClassChainLength. JSON, not an archive: refused at its first byte; JSONImporterFindsTests replays the target's property"),
    ("fuzz-jsonimporter-222dd6b1bbe5", "badHeader", 0, "jsonimporter find (crash): the adversarial seed json-class-300, a class name of 300 bytes; the writer wrote it and the reader refused it (maximumClassNameLength); fixed: ArchiveWriter refuses a class name longer than readers accept. JSON, not an archive: refused at its first byte"),
    ("fuzz-jsonimporter-781855dcedbb", "badHeader", 0, "jsonimporter find (leak): the adversarial seed json-chain with one object holding a reference to itself (legal, like Samples/cycle.typedstream); the imported archive did not own its objects, so the cycle was never freed; fixed: ArchiveJSON.decode returns an archive that owns its objects, and empties them when the document fails part-way. JSON, not an archive: refused at its first byte; JSONImporterFindsTests checks the object is freed"),
    ("fuzz-objctype-35ee9c23bf5a", "badHeader", 0, "objctype find: the type string '<ffffffffi}>' parsed as a struct named 'ffffffffi}' whose canonical print '{ffffffffi}=}' did not parse; fixed: '}' ends a name. Not an archive, so refused at its first byte; FuzzFindsTests replays the grammar property"),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    names = set()
    rows = []
    for name, code, offset, description, data in CASES:
        assert name not in names, name
        names.add(name)
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        rows.append((name, code, "-" if offset is None else str(offset), description))
    for name, code, offset, description in FUZZ_FINDS:
        assert name not in names, name
        names.add(name)
        if not os.path.exists(os.path.join(OUT, name)):
            sys.exit(f"missing fuzz find {name}")
        rows.append((name, code, "-" if offset is None else str(offset), description))
    for existing in os.listdir(OUT):
        if existing.endswith(".bin") and existing not in names:
            print(f"note: {existing} is not in the catalogue (remove it or add a row)", file=sys.stderr)
    with open(os.path.join(OUT, "CATALOGUE.tsv"), "w") as f:
        f.write("# Regenerate: python3 Tests/Malformed/make_catalogue.py   (checked by: swift test --filter MalformedCatalogueTests)\n")
        f.write("file\tcode\toffset\tdescription\n")
        for row in rows:
            assert all("\t" not in cell and "\n" not in cell for cell in row)
            f.write("\t".join(row) + "\n")
    print(f"wrote {len(rows)} rows to {os.path.relpath(os.path.join(OUT, 'CATALOGUE.tsv'), ROOT)}")


if __name__ == "__main__":
    main()
