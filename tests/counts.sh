# shellcheck shell=sh
# counts.sh — how make check and make hardening count a part (sourced).
#
#   counts_of LOG RC   sets p and f: the "NAME: N passed, M failed" line
#                      last printed in LOG, or one check (passed when RC
#                      is 0) for a part that prints none; a part that
#                      exits non-zero has failed at least once
counts_of() {
    line=$(grep -E '^[A-Za-z0-9_/ -]+: [0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1/')
        f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\2/')
        [ "$2" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    elif [ "$2" -eq 0 ]; then
        p=1 f=0
    else
        p=0 f=1
    fi
}
