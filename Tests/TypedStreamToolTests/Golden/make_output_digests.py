#!/usr/bin/env python3
"""Writes output-digests.tsv: for every sample and corpus archive and every rendering command,
the exit status and the FNV-1a 64 digest of standard output, as a given `typedstream` binary
prints them. The file was made with the binary from before the renderers streamed, so
StreamedOutputTests checks that streaming changed no byte. To remake it (only when an output is
meant to change, and review the diff):

    python3 Tests/TypedStreamToolTests/Golden/make_output_digests.py .build/release/typedstream
"""
import os, subprocess, sys

COMMANDS = [["decode"], ["decode", "--json"], ["decode", "--plain"], ["tokens"], ["inspect"]]

def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h

def main():
    binary = sys.argv[1]
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
    corpus = os.path.abspath(os.path.join(root, "../shared/corpus"))
    files = []
    for folder, label in [(os.path.join(root, "Samples"), "Samples"), (corpus, "corpus")]:
        for dirpath, _, names in os.walk(folder):
            for name in names:
                path = os.path.join(dirpath, name)
                if label == "Samples" and not name.endswith((".typedstream", ".bin")):
                    continue
                if name.endswith((".md", ".tsv")):
                    continue
                files.append((label + "/" + os.path.relpath(path, folder), path))
    files.sort()
    lines = []
    for rel, path in files:
        for command in COMMANDS:
            result = subprocess.run([binary] + command + [path], capture_output=True)
            lines.append("%s\t%s\t%d\t%s" % (rel, " ".join(command), result.returncode, fnv1a(result.stdout)))
    with open(os.path.join(os.path.dirname(__file__), "output-digests.tsv"), "w") as out:
        out.write("# file\tcommand\texit status\tFNV-1a 64 of standard output (see make_output_digests.py)\n")
        out.write("\n".join(lines) + "\n")

main()
