#!/bin/sh
# The layers of lib/ (README, "Layers"): each file of lib/ belongs to one
# floor, and may #include "..." only headers of its own floor or below, so
# that lib/ reads as a one-way pipeline and no circle of includes can form.
# A file missing from the table below is an error too: a new file gets its
# floor when it is added.
# Usage: layers.sh [LIBDIR]   (prints one line per offending include)
#        layers.sh --self-test  (proves it fails on an upward include)
set -eu
lib=${1:-lib}
if [ "$lib" = --self-test ]; then
    t=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX")
    printf '#include "gen.h"\n' > "$t/block.c"
    printf '#include "context.h"\n' > "$t/gen.h"
    printf '\n' > "$t/context.h"
    if sh "$0" "$t" >/dev/null; then
        echo "layers: self-test: block.c including gen.h was not caught"; rm -rf "$t"; exit 1
    fi
    printf '#include "block.h"\n' > "$t/block.c"
    printf '\n' > "$t/block.h"
    sh "$0" "$t" >/dev/null || { echo "layers: self-test: a clean tree was refused"; rm -rf "$t"; exit 1; }
    rm -rf "$t"
    echo "layers: self-test passed"
    exit 0
fi

floor_of() {
    case $1 in
        arena|strbuf|printout|text|textform|textwrap|crename|io|io_commit|diff|checksum|context|json|dialect|dialect_*) echo 1 ;;
        pyexpr|pyexpr_*|pyvm|pyvm_*|message) echo 2 ;;
        model|converters|converters_*|target) echo 3 ;;
        block|cpp) echo 4 ;;
        dsl|dsl_*|directive|route|pyblock) echo 5 ;;
        gen|gen_*|output) echo 6 ;;
        clinic|query|query_*) echo 7 ;;
        *) echo 0 ;;
    esac
}

status=0
checked=0
for path in "$lib"/*.c "$lib"/*.h; do
    file=${path##*/}
    stem=${file%.*}
    f=$(floor_of "$stem")
    if [ "$f" = 0 ]; then
        echo "layers: $path: not in the table of floors (tests/layers.sh)"
        status=1
        continue
    fi
    checked=$((checked + 1))
    for inc in $(sed -n 's/^#include "\([^"]*\)\.h".*/\1/p' "$path"); do
        g=$(floor_of "$inc")
        if [ "$g" = 0 ]; then
            echo "layers: $path includes $inc.h, which is not in the table"
            status=1
        elif [ "$g" -gt "$f" ]; then
            echo "layers: $path (floor $f) includes $inc.h (floor $g): a stage may only use the floors below it"
            status=1
        fi
    done
done
[ $status = 0 ] && echo "layers: $checked files of $lib, no include goes up a floor"
exit $status
