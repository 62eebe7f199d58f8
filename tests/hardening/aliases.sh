#!/bin/sh
# aliases.sh CLINIC: a routed file that is the input (or the -o target)
# under another name is refused before anything is written, however the
# name is spelled; two destinations naming one file write it once.
#
#   input aliases     the input given as x.c, ./x.c, $PWD/x.c, through a
#                     symlink to it, and reached by templates {basename},
#                     {dirname}/../DIR/{basename}, a symlinked directory,
#                     a symlink beside it: each run twice (a second run
#                     used to replace x.c with the routed text); exit 1,
#                     a FILE:LINE: error, every file byte for byte as before
#                     A template without a directory part naming another
#                     hand-written file is checked too (clinic.py does not)
#   -o aliases        -o naming a routed file, directly or through a
#                     symlink: refused, nothing written
#   destination pairs two destinations on one file under two names: one
#                     write, the later text, and a second run changes
#                     nothing
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/common.sh"
t_begin aliases "${1:-}"

# routed TEMPLATE: a file with hand-written code whose whole output goes to
# a file destination named by TEMPLATE
routed() {
    cat <<EOF
/* hand-written code that must survive */
static int precious(void) { return 42; }
/*[clinic input]
destination self new file '$1'
output everything self
module m
m.f
    a: int

Doc.
[clinic start generated code]*/
EOF
}

# refused_twice NAME DIR ARGS...: clinic in DIR fails twice in a row with
# a FILE:LINE: error, and DIR is byte for byte what it was
refused_twice() {
    name=$1 d=$2; shift 2
    rm -rf "$T_WORK/before"
    cp -PR "$d" "$T_WORK/before"
    for round in 1 2; do
        rc=0
        (cd "$d" && exec "$CLINIC" "$@") > "$T_LOG" 2>&1 || rc=$?
        if [ $rc -eq 0 ] || [ $rc -gt 128 ]; then
            t_bad "$name" "run $round exited $rc"
            return
        fi
        if ! snapshot_equal "$T_WORK/before" "$d"; then
            t_bad "$name" "run $round changed files: $(diff -rq "$T_WORK/before" "$d" | head -n 2)"
            return
        fi
        if ! grep -Eq '^[^:]+:[0-9]+: error: ' "$T_LOG"; then
            t_bad "$name" "no FILE:LINE: error: $(head -c 300 "$T_LOG")"
            return
        fi
    done
    t_ok "$name ($(head -n 1 "$T_LOG"))"
}

# ---- input aliases -----------------------------------------------------------
t=$T_WORK/in
mkdir -p "$t/DIR"
routed '{basename}' > "$t/DIR/x.c"
refused_twice "input x.c, template {basename}" "$t/DIR" x.c
refused_twice "input ./x.c, template {basename}" "$t/DIR" ./x.c
refused_twice "input \$PWD/x.c, template {basename}" "$t/DIR" "$t/DIR/x.c"
refused_twice "input DIR/../DIR/x.c, template {basename}" "$t/DIR" ../DIR/x.c
ln -s x.c "$t/DIR/link.c"
routed 'x.c' > "$t/DIR/x.c"
refused_twice "input link.c -> x.c, template x.c" "$t/DIR" link.c
rm "$t/DIR/link.c"

routed '{dirname}/../DIR/{basename}' > "$t/DIR/x.c"
refused_twice "template {dirname}/../DIR/{basename}" "$t" DIR/x.c
refused_twice "template {dirname}/../DIR/{basename}, absolute input" "$t" "$t/DIR/x.c"

ln -s DIR "$t/ALIAS"
routed '{dirname}/../ALIAS/{basename}' > "$t/DIR/x.c"
refused_twice "template through a symlinked directory" "$t" DIR/x.c
rm "$t/ALIAS"

ln -s x.c "$t/DIR/gen.h"
routed '{dirname}/gen.h' > "$t/DIR/x.c"
refused_twice "template naming a symlink to the input" "$t" DIR/x.c
rm "$t/DIR/gen.h"

ln "$t/DIR/x.c" "$t/DIR/hard.h" 2>/dev/null && {
    routed '{dirname}/hard.h' > "$t/DIR/x.c"
    refused_twice "template naming a hard link to the input" "$t" DIR/x.c
    rm "$t/DIR/hard.h"
}

# a template without a directory part naming another hand-written file:
# checked like any routed file (clinic.py skips the check and overwrites it)
routed '{basename_root}_impl.c' > "$t/DIR/x.c"
echo 'int hand_written;' > "$t/DIR/x_impl.c"
refused_twice "template {basename_root}_impl.c naming a hand-written file" "$t/DIR" x.c
rm "$t/DIR/x_impl.c"

# ---- -o aliases -----------------------------------------------------------------
t=$T_WORK/out
mkdir -p "$t"
routed '{dirname}/clinic/{basename}.h' > "$t/x.c"
refused_twice "-o naming the routed file" "$t" -o clinic/x.c.h x.c
mkdir -p "$t/clinic"
ln -s clinic/x.c.h "$t/out.c"
refused_twice "-o through a symlink to the routed file" "$t" -o out.c x.c

# ---- destination pairs ---------------------------------------------------------------
t=$T_WORK/pair
mkdir -p "$t/DIR"
cat > "$t/DIR/x.c" <<'EOF'
/*[clinic input]
destination one new file '{dirname}/clinic/gen.h'
destination two new file '{dirname}/../DIR/./clinic/gen.h'
output everything one
output docstring_prototype two
output docstring_definition two
module m
m.f
    a: int

Doc.
[clinic start generated code]*/
EOF
cp "$t/DIR/x.c" "$T_WORK/pair-input"
rc=0
(cd "$t" && exec "$CLINIC" DIR/x.c) > "$T_LOG" 2>&1 || rc=$?
files=$(cd "$t" && find . -type f | sort | tr '\n' ' ')
if [ $rc -ne 0 ]; then
    t_bad "destinations on one file" "exit $rc: $(head -c 300 "$T_LOG")"
elif [ "$files" != "./DIR/clinic/gen.h ./DIR/x.c " ]; then
    t_bad "destinations on one file" "files: $files"
elif ! grep -q 'PyDoc_STRVAR(m_f__doc__' "$t/DIR/clinic/gen.h" ||
     grep -q 'm_f_impl(PyObject' "$t/DIR/clinic/gen.h"; then
    t_bad "destinations on one file" "gen.h does not hold the later destination's text"
else
    cp "$t/DIR/clinic/gen.h" "$T_WORK/gen.h"
    cp "$t/DIR/x.c" "$T_WORK/x.c"
    rc=0
    (cd "$t" && exec "$CLINIC" DIR/x.c) > "$T_LOG" 2>&1 || rc=$?
    if [ $rc -ne 0 ] || ! cmp -s "$T_WORK/gen.h" "$t/DIR/clinic/gen.h" ||
       ! cmp -s "$T_WORK/x.c" "$t/DIR/x.c"; then
        t_bad "destinations on one file" "second run: exit $rc or files changed"
    else
        t_ok "destinations on one file: written once, the later text, stable"
    fi
fi

t_end
