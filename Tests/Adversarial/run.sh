#!/usr/bin/env bash
# Pushes adversarial inputs (make_adversarial.py) through every command of the `typedstream` tool
# and reports crashes, timeouts, memory blow-ups and super-linear slowdowns.
#
#   Tests/Adversarial/run.sh [--sizes 1,4,16] [--shapes a,b] [--out DIR] [--timeout S]
#                            [--mem-limit-mb N] [--reuse]
#
# The binary is $TYPEDSTREAM (default .build/release/typedstream, relative to the repo root).
# See README.md in this folder for what is checked.
set -u

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=${TYPEDSTREAM:-.build/release/typedstream}
case $BIN in /*) ;; *) BIN="$ROOT/$BIN" ;; esac

SIZES=1,4
SHAPES=
OUT="${TMPDIR:-/tmp}/typedstream-adversarial"
TIMEOUT=60
MEM_LIMIT_MB=4096       # address-space cap per command (0: none); protects the machine
PEAK_LIMIT_KB=2097152   # peak RSS above this is a failure
RATIO_LIMIT=20          # cpu(16 MB) / max(cpu(1 MB), 0.05 s) above this is a failure
RATIO_RETRIES=2         # further measurements of a shape over the ratio (the least time counts)
REUSE=0

usage() {
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit "${1:-64}"
}

while [ $# -gt 0 ]; do
    case $1 in
        --sizes) SIZES=$2; shift 2 ;;
        --shapes) SHAPES=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --mem-limit-mb) MEM_LIMIT_MB=$2; shift 2 ;;
        --reuse) REUSE=1; shift ;;
        -h|--help) usage 0 ;;
        *) echo "run.sh: unknown argument '$1'" >&2; usage 64 ;;
    esac
done

[ -x "$BIN" ] || { echo "run.sh: no executable at $BIN (set TYPEDSTREAM)" >&2; exit 64; }
[ -x /usr/bin/time ] || { echo "run.sh: needs GNU time at /usr/bin/time" >&2; exit 64; }
command -v timeout >/dev/null || { echo "run.sh: needs timeout (coreutils)" >&2; exit 64; }
command -v python3 >/dev/null || { echo "run.sh: needs python3" >&2; exit 64; }

GEN="$HERE/make_adversarial.py"
mkdir -p "$OUT/logs"
OUT=$(cd "$OUT" && pwd)
SCRATCH="$OUT/scratch"
TSV="$OUT/results.tsv"
printf 'shape\tsize_mb\tcommand\texit\tseconds\tpeak_kb\tcpu_seconds\n' > "$TSV"

LIMIT=()
if [ "$MEM_LIMIT_MB" != 0 ] && command -v prlimit >/dev/null; then
    LIMIT=(prlimit --as=$((MEM_LIMIT_MB * 1048576)) --core=0 --)
fi
# A crashing Swift program would otherwise spend seconds printing a backtrace (or hang).
export SWIFT_BACKTRACE=enable=no

# run SHAPE SIZE NAME STDOUT ARGS…: one command under timeout and GNU time; appends a TSV row.
# Sets LAST_RC.
run() {
    local shape=$1 size=$2 name=$3 stdout=$4
    shift 4
    local tf="$SCRATCH/.time" ef="$SCRATCH/.stderr"
    rm -f "$tf"
    (cd "$SCRATCH" && /usr/bin/time -f '%e %M %U %S' -o "$tf" \
        timeout -k 5 "$TIMEOUT" ${LIMIT[@]+"${LIMIT[@]}"} "$BIN" "$@" >"$stdout" 2>"$ef")
    LAST_RC=$?
    local secs=NA kb=NA user=NA sys=NA cpu=NA
    if [ -s "$tf" ]; then read -r secs kb user sys < <(tail -n 1 "$tf"); fi
    case $user$sys in *[!0-9.]*|'') ;; *) cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') ;; esac
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$shape" "$size" "$name" "$LAST_RC" "$secs" "$kb" "$cpu" >> "$TSV"
    case $LAST_RC in 0|1|64) ;; *) head -c 2000 "$ef" > "$OUT/logs/${size}mb-$shape-$name.err" ;; esac
    printf '  %-22s %-18s exit %-4s %8ss %10s KB\n' "$shape" "$name" "$LAST_RC" "$secs" "$kb"
}

# Writes a TSV row for a byte comparison (exit 0 same, 1 different).
compare() {
    local shape=$1 size=$2 name=$3 a=$4 b=$5 rc=0
    cmp -s "$a" "$b" || rc=1
    printf '%s\t%s\t%s\t%s\t0\t0\t0\n' "$shape" "$size" "$name" "$rc" >> "$TSV"
    printf '  %-22s %-18s %s\n' "$shape" "$name" "$([ $rc = 0 ] && echo identical || echo DIFFERENT)"
}

typedstream_commands() {
    local shape=$1 size=$2 f=$3
    run "$shape" "$size" detect /dev/null detect "$f"
    run "$shape" "$size" inspect /dev/null inspect --color never "$f"
    run "$shape" "$size" tokens /dev/null tokens "$f"
    run "$shape" "$size" decode /dev/null decode "$f"
    run "$shape" "$size" decode-stats /dev/null decode --stats "$f"
    run "$shape" "$size" decode-json "$SCRATCH/own.json" decode --json "$f"
    local json_rc=$LAST_RC
    run "$shape" "$size" decode-plain /dev/null decode --plain "$f"
    run "$shape" "$size" verify /dev/null verify --no-progress "$f"
    run "$shape" "$size" convert-big /dev/null convert --no-progress --to typedstream --byte-order big -o "$SCRATCH/out.typedstream" "$f"
    run "$shape" "$size" convert-json /dev/null convert --no-progress --to json -o "$SCRATCH/out.json" "$f"
    run "$shape" "$size" convert-keyed /dev/null convert --no-progress --to keyed -o "$SCRATCH/out.plist" "$f"
    run "$shape" "$size" convert-keyed-xml /dev/null convert --no-progress --to keyed-xml -o "$SCRATCH/out.xml.plist" "$f"
    if [ "$json_rc" = 0 ]; then
        run "$shape" "$size" encode /dev/null encode -o "$SCRATCH/encoded.typedstream" "$SCRATCH/own.json"
        if [ "$LAST_RC" = 0 ]; then compare "$shape" "$size" encode-identical "$f" "$SCRATCH/encoded.typedstream"; fi
    fi
}

keyed_commands() {
    local shape=$1 size=$2 f=$3
    run "$shape" "$size" detect /dev/null detect "$f"
    run "$shape" "$size" convert-ts /dev/null convert --no-progress --to typedstream -o "$SCRATCH/out.typedstream" "$f"
    rm -rf "$SCRATCH/model"
    run "$shape" "$size" model-import /dev/null model import "$f" "$SCRATCH/model"
    if [ "$LAST_RC" = 0 ]; then run "$shape" "$size" model-list /dev/null model list "$SCRATCH/model"; fi
}

json_commands() {
    local shape=$1 size=$2 f=$3
    run "$shape" "$size" encode /dev/null encode -o "$SCRATCH/encoded.typedstream" "$f"
    if [ "$LAST_RC" = 0 ]; then
        run "$shape" "$size" encode-decode /dev/null decode "$SCRATCH/encoded.typedstream"
        run "$shape" "$size" encode-plain /dev/null decode --plain "$SCRATCH/encoded.typedstream"
        run "$shape" "$size" encode-verify /dev/null verify --no-progress "$SCRATCH/encoded.typedstream"
    fi
}

SHAPE_ARGS=()
[ -n "$SHAPES" ] && SHAPE_ARGS=(--shapes "$SHAPES")
LISTING=$(python3 "$GEN" --list) || exit 64
if [ -n "$SHAPES" ]; then
    for s in ${SHAPES//,/ }; do
        printf '%s\n' "$LISTING" | cut -f1 | grep -qx -- "$s" || { echo "run.sh: unknown shape '$s'" >&2; exit 64; }
    done
fi

# run_shape SIZE SHAPE KIND FILE: every command of one input.
run_shape() {
    local size=$1 shape=$2 kind=$3 f=$4
    [ -f "$f" ] || { echo "run.sh: missing $f" >&2; return; }
    rm -rf "$SCRATCH"; mkdir -p "$SCRATCH"
    case $kind in
        typedstream) typedstream_commands "$shape" "$size" "$f" ;;
        keyed) keyed_commands "$shape" "$size" "$f" ;;
        json) json_commands "$shape" "$size" "$f" ;;
    esac
}

# summary [--shapes-over-ratio]: the verdict on results.tsv (exit 1 on any failure); with the
# option, only the shapes with a command over the time ratio, on one line.
summary() {
python3 - "$TSV" "$PEAK_LIMIT_KB" "$RATIO_LIMIT" "$TIMEOUT" "$LISTING" "${1:-}" <<'EOF'
import sys
tsv, peak_limit, ratio_limit, timeout, listing, mode = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
valid = {l.split("\t")[0]: l.split("\t")[2] for l in listing.splitlines() if l}
rows = [l.rstrip("\n").split("\t") for l in open(tsv)][1:]
fails = []
times = {}
for shape, size, cmd, rc, secs, kb, cpu in rows:
    why = []
    if cmd == "encode-identical":
        if rc != "0" and valid.get(shape) in ("yes", "wire"):
            why.append("encode of its own decode --json differs from the input")
    else:
        code = int(rc)
        if code == 124 or code == 137:
            why.append("timeout (%ss)" % timeout)
        elif code >= 128:
            why.append("signal %d" % (code - 128))
        elif code not in (0, 1, 64):
            why.append("exit %d" % code)
        if kb not in ("NA", "") and int(kb) > peak_limit:
            why.append("peak %.1f GB" % (int(kb) / 1048576))
    if why:
        fails.append((shape, size, cmd, rc, secs, kb, ", ".join(why)))
    if cpu not in ("NA", "") and cmd != "encode-identical":
        # The least CPU time of the measurements (a shape over the ratio is measured again).
        known = times.get((shape, cmd, size))
        if known is None or float(cpu) < known[0]:
            times[(shape, cmd, size)] = (float(cpu), rc)
for (shape, cmd, size), (t16, rc16) in sorted(times.items()):
    if float(size) != 16 or (shape, cmd, "1") not in times:
        continue
    t1 = times[(shape, cmd, "1")][0]
    ratio = t16 / max(t1, 0.05)
    if ratio > ratio_limit:
        fails.append((shape, "1->16", cmd, rc16, "%.2f->%.2f" % (t1, t16), "", "CPU time ratio %.0f" % ratio))
if mode == "--shapes-over-ratio":
    print(" ".join(sorted({f[0] for f in fails if f[1] == "1->16"})))
    sys.exit(0)
print()
print("%d commands run, %d failures" % (len(rows), len(fails)))
if fails:
    print("%-22s %-6s %-18s %-5s %-12s %-10s %s" % ("shape", "size", "command", "exit", "seconds", "peak KB", "why"))
    for f in fails:
        print("%-22s %-6s %-18s %-5s %-12s %-10s %s" % f)
sys.exit(1 if fails else 0)
EOF
}

echo "typedstream: $BIN"
echo "output:      $OUT (results.tsv, logs/, inputs/)"
for size in ${SIZES//,/ }; do
    dir="$OUT/inputs/${size}mb"
    if [ "$REUSE" = 0 ] || [ ! -d "$dir" ]; then
        echo "== generating ${size} MB inputs"
        python3 "$GEN" --size-mb "$size" --out "$dir" ${SHAPE_ARGS[@]+"${SHAPE_ARGS[@]}"} >/dev/null || exit 64
    fi
    echo "== running ${size} MB"
    while IFS=$'\t' read -r shape kind valid file _desc; do
        if [ -n "$SHAPES" ] && ! printf ',%s,' "$SHAPES" | grep -q ",$shape,"; then continue; fi
        run_shape "$size" "$shape" "$kind" "$dir/$file"
    done <<< "$LISTING"
done

# A shape over the time ratio is measured twice more at 1 and 16 MB, and the summary takes each
# command's least CPU time: one slow spell of a shared machine does not make a failure, a cost
# that grows faster than the input does at every try.
for attempt in $(seq "$RATIO_RETRIES"); do
    over=$(summary --shapes-over-ratio)
    [ -n "$over" ] || break
    echo "== measuring again (try $attempt of $RATIO_RETRIES), over the ratio: $over"
    for size in 1 16; do
        while IFS=$'\t' read -r shape kind valid file _desc; do
            printf ' %s ' "$over" | grep -q " $shape " || continue
            run_shape "$size" "$shape" "$kind" "$OUT/inputs/${size}mb/$file"
        done <<< "$LISTING"
    done
done
rm -rf "$SCRATCH"

summary
