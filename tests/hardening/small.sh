#!/bin/sh
# small.sh CLINIC: the smaller promises of the writer and of --make.
#
#   stdout errors      --converters, --help, --version, --check, --dry-run and
#                      --diff with standard output on /dev/full: exit 2
#                      and a message, never 0
#   unreadable dir     --make over a tree with a directory it may not
#                      list (as nobody): an error naming it, exit 2, the
#                      other files still written
#   too deep           --make over a tree deeper than PATH_MAX: an error
#                      naming the directory, exit 2
#   excludes           an absolute --exclude with a relative --srcdir
#                      excludes the file; a directory excludes its tree;
#                      an --exclude that matches nothing is warned about
#   setuid             a rewrite drops setuid and setgid (as cp does),
#                      keeps the other permission bits
#   owner and group    a rewrite keeps them (root)
#   hard links         a hard link to a rewritten file keeps the old text
#                      (the rename gives the name a new file: documented)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/common.sh"
t_begin small "${1:-}"

block() {
    printf '/*[clinic input]\noutput preset block\nmodule m\nm.f\n    a: int\n\nSummary.\n[clinic start generated code]*/\n'
}

# ---- standard output errors ----------------------------------------------------
d=$T_WORK/stdout
mkdir -p "$d"
block > "$d/x.c"
if [ ! -c /dev/full ]; then
    t_cannot "stdout errors" "/dev/full does not exist here"
else
    for args in "--converters" "--help" "--version" "--check x.c" "--diff x.c" \
                "--dry-run x.c"; do
        rc=0
        # shellcheck disable=SC2086
        (cd "$d" && exec "$CLINIC" $args) > /dev/full 2> "$T_LOG" || rc=$?
        if [ $rc -eq 2 ] && grep -q "can't write to standard output" "$T_LOG"; then
            t_ok "clinic $args > /dev/full: exit 2 ($(head -n 1 "$T_LOG"))"
        else
            t_bad "clinic $args > /dev/full" "exit $rc: $(head -c 200 "$T_LOG")"
        fi
    done
fi

# ---- --make: a directory it may not list ------------------------------------------
d=$T_WORK/unreadable
mkdir -p "$d/tree/a" "$d/tree/locked" "$d/tree/z"
block > "$d/tree/a/x.c"
block > "$d/tree/locked/y.c"
block > "$d/tree/z/w.c"
chmod 000 "$d/tree/locked"
as_user=
if $is_root; then
    if command -v setpriv > /dev/null 2>&1; then
        as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
        chmod 755 "$T_WORK" "$d"
        chmod -R a+rwX "$d/tree/a" "$d/tree/z" && chmod a+rwx "$d/tree"
    fi
fi
if $is_root && [ -z "$as_user" ]; then
    t_cannot "unreadable directory" "root reads every directory and setpriv is missing"
else
    cp "$CLINIC" "$T_WORK/clinic-bin" && chmod 755 "$T_WORK/clinic-bin"
    rc=0
    (cd "$d" && $as_user "$T_WORK/clinic-bin" --make --srcdir tree) > "$T_LOG" 2>&1 || rc=$?
    if [ $rc -ne 2 ]; then
        t_bad "unreadable directory" "exit $rc: $(head -c 300 "$T_LOG")"
    elif ! grep -q "tree/locked: error: can't list directory: Permission denied" "$T_LOG"; then
        t_bad "unreadable directory" "no error naming it: $(head -c 300 "$T_LOG")"
    elif ! grep -q 'end generated code' "$d/tree/a/x.c" || ! grep -q 'end generated code' "$d/tree/z/w.c"; then
        t_bad "unreadable directory" "the other files were not written"
    else
        t_ok "unreadable directory ($(grep -m1 'locked' "$T_LOG")); the others written"
    fi
fi
chmod 755 "$d/tree/locked"

# ---- --make: a tree deeper than PATH_MAX -------------------------------------------
d=$T_WORK/deep
mkdir -p "$d/tree"
block > "$d/tree/top.c"
path_max=$(getconf PATH_MAX "$d" 2>/dev/null || echo 4096)
# made through directory descriptors: no path this long can be named whole
${PYTHON:-python3} - "$d/tree" $((path_max / 50 + 5)) <<'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
for i in range(int(sys.argv[2])):
    name = 'a-directory-name-of-fifty-characters-long-xxxxxxx'
    os.mkdir(name, dir_fd=fd)
    fd2 = os.open(name, os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = fd2
out = os.open('deepest.c', os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
os.write(out, b'/*[clinic input]\nmodule m\n[clinic start generated code]*/\n')
EOF
rc=0
(cd "$d" && exec timeout 60 "$CLINIC" --make --srcdir tree) > "$T_LOG" 2>&1 || rc=$?
if [ $rc -ne 2 ]; then
    t_bad "too deep" "exit $rc: $(head -c 300 "$T_LOG")"
elif ! grep -q "error: can.t look at it: File name too long" "$T_LOG"; then
    t_bad "too deep" "no error for the directory: $(head -c 300 "$T_LOG")"
elif ! grep -q 'end generated code' "$d/tree/top.c"; then
    t_bad "too deep" "top.c not written"
else
    t_ok "a tree deeper than PATH_MAX ($path_max): an error for it, exit 2, the rest written"
fi
rm -rf "$d"

# ---- --make: excludes -------------------------------------------------------------------
d=$T_WORK/exclude
mkdir -p "$d/tree/sub" "$d/tree/skipdir"
block > "$d/tree/keep.c"
block > "$d/tree/sub/excluded.c"
block > "$d/tree/skipdir/also.c"
cp "$d/tree/sub/excluded.c" "$T_WORK/excluded.orig"
t_run "$d" --make --srcdir tree --exclude "$d/tree/sub/excluded.c" \
    --exclude skipdir --exclude no/such/file.c
if [ $rc -ne 0 ]; then
    t_bad "excludes" "exit $rc: $(head -c 300 "$T_LOG")"
elif ! cmp -s "$d/tree/sub/excluded.c" "$T_WORK/excluded.orig"; then
    t_bad "excludes" "an absolute --exclude with a relative --srcdir was ignored"
elif ! cmp -s "$d/tree/skipdir/also.c" "$T_WORK/excluded.orig"; then
    t_bad "excludes" "an excluded directory was walked"
elif ! grep -q 'end generated code' "$d/tree/keep.c"; then
    t_bad "excludes" "keep.c not written"
elif ! grep -q "warning: --exclude no/such/file.c matches nothing" "$T_LOG"; then
    t_bad "excludes" "no warning for an exclude matching nothing: $(head -c 300 "$T_LOG")"
else
    t_ok "absolute --exclude, a directory excluded, a warning for one that matches nothing"
fi

# ---- setuid, owner, group, hard links ------------------------------------------------------
d=$T_WORK/bits
mkdir -p "$d"
block > "$d/x.c"
chmod 6755 "$d/x.c"
t_run "$d" x.c
mode=$(stat -c %a "$d/x.c")
if [ $rc -eq 0 ] && [ "$mode" = 755 ]; then
    t_ok "setuid and setgid dropped on rewrite (6755 -> $mode)"
else
    t_bad "setuid" "exit $rc, mode $mode (want 755)"
fi

block > "$d/y.c"
if ! $is_root; then
    t_cannot "owner and group kept" "giving a file to another owner needs root"
else
    chown 1234:5678 "$d/y.c"
    t_run "$d" y.c
    owner=$(stat -c %u:%g "$d/y.c")
    if [ $rc -eq 0 ] && [ "$owner" = 1234:5678 ] && grep -q 'end generated' "$d/y.c"; then
        t_ok "owner and group kept on rewrite ($owner)"
    else
        t_bad "owner and group" "exit $rc, owner $owner (want 1234:5678)"
    fi
fi

block > "$d/z.c"
ln "$d/z.c" "$d/hard.c"
t_run "$d" z.c
if [ $rc -eq 0 ] && grep -q 'end generated' "$d/z.c" && ! grep -q 'end generated' "$d/hard.c"; then
    t_ok "a hard link keeps the old text (documented: the rename gives z.c a new file)"
else
    t_bad "hard links" "exit $rc, or the link changed too"
fi

t_end
