#!/bin/sh
# commit.sh CLINIC: a file's commit (the input, or -o, and its routed
# files) is all or nothing in every case that can be known beforehand:
# each of these fails with exit 2 and an error naming the file, leaving
# every file and directory as it was (no routed file written, no
# clinic/ directory made, no temp file).
#
#   -o ''                 writes in place, as clinic.py does
#   -o through a file     -o notdir/out.c, where notdir is a regular file
#   -o a directory        -o somedir
#   -o in a missing dir   -o missing/out.c
#   routed dir blocked    clinic/ is a regular file
#   immutable input       chattr +i (root, a file system with attributes)
#   append-only input     chattr +a
#   immutable routed file chattr +i on clinic/x.c.h
#   bind-mounted input    mount --bind (root)
#   sticky directory      another user's file in a 1777 directory (run as
#                         nobody through setpriv)
#   disk full             a 1 MB tmpfs (root): the temp files and the
#                         clinic/ directory the failed commit made are
#                         removed; after space is freed the run succeeds
# and, for the temp files a killed clinic leaves: writing the file
# removes those of a process that is gone, or whose number a process
# started since has taken (Linux: /proc), and leaves a live one's.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/common.sh"
t_begin commit "${1:-}"
mounts=
cleanup() {
    for m in $mounts; do umount "$m" 2>/dev/null; done
    chattr -R -ia "$T_WORK" 2>/dev/null
    rm -rf "$T_WORK"
}
trap cleanup EXIT INT TERM

# a file with hand-written code whose generated code goes to clinic/x.c.h
source_file() {
    cat <<'EOF'
/* hand-written */
/*[clinic input]
module m
m.f
    a: int

Summary.
[clinic start generated code]*/
EOF
}

fresh() {   # fresh NAME: an empty case directory holding x.c
    d=$T_WORK/$1
    mkdir -p "$d"
    source_file > "$d/x.c"
    echo "$d"
}

# ---- -o --------------------------------------------------------------------
d=$(fresh in-place)
source_file > "$T_WORK/ref.c"
mkdir -p "$T_WORK/ref" && cp "$T_WORK/ref.c" "$T_WORK/ref/x.c"
t_run "$T_WORK/ref" x.c
t_run "$d" -o '' x.c
if [ $rc -eq 0 ] && cmp -s "$d/x.c" "$T_WORK/ref/x.c" &&
   cmp -s "$d/clinic/x.c.h" "$T_WORK/ref/clinic/x.c.h"; then
    t_ok "-o '' writes in place, as clinic.py does"
else
    t_bad "-o ''" "exit $rc or not the in-place result: $(head -c 200 "$T_LOG")"
fi

d=$(fresh o-through-file)
echo "a regular file" > "$d/notdir"
t_refused "-o through a regular file" "$d" -o notdir/out.c x.c

d=$(fresh o-directory)
mkdir "$d/somedir"
t_refused "-o naming a directory" "$d" -o somedir x.c

d=$(fresh o-missing-dir)
t_refused "-o in a missing directory" "$d" -o missing/out.c x.c

d=$(fresh routed-blocked)
echo "not a directory" > "$d/clinic"
t_refused "routed file's directory is a regular file" "$d" x.c

# ---- attributes (root, chattr) -----------------------------------------------
# can_chattr FILE: does this file system take chattr +i?
can_chattr() {
    command -v chattr > /dev/null 2>&1 && chattr +i "$1" 2> /dev/null &&
        chattr -i "$1" 2> /dev/null
}
d=$(fresh immutable)
if ! $is_root; then
    t_cannot "immutable input" "chattr +i needs root (run make check as root, as CI does)"
elif ! can_chattr "$d/x.c"; then
    t_cannot "immutable input" "chattr +i is not supported here ($(df -T "$d" | awk 'NR==2 {print $2}') under $d)"
else
    chattr +i "$d/x.c"
    t_refused "immutable input (chattr +i)" "$d" x.c
    chattr -i "$d/x.c"

    d=$(fresh append-only)
    chattr +a "$d/x.c"
    t_refused "append-only input (chattr +a)" "$d" x.c
    chattr -a "$d/x.c"

    d=$(fresh immutable-routed)
    t_run "$d" x.c
    source_file > "$d/x.c"                 # stale again
    echo '/* edited */' >> "$d/x.c"
    sed -i 's/Summary\./Summary, changed./' "$d/x.c"
    chattr +i "$d/clinic/x.c.h"
    t_refused "immutable routed file (chattr +i)" "$d" x.c
    chattr -i "$d/clinic/x.c.h"
fi

# ---- a bind-mounted input (root) ------------------------------------------------
d=$(fresh bind-mounted)
echo "/* another file */" > "$T_WORK/other.c"
if ! $is_root; then
    t_cannot "bind-mounted input" "mount --bind needs root"
elif ! mount --bind "$T_WORK/other.c" "$d/x.c" 2> "$T_LOG"; then
    t_cannot "bind-mounted input" "mount --bind failed here: $(cat "$T_LOG")"
else
    mounts="$d/x.c"
    source_file > "$d/x.c"                 # through the mount: other.c
    t_refused "bind-mounted input (a mount point)" "$d" x.c
    umount "$d/x.c" && mounts=
fi

# ---- a sticky directory, as another user ----------------------------------------
d=$T_WORK/sticky
mkdir -p "$d"
if ! $is_root; then
    t_cannot "sticky directory" "needs root, to make a file another user owns"
elif ! command -v setpriv > /dev/null 2>&1; then
    t_cannot "sticky directory" "setpriv (util-linux) is missing: cannot run as nobody"
else
    chmod 755 "$T_WORK"
    chmod 1777 "$d"
    cat <<'EOF' > "$d/x.c"
/*[clinic input]
output preset block
module m
m.f
    a: int

Summary.
[clinic start generated code]*/
EOF
    chmod 666 "$d/x.c"                     # anyone may write it, not rename over it
    cp "$CLINIC" "$T_WORK/clinic-bin" && chmod 755 "$T_WORK/clinic-bin"
    cp -PR "$d" "$T_WORK/.before"
    rc=0
    (cd "$d" && setpriv --reuid=nobody --regid=nogroup --clear-groups \
        "$T_WORK/clinic-bin" x.c) > "$T_LOG" 2>&1 || rc=$?
    if [ $rc -ne 2 ]; then
        t_bad "sticky directory" "exit $rc: $(head -c 300 "$T_LOG")"
    elif ! diff -r "$T_WORK/.before" "$d" > /dev/null; then
        t_bad "sticky directory" "files changed"
    else
        t_ok "sticky directory, another user's file ($(head -n 1 "$T_LOG"))"
    fi
    rm -rf "$T_WORK/.before"
fi

# ---- disk full: what the commit made is taken back -------------------------------------
d=$T_WORK/full
mkdir -p "$d"
if ! $is_root; then
    t_cannot "disk full" "mounting a small tmpfs needs root"
elif ! mount -t tmpfs -o size=1024k tmpfs "$d" 2> "$T_LOG"; then
    t_cannot "disk full" "mount -t tmpfs failed here: $(cat "$T_LOG")"
else
    mounts="$d"
    source_file > "$d/x.c"
    # a docstring big enough that the routed file cannot fit
    awk 'BEGIN { for (i = 0; i < 3000; i++) printf "Line %d of a long docstring.\n", i }' > "$T_WORK/doc"
    sed -i "/^Summary\./r $T_WORK/doc" "$d/x.c"
    sed -i 's/^Summary\.$/Summary.\n/' "$d/x.c"
    cp "$d/x.c" "$T_WORK/full.orig"
    head -c 880000 /dev/zero > "$d/filler" 2>/dev/null
    t_run "$d" x.c
    left=$(ls -A "$d" | tr '\n' ' ')
    if [ $rc -ne 2 ]; then
        t_bad "disk full" "exit $rc: $(head -c 300 "$T_LOG")"
    elif ! grep -q 'No space left on device' "$T_LOG"; then
        t_bad "disk full" "no ENOSPC error: $(head -c 300 "$T_LOG")"
    elif [ "$left" != "filler x.c " ]; then
        t_bad "disk full" "left behind: $left"
    elif ! cmp -s "$d/x.c" "$T_WORK/full.orig"; then
        t_bad "disk full" "x.c changed"
    else
        first=$(grep -m1 'error' "$T_LOG")
        rm "$d/filler"
        t_run "$d" x.c
        if [ $rc -eq 0 ] && [ -f "$d/clinic/x.c.h" ]; then
            t_ok "disk full ($first): nothing left behind (no clinic/, no temp file); written once space was freed"
        else
            t_bad "disk full" "the run after freeing space: exit $rc"
        fi
    fi
    umount "$d" && mounts=
fi

# temp files of killed runs: the writer sweeps those whose maker is gone.
# A temp name records its maker's number and, by /proc, its start in
# clock ticks since boot (field 22 of /proc/PID/stat)
start_of() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
d=$T_WORK/stale
mkdir -p "$d"
printf '/*[clinic input]\nmodule m\n[clinic start generated code]*/\n' > "$d/x.c"
sleep 60 & reused=$!
touch "$d/.x.c.clinic-$reused-1-aaaaaa"              # its number, another start
me=$(start_of $$)
touch "$d/.x.c.clinic-$$-$me-bbbbbb"                 # this live shell's
touch "$d/.x.c.clinic-$$-dddddd"                     # a live number, no start
sh -c 'exit 0' & gone=$!; wait $gone
touch "$d/.x.c.clinic-$gone-cccccc"                  # its maker is gone
t_run "$d" x.c
kill $reused 2>/dev/null; wait $reused 2>/dev/null
left=$(cd "$d" && LC_ALL=C ls -A | tr '\n' ' ')
if [ $rc -ne 0 ]; then
    t_bad "stale temp files" "exit $rc: $(head -c 300 "$T_LOG")"
elif [ "$left" != ".x.c.clinic-$$-$me-bbbbbb .x.c.clinic-$$-dddddd x.c " ]; then
    t_bad "stale temp files" "left: $left"
else
    t_ok "stale temp files: a gone maker's and a reused number's removed, a live one's kept"
fi

# a run killed after exchanging the new text in and before removing the
# old one (under the temp name) leaves the file up to date: a later run
# that finds it so sweeps the temp file too
rm -f "$d"/.x.c.clinic-*
cp "$d/x.c" "$d/x.c.before"
sh -c 'exit 0' & gone=$!; wait $gone
touch "$d/.x.c.clinic-$gone-1-eeeeee"
t_run "$d" x.c
left=$(cd "$d" && LC_ALL=C ls -A | tr '\n' ' ')
if [ $rc -ne 0 ]; then
    t_bad "stale temp of an up-to-date file" "exit $rc: $(head -c 300 "$T_LOG")"
elif ! cmp -s "$d/x.c" "$d/x.c.before"; then
    t_bad "stale temp of an up-to-date file" "the file was written"
elif [ "$left" != "x.c x.c.before " ]; then
    t_bad "stale temp of an up-to-date file" "left: $left"
else
    t_ok "stale temp of an up-to-date file: removed by a run that writes nothing"
fi

t_end
