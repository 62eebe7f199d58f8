#!/bin/sh
# special.sh CLINIC: clinic reads and replaces regular files only.
# Anything else is refused with an error naming the file, without being
# opened for reading (nothing hangs: every run has a 20 s timeout), and
# the other files of the run go on.
#
#   FIFO as a file         clinic x.c where x.c is a FIFO
#   FIFO in --make         a FIFO named *.c among regular files
#   FIFO as -o             -o fifo.c
#   FIFO as routed file    clinic/x.c.h is a FIFO
#   link to /dev/zero      x.c -> /dev/zero (read until memory ran out)
#   device as -o           -o onto a character device node made with
#                          mknod in the scratch directory (root; the node
#                          must still be a device afterwards: as root,
#                          -o /dev/null used to replace /dev/null)
#   directory as input     x.c is a directory
#   long names             a 236-character file name (and the longest a
#                          name may be) rewritten, routed file too: the
#                          temp name stays within the name limit
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/common.sh"
t_begin special "${1:-}"

block() {
    printf '/*[clinic input]\nmodule m\nm.f\n    a: int\n\nSummary.\n[clinic start generated code]*/\n'
}

# run_timed DIR ARGS...: t_run under a 20 s timeout (124: it hung)
run_timed() {
    t_dir=$1; shift
    rc=0
    (cd "$t_dir" && exec timeout 20 "$CLINIC" "$@") > "$T_LOG" 2>&1 < /dev/null || rc=$?
}

# expect_refusal CASE WORDS: exit 2, the error names what it is
expect_refusal() {
    if [ $rc -eq 124 ]; then
        t_bad "$1" "clinic hung (killed after 20 s)"
    elif [ $rc -ne 2 ]; then
        t_bad "$1" "exit $rc, not 2: $(head -c 300 "$T_LOG")"
    elif ! grep -q "$2" "$T_LOG"; then
        t_bad "$1" "no error saying '$2': $(head -c 300 "$T_LOG")"
    else
        t_ok "$1 ($(grep -m1 "$2" "$T_LOG"))"
    fi
}

d=$T_WORK/fifo
mkdir -p "$d"
mkfifo "$d/x.c"
run_timed "$d" x.c
expect_refusal "FIFO as the input" "x.c: error: it is a FIFO, not a regular file"

d=$T_WORK/make
mkdir -p "$d/tree"
block > "$d/tree/a.c"
mkfifo "$d/tree/b.c"
block > "$d/tree/c.c"
run_timed "$d" --make --srcdir tree
written=$(grep -l 'end generated code' "$d/tree/a.c" "$d/tree/c.c" 2>/dev/null | wc -l)
expect_refusal "FIFO in a --make tree" "tree/b.c: error: it is a FIFO"
[ "$written" -eq 2 ] || t_bad "FIFO in a --make tree" "the other files were not written ($written of 2)"

d=$T_WORK/fifo-o
mkdir -p "$d"
block > "$d/x.c"
mkfifo "$d/out.c"
run_timed "$d" -o out.c x.c
expect_refusal "FIFO as -o" "out.c: error: it is a FIFO, not a regular file"
[ -p "$d/out.c" ] || t_bad "FIFO as -o" "out.c is no longer a FIFO"

d=$T_WORK/fifo-routed
mkdir -p "$d/clinic"
block > "$d/x.c"
cp "$d/x.c" "$T_WORK/x.orig"
mkfifo "$d/clinic/x.c.h"
run_timed "$d" x.c
expect_refusal "FIFO as the routed file" "not a regular file"
cmp -s "$d/x.c" "$T_WORK/x.orig" || t_bad "FIFO as the routed file" "x.c changed"

d=$T_WORK/zero
mkdir -p "$d"
ln -s /dev/zero "$d/x.c"
run_timed "$d" x.c
expect_refusal "symlink to /dev/zero" "it is a character device, not a regular file"

d=$T_WORK/dir
mkdir -p "$d/x.c"
run_timed "$d" x.c
expect_refusal "directory as the input" "x.c: error: Is a directory"

# ---- a device node as -o (root) --------------------------------------------------
d=$T_WORK/dev
mkdir -p "$d"
block > "$d/x.c"
if [ "$(id -u)" != 0 ]; then
    t_cannot "device node as -o" "mknod needs root (run make check as root, as CI does)"
elif ! mknod "$d/null" c 1 3 2> "$T_LOG"; then
    t_cannot "device node as -o" "mknod failed here: $(cat "$T_LOG")"
else
    run_timed "$d" -o null x.c
    expect_refusal "device node as -o" "null: error: it is a character device, not a regular file"
    [ -c "$d/null" ] || t_bad "device node as -o" "the node was replaced by a $(stat -c %F "$d/null")"
fi

# ---- long names ------------------------------------------------------------------------
d=$T_WORK/long
mkdir -p "$d"
name_max=$(getconf NAME_MAX "$d" 2>/dev/null || echo 255)
for n in 236 $((name_max - 2)); do
    stem=$(printf '%*s' $((n - 2)) '' | tr ' ' n)
    block > "$d/$stem.c"
    run_timed "$d" "$stem.c"
    # the routed file is clinic/NAME.c.h: 2 more characters than NAME.c,
    # which fit only up to NAME_MAX
    if [ $rc -ne 0 ]; then
        t_bad "a $n-character name" "exit $rc: $(head -c 200 "$T_LOG")"
    elif ! grep -q 'end generated code' "$d/$stem.c" || [ ! -f "$d/clinic/$stem.c.h" ]; then
        t_bad "a $n-character name" "not written"
    elif [ -n "$(find "$d" -name ".*.clinic-*")" ]; then
        t_bad "a $n-character name" "temp files left"
    else
        t_ok "a $n-character name (NAME_MAX $name_max) and its routed file rewritten"
    fi
    rm -rf "${d:?}"/* 
done

t_end
