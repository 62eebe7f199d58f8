#!/bin/sh
# make bench, second part: the cost of the portable target's parsers, for
# each dialect D of BENCH_PORTABLE_DIALECTS (default "3.11 3.13 3.15"; a
# newer one is one more word).  tests/bench/portable/bench.c is regenerated
# twice, by clinic --dialect D (D's own output) and by clinic --dialect D
# --target portable, and both are built against CPython D (D's own output
# as CPython's core builds it: Py_BUILD_CORE_MODULE, the internal headers
# for 3.13's); calls.py times the same calls on both and on the same
# signature parsed by PyArg_ParseTupleAndKeywords, interleaved, best of
# several rounds; and callgrind counts the instructions of 100,000 keyword
# calls on each (the steady measure on a busy machine), less those of a
# run without them.  CPython 3.14 and 3.15 live in the Debian sid root of
# tests/portable/pythons.sh and are built for and run there
# (tests/portable/chroot.sh); valgrind is installed into that root the
# first time (the root is the tier's; its packages list is left as it
# is).  Not a test: it reports, and fails only if something cannot be
# built or run.
#   usage: run.sh [CLINIC]         NUMBER, REPEAT: calls per round, rounds
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
CLINIC=${1:-build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$top/$CLINIC ;; esac
out=$top/build/bench-portable
rm -rf "$out"

for D in ${BENCH_PORTABLE_DIALECTS:-3.11 3.13 3.15}; do
    # pythons.sh's "X.Y PYTHON [RUNNER...]": RUN runs a command for it
    line=$(sh "$top/tests/portable/pythons.sh" "$D" | sed -n "s/^$D //p")
    PY=${line%% *}
    RUN=
    [ "$line" = "$PY" ] || RUN="${line#* } --bind $top"
    [ -n "$PY" ] || { echo "bench: no CPython $D with headers" >&2; exit 1; }
    o=$out/$D
    mkdir -p "$o/own" "$o/portable"
    cp "$here/bench.c" "$o/own/"
    cp "$here/bench.c" "$o/portable/"
    (cd "$o/own" && "$CLINIC" -q --dialect "$D" bench.c)
    (cd "$o/portable" && "$CLINIC" -q --dialect "$D" --target portable bench.c)
    inc=$($RUN "$PY" "$top/tests/portable/includes.py")
    internal=$($RUN "$PY" -c '
import os, sysconfig
d = os.path.join(sysconfig.get_paths()["include"], "internal")
print("-DPy_BUILD_CORE_MODULE -I" + d if os.path.isdir(d) else "")')
    suffix=$($RUN "$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
    for d in own portable; do
        flags=
        [ "$d" = own ] && flags=$internal
        # shellcheck disable=SC2086
        $RUN ${CC:-cc} -shared -fPIC -O2 -std=c11 -Wall -Wextra -Werror \
            -Wno-missing-field-initializers -Wno-unused-parameter $inc $flags \
            -o "$o/$d/bench$suffix" "$o/$d/bench.c"
done

    echo "Dialect $D: calls per second on CPython $($RUN "$PY" -c 'import sys; print(sys.version.split()[0])')" \
         "(best of ${REPEAT:-9} rounds of ${NUMBER:-200000} calls),"
    echo "and the parsing's own time per call (less that of a call that parses nothing):"
    echo
    $RUN env PYTHONDONTWRITEBYTECODE=1 "$PY" "$here/calls.py" "$o/own" "$o/portable" \
        "${NUMBER:-200000}" "${REPEAT:-9}" | awk -v d="$D" '
    function m(x) { return sprintf("%5.1fM", x / 1e6) }
    BEGIN {
        printf "%-16s %16s %16s %16s %8s %8s\n", "call", d " output", "portable",
               "PyArg_Parse...", "port/own", "port/PTAK"
    }
    {
        split($2, a, ":"); split($3, b, ":"); split($4, c, ":")
        printf "%-16s %6s %5.1f ns %6s %5.1f ns %6s %5.1f ns %8.2f %8.1fx\n", $1,
               m(a[1]), a[2], m(b[1]), b[2], m(c[1]), c[2], b[1] / a[1], b[1] / c[1]
    }'
    if [ -n "$RUN" ] && ! $RUN sh -c 'command -v valgrind' > /dev/null 2>&1; then
        root=$(echo "$RUN" | awk '{print $2}')
        echo "bench: installing valgrind in $root" >&2
        # as pythons.sh changes the root: its lock held exclusive
        (flock 8 && CLINIC_ROOT_LOCKED=1 $RUN env DEBIAN_FRONTEND=noninteractive \
            sh -c 'apt-get -o Acquire::Check-Valid-Until=false update -q &&
                   apt-get install -y -q --no-install-recommends valgrind' \
            > "$out/valgrind-install.log" 2>&1) 8> "$root.lock" ||
            echo "bench: valgrind could not be installed in $root (see $out/valgrind-install.log)" >&2
    fi
    if $RUN sh -c 'command -v valgrind' > /dev/null 2>&1; then
        instr() {   # DIR N: instructions of a run making N keyword calls
            $RUN env PYTHONDONTWRITEBYTECODE=1 valgrind --tool=callgrind \
                --callgrind-out-file=/dev/null "$PY" "$here/calls.py" --keyword-calls \
                "$1" "$2" 2>&1 | sed -n 's/.*Collected : *//p'
        }
        n=100000
        own=$(( ($(instr "$o/own" $n) - $(instr "$o/own" 0)) / n ))
        port=$(( ($(instr "$o/portable" $n) - $(instr "$o/portable" 0)) / n ))
        echo
        echo "keyword call, instructions per call (callgrind): $D output $own," \
             "portable $port: port/own $(awk -v a="$own" -v b="$port" 'BEGIN {printf "%.2f", a / b}')"
    else
        echo "keyword call, instructions per call: not measured (no valgrind)"
    fi
    echo
done
