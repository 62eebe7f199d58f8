#!/bin/sh
# smoke.sh FUZZ_BIN [SECONDS [GEN_RUN]]: the fuzzer's part of make check.
# Replays every seed (fixtures, clinic.test blocks) and every regression
# input in tests/fuzz/regressions/, then fuzzes for SECONDS (default 30)
# from them in a scratch corpus.  Leak detection is on
# (FUZZ_DETECT_LEAKS=0 turns it off).  A crash is saved under
# build-fuzz/artifacts/ by default (FUZZ_ARTIFACTS=DIR/); add it to
# tests/fuzz/regressions/ once fixed.
#
# With GEN_RUN (build-fuzz/gen_run), the generator's deterministic run
# follows: the sweep (every native of the interpreter called once with a
# self it does not expect), then seeds 1 to FUZZ_GEN_SEEDS (default 200)
# of python and clinic blocks with odd arguments, deep and cyclic data
# and odd converters, a child each; a failing file and its messages are
# kept in build-fuzz/gen-failures/ and the seed is printed (gen_run -p
# SEED, gen_run -P K print the file again).
#
# The fuzzing starts from a fixed seed (FUZZ_SEED, default 1): each run
# of a tree tries the same inputs in the same order, as many as the time
# allows, so a crash it finds is found again, and make check does not
# fail one run in N.  make fuzz explores with fresh seeds.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
FUZZ_BIN=$1
SECONDS_=${2:-30}
SEED=${FUZZ_SEED:-1}
GEN_RUN=${3:-}
GEN_SEEDS=${FUZZ_GEN_SEEDS:-200}
LEAKS=${FUZZ_DETECT_LEAKS:-1}
ARTIFACTS=${FUZZ_ARTIFACTS:-$top/build-fuzz/artifacts/}
mkdir -p "$ARTIFACTS"
export ASAN_OPTIONS="detect_leaks=$LEAKS:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

corpus=$(mktemp -d "${TMPDIR:-/tmp}/clinic-fuzz-smoke.XXXXXX")
trap 'rm -rf "$corpus"' EXIT INT TERM
sh "$here/make_corpus.sh" "$corpus/seeds"
mkdir -p "$corpus/new"

fails=0
# the replay (one process) runs beside the fuzzing (another): two cores
# finish both in the time of the longer
echo "fuzz-smoke: replaying $(ls "$corpus/seeds" | wc -l) seeds and regressions"
{ "$FUZZ_BIN" -runs=0 -max_len=1048576 -detect_leaks="$LEAKS" \
      -artifact_prefix="$ARTIFACTS" "$corpus/seeds" > "$corpus/replay.log" 2>&1
  echo $? > "$corpus/replay.rc"; } &
replay=$!
echo "fuzz-smoke: fuzzing for $SECONDS_ s from seed $SEED"
# -timeout: a hang, not a slow input: the budgets stop any input within
# 10 s of one core uninstrumented (tests/hardening/bounds.sh measures
# that), which ASan and the fuzzer's coverage make several times slower,
# and two loaded cores slower again (the 10,000-class chain of the
# regressions, mutated, took 14 s so)
if ! "$FUZZ_BIN" -dict="$here/clinic.dict" -max_len=16384 -timeout=60 \
        -rss_limit_mb=2048 -detect_leaks="$LEAKS" -max_total_time="$SECONDS_" \
        -seed="$SEED" -print_final_stats=1 -artifact_prefix="$ARTIFACTS" \
        "$corpus/new" "$corpus/seeds" > "$corpus/fuzz.log" 2>&1; then
    echo "fuzz-smoke: FAIL: the fuzzer found a crash, hang or leak:"
    grep -E 'ERROR|runtime error|SUMMARY|Test unit written|^    #[0-9] ' "$corpus/fuzz.log" | head -n 25
    fails=$((fails + 1))
fi
wait $replay
if [ "$(cat "$corpus/replay.rc" 2>/dev/null)" != 0 ]; then
    echo "fuzz-smoke: FAIL: an input crashed, hung or leaked on replay:"
    grep -E 'ERROR|runtime error|SUMMARY|Test unit written|^    #[0-9] ' "$corpus/replay.log" | head -n 25
    fails=$((fails + 1))
fi
runs=$(grep 'stat::number_of_executed_units' "$corpus/fuzz.log" | awk '{ print $2 }')
echo "fuzz-smoke: ${runs:-?} executions (at most $SECONDS_ s)"
if [ -n "$GEN_RUN" ]; then
    # -t: a hang, generous for ASan's slowdown over the 10 s of issue 28;
    # -T: a slow machine stops early rather than holding make check
    gen_dir=$top/build-fuzz/gen-failures
    mkdir -p "$gen_dir"
    for run in "-w" "-s 1 -n $GEN_SEEDS"; do
        case $run in
        -w) echo "fuzz-smoke: generator, every native with an odd self" ;;
        *) echo "fuzz-smoke: generator, seeds 1 to $GEN_SEEDS" ;;
        esac
        # shellcheck disable=SC2086
        if ! "$GEN_RUN" $run -t 30 -m 2048 -T 120 "$gen_dir" \
                > "$corpus/gen.log" 2>&1; then
            echo "fuzz-smoke: FAIL: a generated file crashed, hung or failed silently:"
            grep -E 'FAIL|ERROR|runtime error|SUMMARY|    #[0-9] ' "$corpus/gen.log" | head -n 40
            fails=$((fails + 1))
        fi
        tail -n 1 "$corpus/gen.log"
    done
fi
if [ $fails -eq 0 ]; then echo "fuzz-smoke: passed"; else exit 1; fi
