#!/usr/bin/env bash
# libFuzzer harness for swift-typedstream.
#
#   Tests/Fuzz/fuzz.sh list                    the targets
#   Tests/Fuzz/fuzz.sh build TARGET            compile fuzz-out/build/fuzz-TARGET
#   Tests/Fuzz/fuzz.sh run TARGET SECONDS [libFuzzer flags…]
#                                              fuzz for SECONDS; finds are copied to
#                                              Samples/malformed/fuzz-TARGET-HASH; exit 1 on a find
#   Tests/Fuzz/fuzz.sh smoke [SECONDS]         every target for SECONDS (default 60); exit 1 on a find
#   Tests/Fuzz/fuzz.sh repro TARGET FILE…      run the target once on each FILE (to check a fix)
#
# Targets are built by compiling the module sources straight with swiftc
# (`-sanitize=fuzzer,address`, one static library per module, then the target file), so no
# change to Package.swift is needed. Seeds: Samples/ (including Samples/malformed/), when
# it exists ../shared/corpus (read, never copied into the repository), and the adversarial
# shapes of Tests/Adversarial made at about 12 KB (fuzz-out/seeds-adversarial). Scratch space, the
# growing corpus and raw libFuzzer artifacts live in fuzz-out/ (ignored by git).
#
# Environment: FUZZ_OUT (scratch dir, default fuzz-out), FUZZ_MAX_LEN (default 16384),
# FUZZ_RSS_MB (default 2048), FUZZ_TIMEOUT (seconds per input, default 10), FUZZ_SLOW (an input
# slower than this many seconds is kept as a slow-unit find, default 5), SWIFTC.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
OUT="${FUZZ_OUT:-$ROOT/fuzz-out}"
SWIFTC="${SWIFTC:-swiftc}"
FLAGS=(-sanitize=fuzzer,address -O -g -wmo -parse-as-library)
export SWIFT_BACKTRACE=enable=no   # let libFuzzer/ASan report crashes; the backtracer can hang here

# name | target sources | modules it needs, in dependency order
TARGETS=(
  "tokenreader|Tests/Fuzz/TokenReaderTarget.swift|ObjCTypeEncoding TypedStream"
  "roundtrip|Tests/Fuzz/TokenRoundTripTarget.swift|ObjCTypeEncoding TypedStream"
  "objctype|Tests/Fuzz/ObjCTypeTarget.swift|ObjCTypeEncoding"
  "unarchiver|Tests/Fuzz/UnarchiverTarget.swift|ObjCTypeEncoding TypedStream TypedStreamFoundation"
  "jsonimporter|Tests/Fuzz/JSONImporterTarget.swift Tests/TestSupport/FuzzLimits.swift|ObjCTypeEncoding TypedStream TypedStreamFoundation TypedStreamExport"
  "keyedimporter|Tests/Fuzz/KeyedImporterTarget.swift|ObjCTypeEncoding TypedStream TypedStreamFoundation TypedStreamExport ModelDocument"
)

die() { echo "fuzz.sh: $*" >&2; exit 64; }

target_field() {  # target_field NAME INDEX
  local entry
  for entry in "${TARGETS[@]}"; do
    IFS='|' read -r name source modules <<<"$entry"
    if [[ "$name" == "$1" ]]; then
      case "$2" in 1) echo "$source" ;; 2) echo "$modules" ;; esac
      return 0
    fi
  done
  die "unknown target '$1' (try: fuzz.sh list)"
}

target_names() { local e; for e in "${TARGETS[@]}"; do echo "${e%%|*}"; done; }

build_module() {  # build_module NAME [DEPENDENCY…]  → $OUT/build/lib$NAME.a and its .swiftmodule
  # Rebuilt when its sources, this script or a module it depends on (built before it) changed:
  # code compiled against an older dependency can disagree with it about memory layouts.
  local name="$1" lib="$OUT/build/lib$1.a" sources dep
  shift
  mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
  [[ ${#sources[@]} -gt 0 ]] || die "no sources for module $name"
  # The newest source, found without a pipe: `ls -t | head -1` dies of SIGPIPE under pipefail
  # when ls writes its listing in several pieces (a module of a hundred files) and head has gone.
  local newest="" source
  for source in "${sources[@]}"; do
    if [[ -z "$newest" || "$source" -nt "$newest" ]]; then newest="$source"; fi
  done
  local fresh=1
  [[ -f "$lib" && "$lib" -nt "$newest" && "$lib" -nt "$0" ]] || fresh=0
  for dep in "$@"; do [[ "$lib" -nt "$OUT/build/lib$dep.a" ]] || fresh=0; done
  if [[ $fresh -eq 1 ]]; then return 0; fi
  echo "fuzz.sh: compiling module $name (${#sources[@]} files)" >&2
  local link=()
  [[ "$name" == TypedStream ]] && link=(-lm)
  "$SWIFTC" "${FLAGS[@]}" -module-name "$name" -I "$OUT/build" \
    -emit-module-path "$OUT/build/$name.swiftmodule" -emit-library -static -o "$lib" "${sources[@]}" \
    2> >(grep -v 'Cannot export local symbol' >&2)
  touch "$lib"
}

build() {
  local target="$1" source modules
  source="$(target_field "$target" 1)"; modules="$(target_field "$target" 2)"
  mkdir -p "$OUT/build"
  local libs=() m
  local built=()
  for m in $modules; do build_module "$m" "${built[@]}"; built+=("$m"); done
  for m in $modules; do libs=("-l$m" "${libs[@]}"); done   # dependents first when linking
  local binary="$OUT/build/fuzz-$target" stale=0 sources file
  read -ra sources <<<"$source"
  [[ -f "$binary" && "$binary" -nt "$0" ]] || stale=1
  for file in "${sources[@]}"; do [[ "$binary" -nt "$file" ]] || stale=1; done
  for m in $modules; do [[ "$binary" -nt "$OUT/build/lib$m.a" ]] || stale=1; done
  [[ $stale -eq 1 ]] || return 0
  echo "fuzz.sh: linking fuzz-$target" >&2
  "$SWIFTC" "${FLAGS[@]}" -I "$OUT/build" -L "$OUT/build" "${sources[@]}" "${libs[@]}" -lm \
    -o "$OUT/build/fuzz-$target" 2> >(grep -v 'Cannot export local symbol' >&2)
}

seeds_for() {  # directories of seed inputs for a target
  local target="$1"
  if [[ "$target" == objctype ]]; then
    local dir="$OUT/seeds-objctype"
    mkdir -p "$dir"
    local s i=0
    for s in 'i' 'iI' '@' '{?=ffff}' '<?=ffff>' '[4c]' '[3ii]' '{CGSize=dd}' '{_NSRange="location"Q"length"Q}' \
             '(?=iC)' '^{foo=b3b5i}' '@"NSString"' 'rn^v' '{CGContext}' '*:%#!+?' '[2{?=[3s]@}]' 'ffff' '@@@@ffffffff' 'icc@'; do
      printf '%s' "$s" > "$dir/seed-$i"; i=$((i + 1))
    done
    echo "$dir"
    return
  fi
  echo "$ROOT/Samples"
  [[ -d "$ROOT/../shared/corpus" ]] && echo "$(cd "$ROOT/../shared/corpus" && pwd)"
  # The adversarial shapes (Tests/Adversarial), made small enough for FUZZ_MAX_LEN: deep
  # nesting, long chains, fan-in, many type strings, huge counts, hostile JSON… The JSON
  # importer gets the json-* shapes made to pass its target's small limits (--fuzz-limits).
  local adversarial="$OUT/seeds-adversarial" shapes=() extra=()
  if [[ "$target" == jsonimporter ]]; then
    adversarial="$OUT/seeds-adversarial-json"
    shapes=(--shapes "$(python3 "$ROOT/Tests/Adversarial/make_adversarial.py" --list | cut -f1 | grep '^json-' | paste -sd, -)")
    extra=(--fuzz-limits)
  fi
  if [[ ! -d "$adversarial" ]] && command -v python3 >/dev/null; then
    mkdir -p "$adversarial"
    python3 "$ROOT/Tests/Adversarial/make_adversarial.py" --size-mb 0.012 --out "$adversarial" "${shapes[@]}" "${extra[@]}" >/dev/null 2>&1 || true
    find "$adversarial" -type f -size +"${FUZZ_MAX_LEN:-16384}"c -delete
  fi
  [[ -d "$adversarial" ]] && echo "$adversarial"
  return 0
}

dict_for() {
  case "$1" in
    objctype) echo "$ROOT/Tests/Fuzz/objctype.dict" ;;
    keyedimporter) echo "$ROOT/Tests/Fuzz/keyed.dict" ;;
    *) echo "$ROOT/Tests/Fuzz/typedstream.dict" ;;
  esac
}

# Copies libFuzzer artifacts of TARGET into Samples/malformed/fuzz-TARGET-HASH; prints them.
collect() {
  local target="$1" dir="$OUT/artifacts/$target" found=0 f hash dest
  [[ -d "$dir" ]] || return 0
  for f in "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* "$dir"/slow-unit-*; do
    [[ -f "$f" ]] || continue
    hash="$(sha1sum "$f" | cut -c1-12)"
    dest="$ROOT/Samples/malformed/fuzz-$target-$hash"
    [[ -f "$dest" ]] || cp "$f" "$dest"
    echo "FIND ($(basename "$f" | cut -d- -f1)): Samples/malformed/fuzz-$target-$hash"
    found=1
    mkdir -p "$dir/collected" && mv "$f" "$dir/collected/"
  done
  return $found
}

run() {
  local target="$1" seconds="$2"; shift 2
  [[ "$seconds" =~ ^[0-9]+$ ]] || die "SECONDS must be a whole number"
  build "$target"
  local corpus="$OUT/corpus-$target" art="$OUT/artifacts/$target"
  mkdir -p "$corpus" "$art"
  local seeds; mapfile -t seeds < <(seeds_for "$target")
  echo "fuzz.sh: running $target for ${seconds}s (corpus $corpus, seeds ${seeds[*]})" >&2
  local status=0 log="$OUT/last-$target.log"
  "$OUT/build/fuzz-$target" "$corpus" "${seeds[@]}" \
    -max_total_time="$seconds" -max_len="${FUZZ_MAX_LEN:-16384}" -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
    -timeout="${FUZZ_TIMEOUT:-10}" -report_slow_units="${FUZZ_SLOW:-5}" -dict="$(dict_for "$target")" -artifact_prefix="$art/" \
    -print_final_stats=1 "$@" >"$log" 2>&1 || status=$?
  grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|==[0-9]+==|SUMMARY|stat::number_of_executed_units|Done [0-9]+ runs)' "$log" || true
  local finds=0
  collect "$target" || finds=1
  if [[ $finds -ne 0 || $status -ne 0 ]]; then
    echo "fuzz.sh: $target: FINDINGS (libFuzzer exit $status); log: $OUT/last-$target.log" >&2
    return 1
  fi
  echo "fuzz.sh: $target: no findings in ${seconds}s" >&2
}

repro() {
  local target="$1"; shift
  build "$target"
  "$OUT/build/fuzz-$target" -runs=1 "$@"
}

case "${1:-}" in
  list) target_names ;;
  build) [[ $# -eq 2 ]] || die "usage: fuzz.sh build TARGET"; build "$2" ;;
  run) [[ $# -ge 3 ]] || die "usage: fuzz.sh run TARGET SECONDS [libFuzzer flags…]"; run "${@:2}" ;;
  repro) [[ $# -ge 3 ]] || die "usage: fuzz.sh repro TARGET FILE…"; repro "${@:2}" ;;
  smoke)
    seconds="${2:-60}"; failed=0
    for t in $(target_names); do run "$t" "$seconds" || failed=1; done
    exit $failed ;;
  *) sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 64 ;;
esac
