#!/usr/bin/env bash
# Many message bodies through one process: generate a chat.db-like SQLite table of N bodies
# (default 100 000; about one in a thousand damaged), dump it as sqlite3 prints it, read it with
# `typedstream text --lines hex`, check every text against the string the generator put in and
# every damaged row is reported, do the same with each record's whole plain JSON
# (`typedstream decode --lines hex --plain`), and compare the rate with one `typedstream text`
# process per blob on a 500-body sample.
#
#   examples/message-text.sh [N]          # from the package root; needs sqlite3 and python3
#
# Builds the release products first. Scratch files go to $TMPDIR/typedstream-message-text.
set -euo pipefail
count=${1:-100000}
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=${TMPDIR:-/tmp}/typedstream-message-text
rm -rf "$scratch" && mkdir -p "$scratch/sample"
cd "$root"
swift build -c release --product typedstream >/dev/null
swift build -c release --product typedstream-bench >/dev/null
tool=$root/.build/release/typedstream
db=$scratch/chat.db

"$root/.build/release/typedstream-bench" --message-sql "$count" | sqlite3 "$db" > /dev/null
query="select ROWID, hex(attributedBody) from message"
sqlite3 -separator $'\t' "$db" "$query" > "$scratch/dump.tsv"

now() { date +%s.%N; }
rate() { python3 -c "import sys; n, t = float(sys.argv[1]), float(sys.argv[2]); print(f'{t:.3f} s, {n / t:,.0f} records/s')" "$1" "$2"; }

# 1. The whole pipeline, as a user runs it (sqlite3 and typedstream run side by side).
start=$(now)
sqlite3 -separator $'\t' "$db" "$query" | "$tool" text --lines hex > "$scratch/out.jsonl" 2> "$scratch/summary.txt" || true
end=$(now)
echo "pipeline (sqlite3 | typedstream text --lines hex): $(rate "$count" "$(echo "$end - $start" | bc)")"
echo "summary: $(cat "$scratch/summary.txt")"

# 2. typedstream alone on one core, from the dump.
start=$(now)
"$tool" text --lines hex < "$scratch/dump.tsv" > /dev/null 2>&1 || true
end=$(now)
one=$(echo "$end - $start" | bc)
echo "typedstream text --lines hex < dump (one process, one core): $(rate "$count" "$one")"

# 3. Correctness: every good row's text, every damaged row reported.
python3 "$root/examples/check-message-text.py" "$db" "$scratch/out.jsonl"

# 4. Each record's whole plain JSON ({"id", "plain": what `decode --plain` prints}), timed on
#    one core, and checked the same way: each good row's string is the text generated.
start=$(now)
"$tool" decode --lines hex --plain < "$scratch/dump.tsv" > "$scratch/plain.jsonl" 2> "$scratch/plain-summary.txt" || true
end=$(now)
echo "typedstream decode --lines hex --plain < dump (one process, one core): $(rate "$count" "$(echo "$end - $start" | bc)")"
echo "summary: $(cat "$scratch/plain-summary.txt")"
python3 "$root/examples/check-message-text.py" --plain "$db" "$scratch/plain.jsonl"

# 5. One process per blob, on 500 rows spread over the table (blobs written to files first,
#    untimed; the damaged rows are left out).
sqlite3 -separator $'\t' "$db" "select ROWID, hex(attributedBody) from message where damage is null and ROWID % (max(1, $count / 500)) = 0 limit 500" |
    while IFS=$'\t' read -r id blob; do printf '%s' "$blob" | xxd -r -p > "$scratch/sample/$id.bin"; done
sample=$(ls "$scratch/sample" | wc -l)
start=$(now)
for file in "$scratch"/sample/*.bin; do "$tool" text "$file" > /dev/null; done
end=$(now)
loop=$(echo "$end - $start" | bc)
echo "one process per blob ($sample blobs): $(rate "$sample" "$loop")"
python3 -c "import sys; a = float(sys.argv[1]) / float(sys.argv[2]); b = float(sys.argv[3]) / float(sys.argv[4]); print(f'one process for all: {a / b:,.0f}x the per-blob loop')" "$count" "$one" "$sample" "$loop"
