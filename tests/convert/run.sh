#!/bin/sh
# make convert: clinic --convert's results built and called.  For every
# fixtures/convert/NAME.c with a NAME.c.calls beside it:
#
#   1. the file as written and the file after `clinic --convert` are both
#      built as extension modules with -Wall -Wextra -Werror (no new
#      warning), against CPython 3.11 with the default target, and
#      against 3.9 and 3.13 with --target portable;
#   2. `clinic --check` on the converted file changes nothing;
#   3. tests/convert/calls.py calls the functions of both modules with
#      every argument list of NAME.c.calls: the results and the types of
#      the exceptions must be the same.
#
# A CPython that tests/portable/pythons.sh cannot find is named, and fails
# the run.  Then the two checks of its own scripts, whose cases count here
# too:
#
#   thirdparty.sh  real extensions (fixtures/convert/thirdparty) converted
#                  with --target portable, built and called on 3.9-3.15
#   suites.sh      CPython 3.13.5 built before and after --convert of its
#                  Modules/ and Objects/, and CPython's test suites of the
#                  converted files run on both, test by test
#                  (CLINIC_CONVERT_SUITES=0 leaves it out, and says so)
#
# Ends with "convert: N passed, M failed".
#
# usage: run.sh [CLINIC]
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CLINIC=${1:-build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$top/$CLINIC ;; esac
CC=${CC:-cc}
WARN="-Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-convert.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
pass=0 nfail=0

fail() { echo "FAIL convert $1: $2"; nfail=$((nfail + 1)); }

# build DIR NAME PY: DIR/NAME.c into a module of PY beside it
build() {
    inc=$("$3" "$top/tests/portable/includes.py")
    suffix=$("$3" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
    # shellcheck disable=SC2086
    (cd "$1" && $CC $WARN -shared -fPIC $inc -o "$2$suffix" "$2.c") \
        > "$1/build.log" 2>&1
}

for version_target in 3.11:3.11 3.9:portable 3.13:portable; do
    version=${version_target%%:*} target=${version_target#*:}
    py=$(sh "$top/tests/portable/pythons.sh" --no-install "$version" 2>/dev/null | awk '{print $2}')
    if [ -z "$py" ]; then
        fail "$version" "no CPython $version with headers here (tests/portable/pythons.sh)"
        continue
    fi
    for calls in "$top"/fixtures/convert/*.c.calls; do
        src=${calls%.calls}
        name=${src##*/}
        name=${name%.c}
        id="$name ($version, --target $target)"
        t=$scratch/$version/$name
        mkdir -p "$t/before" "$t/after"
        cp "$src" "$t/before/" && cp "$src" "$t/after/"
        if ! (cd "$t/after" && "$CLINIC" -q --convert --target "$target" "$name.c") 2> "$t/convert.log"; then
            fail "$id" "clinic --convert failed"; sed 's/^/    /' "$t/convert.log" | head; continue
        fi
        if cmp -s "$src" "$t/after/$name.c"; then
            fail "$id" "nothing was converted"; continue
        fi
        if ! (cd "$t/after" && "$CLINIC" -q --check --target "$target" "$name.c") > "$t/check.log" 2>&1; then
            fail "$id" "clinic changes the converted file again"; sed 's/^/    /' "$t/check.log" | head; continue
        fi
        if ! build "$t/before" "$name" "$py"; then
            fail "$id" "the file as written does not build"; sed 's/^/    /' "$t/before/build.log" | head -20; continue
        fi
        if ! build "$t/after" "$name" "$py"; then
            fail "$id" "the converted file does not build without warnings"
            sed 's/^/    /' "$t/after/build.log" | head -20; continue
        fi
        "$py" "$here/calls.py" "$t/before" "$name" "$calls" > "$t/before.out" 2>&1
        "$py" "$here/calls.py" "$t/after" "$name" "$calls" > "$t/after.out" 2>&1
        if ! [ -s "$t/before.out" ] || ! diff -u "$t/before.out" "$t/after.out" > "$t/calls.diff"; then
            fail "$id" "the calls give other results after the conversion"
            sed 's/^/    /' "$t/calls.diff" | head -30; continue
        fi
        pass=$((pass + 1))
    done
done
# add_counts SCRIPT...: run it; its last "NAME: N passed, M failed" line
# counts here
add_counts() {
    { "$@"; echo $? > "$scratch/sub.rc"; } 2>&1 | tee "$scratch/sub.log"
    rc=$(cat "$scratch/sub.rc")
    counts=$(grep -E '^[a-z-]+: [0-9]+ passed, [0-9]+ failed$' "$scratch/sub.log" | tail -n 1)
    p=$(echo "$counts" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
    f=$(echo "$counts" | sed -n 's/.*, \([0-9]*\) failed/\1/p')
    pass=$((pass + ${p:-0})) nfail=$((nfail + ${f:-0}))
    if [ $rc -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
        fail "$1" "exited $rc"
    fi
}
add_counts sh "$here/thirdparty.sh" "$CLINIC"
if [ "${CLINIC_CONVERT_SUITES:-1}" = 0 ]; then
    echo "CANNOT RUN cpython-suites: left out (CLINIC_CONVERT_SUITES=0)"
else
    add_counts sh "$here/suites.sh" "$CLINIC"
fi
echo "convert: $pass passed, $nfail failed"
[ $nfail -eq 0 ]
