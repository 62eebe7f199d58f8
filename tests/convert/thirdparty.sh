#!/bin/sh
# Third-party extensions that parse their arguments by hand, converted
# with `clinic --convert --target portable` and called before and after.
# For every fixtures/convert/thirdparty/NAME/ (the upstream files as
# released, with LICENSE and ORIGIN, and a spec: module, sources, the file
# to convert, cflags, the converted functions, extra argument values and
# how many calls of each function, "per", 20 when not given),
# on each CPython of the portable tier (3.9 ... 3.15; tests/portable/
# pythons.sh, 3.14 and 3.15 in its Debian sid root):
#
#   1. the spec's file converted (something must be converted, and the
#      spec must call every function converted), and `clinic --check` on
#      it changes nothing;
#   2. the module built as released and as converted (-Wall -Wextra): the
#      converted one with no warning the released one lacks;
#   3. arglists.py's generated calls (a few hundred, the same on every
#      CPython) made on both by calls.py: the same results and the same
#      exception types, call by call.
#
# A CPython this machine cannot have is named with pythons.sh's reason.
# Ends with "thirdparty: N passed, M failed", a case per extension and
# CPython.  usage: thirdparty.sh [CLINIC]
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CLINIC=${1:-$top/build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$top/$CLINIC ;; esac
VERSIONS=${CLINIC_THIRDPARTY_VERSIONS:-3.9 3.10 3.11 3.12 3.13 3.14 3.15}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-thirdparty.XXXXXX")
[ -n "${CLINIC_KEEP:-}" ] || trap 'rm -rf "$scratch"' EXIT INT TERM
pass=0 nfail=0
fail() { echo "FAIL thirdparty $1"; nfail=$((nfail + 1)); }

sh "$top/tests/portable/pythons.sh" $VERSIONS > "$scratch/pythons" 2> "$scratch/pythons.err"
line_of() { awk -v v="$1" '$1 == v' "$scratch/pythons"; }

# spec NAME.spec KEY: the words of KEY's line
spec() { awk -v k="$2" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' "$1"; }

for dir in "$top"/fixtures/convert/thirdparty/*/; do
    dir=${dir%/}
    name=${dir##*/}
    s=$dir/spec
    module=$(spec "$s" module) sources=$(spec "$s" sources)
    target=$(spec "$s" convert) cflags=$(spec "$s" cflags)
    t=$scratch/$name
    mkdir -p "$t/before" "$t/after"
    cp "$dir"/*.c "$dir"/*.h "$t/before/" && cp "$dir"/*.c "$dir"/*.h "$t/after/"
    if ! (cd "$t/after" && "$CLINIC" --convert --target portable "$target") > "$t/convert.log" 2>&1; then
        fail "$name: clinic --convert failed"; sed 's/^/    /' "$t/convert.log" | head; continue
    fi
    grep ': note: convert: [0-9]* converted' "$t/convert.log" | sed "s|^|$name: |"
    if cmp -s "$dir/$target" "$t/after/$target"; then
        fail "$name: nothing was converted"; continue
    fi
    if ! (cd "$t/after" && "$CLINIC" -q --check --target portable "$target") > "$t/check.log" 2>&1; then
        fail "$name: clinic changes the converted file again"; sed 's/^/    /' "$t/check.log" | head; continue
    fi
    # every converted function is called: its name's last part after a
    # dot in some "call" line
    missing=$(awk '/^\/\*\[clinic input\]$/ { getline; if ($1 != "module" && $1 != "class") print $1 }' \
                  "$t/after/$target" | sed 's/.*\.//' | while read -r f; do
                  grep -q "^call .*\.$f\b" "$s" || echo "$f"; done)
    if [ -n "$missing" ]; then
        fail "$name: converted, and not called by its spec: $(echo $missing)"; continue
    fi
    per=$(spec "$s" per)
    python3 "$here/arglists.py" "$s" "${per:-20}" > "$t/calls" ||
        { fail "$name: arglists.py failed"; continue; }
    for v in $VERSIONS; do
        line=$(line_of "$v")
        py=$(echo "$line" | awk '{print $2}')
        case $py in
            none) echo "CANNOT RUN thirdparty $name on CPython $v: $(echo "$line" | cut -d' ' -f3-)"; continue ;;
            "") fail "$name on CPython $v: no CPython $v here (tests/portable/pythons.sh):"
                grep "$v" "$scratch/pythons.err" | sed 's/^/    /'; continue ;;
        esac
        IN=$(echo "$line" | cut -d' ' -f3-)
        [ -z "$IN" ] || IN="$IN --bind $scratch --bind $here --bind $top/tests/portable"
        id="$name on CPython $v"
        ok=1
        for side in before after; do
            d=$t/$v/$side
            mkdir -p "$d" && cp -R "$t/$side/." "$d/"
            # shellcheck disable=SC2086
            $IN sh -c 'cd "$1" && py=$2 && out=$3 && shift 3 &&
                inc=$("$py" "$1") && shift &&
                suffix=$("$py" -c "import sysconfig; print(sysconfig.get_config_var(\"EXT_SUFFIX\"))") &&
                gcc -Wall -Wextra -shared -fPIC $inc -I. "$@" -o "$out$suffix"' \
                sh "$d" "$py" "$module" "$top/tests/portable/includes.py" $cflags $sources \
                > "$d/build.log" 2>&1 ||
                { fail "$id: the module $side conversion does not build:"
                  grep -m5 'error' "$d/build.log" | sed 's/^/    /'; ok=0; break; }
            # shellcheck disable=SC2086
            $IN "$py" "$here/calls.py" "$d" "$module" "$t/calls" > "$t/$v/$side.out" 2>&1
        done
        [ $ok = 1 ] || continue
        wb=$(grep -c 'warning:' "$t/$v/before/build.log") wa=$(grep -c 'warning:' "$t/$v/after/build.log")
        if [ "$wa" -gt "$wb" ]; then
            fail "$id: the converted module builds with $((wa - wb)) new warnings:"
            grep -m5 'warning:' "$t/$v/after/build.log" | sed 's/^/    /'; continue
        fi
        n=$(wc -l < "$t/calls")
        if [ "$(wc -l < "$t/$v/before.out")" -ne "$n" ]; then
            fail "$id: the calls did not all run before the conversion:"
            tail -n 5 "$t/$v/before.out" | sed 's/^/    /'; continue
        fi
        if ! diff "$t/$v/before.out" "$t/$v/after.out" > "$t/$v/diff"; then
            fail "$id: calls end differently after the conversion (< before, > after):"
            head -n 20 "$t/$v/diff" | sed 's/^/    /'; continue
        fi
        raised=$(grep -c ' -> raises ' "$t/$v/after.out")
        echo "$id: $n calls, $((n - raised)) returned and $raised raised, the same before and after"
        pass=$((pass + 1))
    done
done
echo "thirdparty: $pass passed, $nfail failed"
[ $nfail -eq 0 ]
