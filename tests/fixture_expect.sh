#!/bin/sh
# make fixture-expect NAME=GROUP/NAME: writes the expected result of the
# fixture fixtures/GROUP/NAME.c from the reference clinic.py of its
# dialect (GROUP/options' --dialect, else 3.11), taken from the
# conformance cache (fetched the first time), for a person to review
# before committing:
#   the reference succeeds   NAME.c.expected, and NAME.c.expected.d/ with
#                            every other file it left beside NAME.c when
#                            those differ from NAME.c.given.d/ (or exist
#                            without one)
#   the reference refuses    NAME.err: the last line of its message (our
#                            message must contain it; see
#                            tests/run_fixtures.sh)
# Prints what it wrote and git's view of it.
#   CLINIC_CACHE  the conformance cache ($HOME/.cache/clinic-conformance)
#   PYTHON        the interpreter the reference runs under (python3)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
name=${1:-}
case $name in
    */*) ;;
    *) echo "usage: make fixture-expect NAME=GROUP/NAME (fixtures/GROUP/NAME.c)" >&2; exit 2 ;;
esac
dir=$top/fixtures/${name%/*}
base=${name##*/}
base=${base%.c}
src=$base.c
[ -f "$dir/$src" ] || { echo "fixture-expect: no fixtures/${name%/*}/$src" >&2; exit 2; }
CACHE=${CLINIC_CACHE:-${HOME:-/tmp}/.cache/clinic-conformance}
PYTHON=${PYTHON:-python3}

dialect=3.11
if [ -f "$dir/options" ]; then
    d=$(sed -n 's/.*--dialect[= ]\([0-9.]*\).*/\1/p' "$dir/options")
    [ -n "$d" ] && dialect=$d
fi
case $dialect in
    3.11) fetch=fetch.sh ;;
    3.13) fetch=fetch313.sh ;;
    3.14) fetch=fetch314.sh ;;
    3.15) fetch=fetch315.sh ;;
    *) echo "fixture-expect: no reference for dialect $dialect" >&2; exit 2 ;;
esac
eval "$(sh "$top/tests/conformance/$fetch" "$CACHE")"

scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-expect.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
mkdir "$scratch/run"
cp "$dir/$src" "$scratch/run/"
[ -d "$dir/$src.given.d" ] && cp -R "$dir/$src.given.d/." "$scratch/run/"
rc=0
(cd "$scratch/run" && "$PYTHON" "$REFDIR/clinic.py" "$src") \
    > "$scratch/out" 2>&1 || rc=$?

rm -rf "$dir/$src.expected" "$dir/$src.expected.d" "$dir/$base.err"
if [ $rc -ne 0 ]; then
    # the message is the last line clinic.py prints (after "Error in file
    # ... on line N:", or a traceback's last line)
    grep -v '^$' "$scratch/out" | tail -n 1 > "$dir/$base.err"
    echo "fixture-expect: clinic.py $dialect refused $src (exit $rc); wrote fixtures/$name.err:"
    sed 's/^/    /' "$dir/$base.err"
else
    cp "$scratch/run/$src" "$dir/$src.expected"
    rm "$scratch/run/$src"
    echo "fixture-expect: clinic.py $dialect wrote fixtures/${name%/*}/$src.expected"
    if [ -d "$dir/$src.given.d" ] &&
       diff -r "$dir/$src.given.d" "$scratch/run" > /dev/null 2>&1; then
        :   # the given files, unchanged: run_fixtures.sh expects them
    elif [ -n "$(ls -A "$scratch/run")" ]; then
        mkdir -p "$dir/$src.expected.d"
        cp -R "$scratch/run/." "$dir/$src.expected.d/"
        echo "fixture-expect: and fixtures/${name%/*}/$src.expected.d/:"
        (cd "$dir/$src.expected.d" && find . -type f | sed 's|^\./|    |' | LC_ALL=C sort)
    fi
fi
echo "fixture-expect: review it before committing:"
(cd "$top" && git status --short -- "fixtures/${name%/*}" | sed 's/^/    /')
