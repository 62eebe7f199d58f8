#!/bin/sh
# line_endings.sh CLINIC: clinic keeps a file's line endings, final newline
# and byte order mark.
#
#   crlf              a CRLF file: everything clinic writes into it is CRLF
#                     too, and the checksums are those of the LF form (the
#                     CRLF result is the LF result with every LF made CRLF);
#                     a second run finds nothing to change
#   crlf-destination  a file destination of a CRLF file is written in CRLF
#   crlf-checked      a CRLF file whose existing output is up to date (from
#                     the LF form's checksums): nothing to change
#   no-final-newline  text after the last block without a final newline; an
#                     end marker as the very last bytes; a stop line as the
#                     very last bytes: as clinic.py (when it is found) or,
#                     without it, the result of a second run must equal the
#                     first
#   bom               a UTF-8 BOM at the start is kept
#   bom-start-line    a BOM right before a start line: the block is
#                     processed as if the BOM were not there (clinic.py
#                     keeps U+FEFF in the first line and so misses the
#                     block: our deliberate difference), and the BOM kept
# (clinic.py itself turns CRLF into LF: it reads and writes in text mode.
# Keeping CRLF is our choice, so there is no reference for the first two.)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/common.sh"
CLINIC=${1:-$top/build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
REF=$(find_reference)
PYTHON=${PYTHON:-python3}

work=$(mktemp -d "${TMPDIR:-/tmp}/clinic-eol.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
pass=0 fails=0
ok()   { pass=$((pass + 1)); echo "line-endings: ok   $1"; }
bad()  { fails=$((fails + 1)); echo "line-endings: FAIL $1: $2"; }

# run_clinic DIR FILE: runs clinic on DIR/FILE; output in $work/log
run_clinic() { (cd "$1" && "$CLINIC" "$2") > "$work/log" 2>&1; }
run_ref() { (cd "$1" && "$PYTHON" "$REF" "$2") > "$work/reflog" 2>&1; }
to_crlf() { sed 's/$/\r/' "$1" > "$2"; }

sample() {   # the LF sample, without output
    cat <<'EOT'
/* A sample for the line-ending tests. */
#include "Python.h"

/*[clinic input]
module m
[clinic start generated code]*/

/*[clinic input]
m.spam

    a: int
    b: str = "x"
    /

Eat some spam.

With a second paragraph.
[clinic start generated code]*/

static PyObject *
m_spam_impl(PyObject *module, int a, const char *b)
{
    Py_RETURN_NONE;
}
EOT
}

# ---- crlf -----------------------------------------------------------------
mkdir -p "$work/lf" "$work/crlf"
sample > "$work/lf/s.c"
to_crlf "$work/lf/s.c" "$work/crlf/s.c"
if run_clinic "$work/lf" s.c; then
    to_crlf "$work/lf/s.c" "$work/want.c"
    if ! run_clinic "$work/crlf" s.c; then
        bad crlf "clinic failed: $(head -n 3 "$work/log")"
    elif cmp -s "$work/crlf/s.c" "$work/want.c"; then
        cp "$work/crlf/s.c" "$work/crlf/before.c"
        if run_clinic "$work/crlf" s.c && cmp -s "$work/crlf/s.c" "$work/crlf/before.c"; then
            ok crlf
        else
            bad crlf "a second run changed the file or failed: $(head -n 3 "$work/log")"
        fi
    else
        lf_lines=$(tr -cd '\n' < "$work/crlf/s.c" | wc -c)
        cr_lines=$(tr -cd '\r' < "$work/crlf/s.c" | wc -c)
        bad crlf "the result is not the LF result in CRLF ($lf_lines lines, $cr_lines CRs); first difference: $(cmp "$work/want.c" "$work/crlf/s.c" 2>&1 | head -n 1)"
    fi
else
    bad crlf "clinic fails on the LF sample: $(head -n 3 "$work/log")"
fi

# ---- crlf-checked: up-to-date CRLF output is left alone ---------------------
mkdir -p "$work/checked"
if [ -f "$work/lf/s.c" ]; then
    to_crlf "$work/lf/s.c" "$work/checked/s.c"
    cp "$work/checked/s.c" "$work/checked/before.c"
    if ! run_clinic "$work/checked" s.c; then
        bad crlf-checked "clinic rejects CRLF output whose LF form verifies: $(head -n 5 "$work/log" | tr '\n' '|')"
    elif ! cmp -s "$work/checked/s.c" "$work/checked/before.c"; then
        bad crlf-checked "clinic rewrote an up-to-date CRLF file"
    else
        ok crlf-checked
    fi
fi

# ---- crlf-destination: a file destination of a CRLF file is CRLF too -----
mkdir -p "$work/crlfdest"
printf '/*[clinic input]\ndestination out new file {dirname}/clinic/{basename}.h\noutput everything out\n[clinic start generated code]*/\n/*[clinic input]\nspam\n\n    a: int\n    /\n\nDoc.\n[clinic start generated code]*/\n' \
    | sed 's/$/\r/' > "$work/crlfdest/s.c"
if ! run_clinic "$work/crlfdest" s.c; then
    bad crlf-destination "clinic failed: $(head -n 3 "$work/log")"
elif [ ! -f "$work/crlfdest/clinic/s.c.h" ]; then
    bad crlf-destination "no destination file written"
else
    h=$work/crlfdest/clinic/s.c.h
    lines=$(tr -cd '\n' < "$h" | wc -c)
    crlfs=$(grep -c "$(printf '\r')\$" "$h")
    cp -R "$work/crlfdest" "$work/crlfdest.before"
    if [ "$lines" -ne "$crlfs" ]; then
        bad crlf-destination "$crlfs of $lines lines of the destination file end in CRLF"
    elif ! run_clinic "$work/crlfdest" s.c || ! snapshot_equal "$work/crlfdest" "$work/crlfdest.before"; then
        bad crlf-destination "a second run failed or changed something"
    else
        ok crlf-destination
    fi
fi

# ---- no final newline ---------------------------------------------------------
# compare_with_reference NAME: clinic on $work/NAME/s.c against clinic.py on
# a copy (or, without clinic.py, a second run must change nothing)
compare_with_reference() {
    name=$1
    cp -R "$work/$name" "$work/$name.ref"
    if ! run_clinic "$work/$name" s.c; then
        if [ -n "$REF" ] && ! run_ref "$work/$name.ref" s.c; then
            ok "$name (both refuse)"
        else
            bad "$name" "clinic failed: $(head -n 3 "$work/log")"
        fi
        return
    fi
    if [ -n "$REF" ]; then
        run_ref "$work/$name.ref" s.c
        if cmp -s "$work/$name/s.c" "$work/$name.ref/s.c"; then
            ok "$name"
        else
            bad "$name" "differs from clinic.py: $(cmp "$work/$name.ref/s.c" "$work/$name/s.c" 2>&1 | head -n 1)"
        fi
    else
        cp "$work/$name/s.c" "$work/$name/first.c"
        if run_clinic "$work/$name" s.c && cmp -s "$work/$name/s.c" "$work/$name/first.c"; then
            ok "$name (no clinic.py: second run stable)"
        else
            bad "$name" "a second run changed the file"
        fi
    fi
}

mkdir -p "$work/noeol-text"
{ sample; printf '/* the end, without a newline */'; } > "$work/noeol-text/s.c"
compare_with_reference noeol-text

mkdir -p "$work/noeol-marker"
if [ -f "$work/lf/s.c" ]; then
    # the LF sample with output, cut after the last end marker's "]*/"
    awk '{ lines[NR] = $0 } /^\/\*\[clinic end generated code:/ { last = NR }
         END { for (i = 1; i < last; i++) print lines[i]; printf "%s", lines[last] }' \
        "$work/lf/s.c" > "$work/noeol-marker/s.c"
    cp "$work/noeol-marker/s.c" "$work/noeol-marker/before.c"
    compare_with_reference noeol-marker
fi

mkdir -p "$work/noeol-stop"
printf '/*[clinic input]\nmodule m\n[clinic start generated code]*/' > "$work/noeol-stop/s.c"
compare_with_reference noeol-stop

mkdir -p "$work/crlf-noeol"
{ sample; printf '/* the end, without a newline */'; } | sed 's/$/\r/' | head -c -1 > "$work/crlf-noeol/s.c"
cp -R "$work/crlf-noeol" "$work/crlf-noeol.lf"
tr -d '\r' < "$work/crlf-noeol/s.c" > "$work/crlf-noeol.lf/s.c"
if run_clinic "$work/crlf-noeol.lf" s.c && run_clinic "$work/crlf-noeol" s.c; then
    # the LF result in CRLF, still without a final newline
    sed 's/$/\r/' "$work/crlf-noeol.lf/s.c" | head -c -1 > "$work/want.c"
    if cmp -s "$work/crlf-noeol/s.c" "$work/want.c"; then ok crlf-no-final-newline
    else bad crlf-no-final-newline "not the LF result in CRLF: $(cmp "$work/want.c" "$work/crlf-noeol/s.c" 2>&1 | head -n 1)"; fi
else
    bad crlf-no-final-newline "clinic failed: $(head -n 3 "$work/log")"
fi

# ---- byte order mark ----------------------------------------------------------
mkdir -p "$work/bom" "$work/bom.lf"
{ printf '\357\273\277'; sample; } > "$work/bom/s.c"
sample > "$work/bom.lf/s.c"
if run_clinic "$work/bom.lf" s.c && run_clinic "$work/bom" s.c; then
    { printf '\357\273\277'; cat "$work/bom.lf/s.c"; } > "$work/want.c"
    if cmp -s "$work/bom/s.c" "$work/want.c"; then ok bom
    else bad bom "the BOM or the output differs: $(cmp "$work/want.c" "$work/bom/s.c" 2>&1 | head -n 1)"; fi
else
    bad bom "clinic failed: $(head -n 3 "$work/log")"
fi

mkdir -p "$work/bom-start" "$work/bom-start.lf"
printf '/*[clinic input]\nmodule m\n[clinic start generated code]*/\n' > "$work/bom-start.lf/s.c"
{ printf '\357\273\277'; cat "$work/bom-start.lf/s.c"; } > "$work/bom-start/s.c"
if run_clinic "$work/bom-start.lf" s.c && run_clinic "$work/bom-start" s.c; then
    { printf '\357\273\277'; cat "$work/bom-start.lf/s.c"; } > "$work/want.c"
    if grep -q 'end generated code' "$work/want.c" && cmp -s "$work/bom-start/s.c" "$work/want.c"; then
        ok bom-start-line
    else
        bad bom-start-line "the block was not processed as without the BOM, or the BOM was lost"
    fi
else
    bad bom-start-line "clinic failed: $(head -n 3 "$work/log")"
fi

echo "line-endings: $pass passed, $fails failed"
[ $fails -eq 0 ]
