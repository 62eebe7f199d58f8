#!/bin/sh
# Runs a command inside a root made by pythons.sh (the Debian sid root
# whose CPython 3.14 and 3.15 the portable tier tests on), with the
# directories it names visible there at the same paths.
#
# usage: chroot.sh ROOT [--bind DIR]... COMMAND [ARG]...
#
# Each run has its own mount namespace (unshare --mount): /proc, /dev and
# every DIR are mounted into ROOT for this command only and vanish with it,
# so nothing stays mounted and concurrent runs never see each other's
# mounts.  Inside a chroot, whose / is no mount point, the namespace
# cannot be made private; its mounts keep their propagation there, and are
# unmounted when the command ends.  The run holds ROOT.lock shared; pythons.sh holds it exclusive
# while it makes or changes the root (CLINIC_ROOT_LOCKED=1: the caller
# holds it already).  The working directory is kept when it lies inside a
# bound DIR, else it is /.  Needs root (sudo -n otherwise).
set -eu
[ $# -ge 2 ] || { echo "usage: chroot.sh ROOT [--bind DIR]... COMMAND [ARG]..." >&2; exit 2; }
root=$1; shift
binds=
while [ "${1:-}" = --bind ]; do
    [ $# -ge 3 ] || { echo "chroot.sh: --bind needs a directory and a command" >&2; exit 2; }
    binds="$binds
$(cd "$2" && pwd)"
    shift 2
done
[ -d "$root/usr" ] || { echo "chroot.sh: $root is no root directory" >&2; exit 2; }
SUDO=
[ "$(id -u)" = 0 ] || SUDO="sudo -n"
# shellcheck disable=SC2016
propagation=private
$SUDO unshare --mount --propagation private true 2>/dev/null || propagation=unchanged
exec $SUDO unshare --mount --propagation $propagation sh -c '
    set -eu
    root=$1 binds=$2 cwd=$3 locked=$4; shift 4
    if [ "$locked" != 1 ]; then
        exec 9>"$root.lock"
        flock -s 9
    fi
    mounted=
    unmount() {
        for m in $mounted; do umount -l "$m" 2>/dev/null || true; done
    }
    trap unmount EXIT
    trap "exit 129" HUP INT TERM
    mount -t proc proc "$root/proc" && mounted="$root/proc"
    mount --rbind /dev "$root/dev" && mounted="$root/dev $mounted"
    dir_in=/
    old_ifs=$IFS; IFS="
"
    for d in $binds; do
        [ -n "$d" ] || continue
        mkdir -p "$root$d"
        mount --rbind "$d" "$root$d" && mounted="$root$d $mounted"
        case $cwd/ in "$d"/*) dir_in=$cwd ;; esac
    done
    IFS=$old_ifs
    chroot "$root" sh -c "cd \"\$1\" && shift && exec \"\$@\"" sh "$dir_in" "$@"
' sh "$root" "$binds" "$(pwd)" "${CLINIC_ROOT_LOCKED:-0}" "$@"
