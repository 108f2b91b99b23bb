#!/usr/bin/env bash
# Checks the Spark example and one-machine sharding against a single process, and times all three:
# generates N chat.db-like message bodies (default 100 000, about one in a thousand damaged) with
# `typedstream-bench --message-sql N | sqlite3`, dumps them as `ID<TAB>HEX` lines, then
#   1. one process:        typedstream text --lines hex < lines.tsv
#   2. S shards at once:   typedstream text --lines hex --shard I/S < lines.tsv   (I = 1…S, background jobs)
#   3. Spark local[2]:     examples/spark/message_text.py (RDD.pipe, one process per partition)
# and checks that the union of the shards and the Spark output equal the single run as sorted
# lines, that each shard holds exactly the ids whose FNV-1a 64 hash says so (computed here in
# Python), and that every good row's text is the `expected` column (examples/check-message-text.py).
#
#   examples/spark/test.sh [N] [S]       # from anywhere; needs python3 with pyspark, and Java 17
#
# Uses $TYPEDSTREAM and $TYPEDSTREAM_BENCH when set, otherwise builds the release products.
# Scratch files go to $TMPDIR/typedstream-spark. Exits non-zero on any mismatch.
set -euo pipefail
count=${1:-100000}
shards=${2:-2}
partitions=${SPARK_PARTITIONS:-4}
root=$(cd "$(dirname "$0")/../.." && pwd)
scratch=${TMPDIR:-/tmp}/typedstream-spark
rm -rf "$scratch" && mkdir -p "$scratch"

if ! python3 -c 'import pyspark' 2>/dev/null; then
  echo "examples/spark/test.sh: pyspark is not installed (pip install pyspark)" >&2
  exit 2
fi
if [[ -z "${TYPEDSTREAM:-}" || -z "${TYPEDSTREAM_BENCH:-}" ]]; then
  (cd "$root" && swift build -c release --product typedstream >/dev/null && swift build -c release --product typedstream-bench >/dev/null)
fi
tool=$(cd "$root" && realpath "${TYPEDSTREAM:-.build/release/typedstream}")
bench=$(cd "$root" && realpath "${TYPEDSTREAM_BENCH:-.build/release/typedstream-bench}")

now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$1" "$(now)"; }
rate() { python3 -c "import sys; n, t = float(sys.argv[1]), float(sys.argv[2]); print(f'{t:.2f} s, {n / t:,.0f} records/s')" "$count" "$1"; }
# typedstream exits 1 when some records were bad (the generator damages a few): 0 and 1 are fine.
tolerate_bad_records() { local status=0; "$@" || status=$?; (( status <= 1 )) || { echo "FAILED ($status): $*" >&2; exit 1; }; }

# The database and its dump, as sqlite3 prints it.
db=$scratch/chat.db
lines=$scratch/lines.tsv
query="select ROWID, hex(attributedBody) from message"
if command -v sqlite3 >/dev/null; then
  "$bench" --message-sql "$count" | sqlite3 "$db" >/dev/null
  sqlite3 -separator $'\t' "$db" "$query" > "$lines"
else  # the same through Python's sqlite3 module
  "$bench" --message-sql "$count" | python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.stdin.read()); c.commit()" "$db"
  python3 -c "import sqlite3, sys
for rowid, blob in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print(f'{rowid}\t{blob}')" "$db" "$query" > "$lines"
fi
echo "$count records, $(du -h "$lines" | cut -f1) of ID<TAB>HEX lines in $lines"

# 1. One process.
start=$(now)
tolerate_bad_records "$tool" text --lines hex < "$lines" > "$scratch/single.jsonl" 2> "$scratch/single.summary"
single=$(since "$start")
echo "one process:        $(rate "$single")   ($(cat "$scratch/single.summary"))"
python3 "$root/examples/check-message-text.py" "$db" "$scratch/single.jsonl"
LC_ALL=C sort "$scratch/single.jsonl" > "$scratch/single.sorted"

# 2. S shards at once on this machine, as background jobs.
start=$(now)
pids=()
for i in $(seq 1 "$shards"); do
  "$tool" text --lines hex --shard "$i/$shards" < "$lines" > "$scratch/shard-$i.jsonl" 2> "$scratch/shard-$i.summary" &
  pids+=($!)
done
for pid in "${pids[@]}"; do tolerate_bad_records wait "$pid"; done
sharded=$(since "$start")
echo "$shards shards at once:   $(rate "$sharded")   ($(cat "$scratch"/shard-*.summary | tr '\n' ' '))"
python3 - "$shards" "$scratch" "$count" <<'PY'
import json, sys
shards, scratch, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
def fnv1a64(data):
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h
total = 0
for i in range(1, shards + 1):
    with open(f"{scratch}/shard-{i}.jsonl", encoding="utf-8") as lines:
        ids = [json.loads(line)["id"] for line in lines]
    wrong = [x for x in ids if fnv1a64(x.encode()) % shards + 1 != i]
    if wrong:
        sys.exit(f"shard {i}/{shards} holds ids of other shards: {wrong[:5]}")
    total += len(ids)
    print(f"  shard {i}/{shards}: {len(ids)} records, each id's FNV-1a 64 mod {shards} + 1 = {i}")
if total != count:
    sys.exit(f"the shards hold {total} records, not {count}")
PY
cat "$scratch"/shard-*.jsonl | LC_ALL=C sort > "$scratch/shards.sorted"
cmp -s "$scratch/single.sorted" "$scratch/shards.sorted" || { echo "MISMATCH: the union of the shards is not the single run's lines" >&2; exit 1; }
echo "  the union of the $shards shards equals the single run (sorted lines)"
python3 "$root/examples/check-message-text.py" --any-order "$db" "$scratch/shards.sorted"

# 3. Spark in local mode, two cores.
start=$(now)
python3 "$root/examples/spark/message_text.py" --master 'local[2]' --partitions "$partitions" \
    --typedstream "$tool" "$lines" "$scratch/spark-out" 2> "$scratch/spark.log" || { tail -40 "$scratch/spark.log" >&2; exit 1; }
spark=$(since "$start")
job=$(sed -n 's/^spark: session started in \([0-9.]*\) s;.* in \([0-9.]*\) s$/\1 \2/p' "$scratch/spark.log")
echo "spark local[2]:     $(rate "$spark")   (the whole program: Python, JVM and session start included)"
echo "  session start ${job% *} s; the job ($(ls "$scratch"/spark-out/part-* | wc -l) partitions, one typedstream process each): $(rate "${job#* }")"
echo "  $(grep '^spark: .* lines written' "$scratch/spark.log" | sed 's/^spark: //'); the partitions' summaries: $(grep -E '^[0-9]+ records, [0-9]+ failed$' "$scratch/spark.log" | tr '\n' ' ')"
cat "$scratch"/spark-out/part-* | LC_ALL=C sort > "$scratch/spark.sorted"
cmp -s "$scratch/single.sorted" "$scratch/spark.sorted" || { echo "MISMATCH: the Spark output is not the single run's lines ($(wc -l < "$scratch/spark.sorted") lines)" >&2; exit 1; }
echo "  the Spark output equals the single run (sorted lines)"
python3 "$root/examples/check-message-text.py" --any-order "$db" "$scratch/spark.sorted"
echo "spark example: the shards and the Spark job give the single run's lines; every good text is the generated one"
