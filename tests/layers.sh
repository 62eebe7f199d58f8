#!/bin/sh
# The floors of lib/ (README, "Layout"): each folder of lib/ is one floor,
# and a file may #include "..." only headers of its own floor or below, so
# that lib/ reads as a one-way pipeline and no circle of includes can form.
# A file's floor is its folder; a folder not in the list below, or an
# include that does not name its floor ("floor/name.h"), is an error.
# Usage: layers.sh [LIBDIR]   (prints one line per offending include)
#        layers.sh --self-test  (proves it fails on an upward include)
set -eu

# lowest first: base is the ground floor, drive the top
FLOORS="base python model scan convert parse generate drive"

lib=${1:-lib}
if [ "$lib" = --self-test ]; then
    t=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX")
    mkdir "$t/scan" "$t/generate" "$t/base"
    printf '#include "generate/gen.h"\n' > "$t/scan/block.c"
    printf '#include "base/context.h"\n' > "$t/generate/gen.h"
    printf '\n' > "$t/base/context.h"
    if sh "$0" "$t" >/dev/null; then
        echo "layers: self-test: scan/block.c including generate/gen.h was not caught"
        rm -rf "$t"; exit 1
    fi
    printf '#include "block.h"\n' > "$t/scan/block.c"
    if sh "$0" "$t" >/dev/null; then
        echo "layers: self-test: an include without its floor was not caught"
        rm -rf "$t"; exit 1
    fi
    printf '#include "scan/block.h"\n' > "$t/scan/block.c"
    printf '\n' > "$t/scan/block.h"
    sh "$0" "$t" >/dev/null || { echo "layers: self-test: a clean tree was refused"; rm -rf "$t"; exit 1; }
    mkdir "$t/misc"; printf '\n' > "$t/misc/x.c"
    if sh "$0" "$t" >/dev/null; then
        echo "layers: self-test: a folder that is no floor was not caught"
        rm -rf "$t"; exit 1
    fi
    rm -rf "$t"
    echo "layers: self-test passed"
    exit 0
fi

floor_of() {
    n=1
    for f in $FLOORS; do
        [ "$f" = "$1" ] && { echo $n; return; }
        n=$((n + 1))
    done
    echo 0
}

status=0
checked=0
for path in "$lib"/*; do
    [ -d "$path" ] || { echo "layers: $path: every file of lib/ belongs in a floor's folder"; status=1; continue; }
    dir=${path##*/}
    f=$(floor_of "$dir")
    if [ "$f" = 0 ]; then
        echo "layers: $path: not a floor ($FLOORS)"
        status=1
        continue
    fi
    for file in "$path"/*.c "$path"/*.h; do
        [ -e "$file" ] || continue
        checked=$((checked + 1))
        for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file"); do
            case $inc in
                */*.h) g=$(floor_of "${inc%%/*}") ;;
                *) g=0 ;;
            esac
            if [ "$g" = 0 ]; then
                echo "layers: $file includes \"$inc\": name a header as \"floor/name.h\""
                status=1
            elif [ "$g" -gt "$f" ]; then
                echo "layers: $file ($dir) includes $inc (${inc%%/*}): a stage may only use the floors below it"
                status=1
            fi
        done
    done
done
[ $status = 0 ] && echo "layers: $checked files of $lib, no include goes up a floor"
exit $status
