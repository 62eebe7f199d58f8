#!/bin/sh
# Install what make functional and make demo need beyond tests/deps.sh, with
# apt-get (Debian bookworm), the same way tests/deps.sh does: quiet when all
# is there, `apt-get update` only when something is missing, sudo when not
# root.
#
#   python3.11-dev   Python 3.11 headers (internal ones too), python3.11 and
#                    python3.11-config; the extension modules are built
#                    against it and run by it
#   gcc              the system C compiler
#   dpkg-dev         `apt-get source` for the CPython tree (conformance cache)
set -eu

PKGS="python3.11-dev gcc dpkg-dev"

missing=
for p in $PKGS; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case $status in
        *"ok installed") ;;
        *) missing="$missing $p" ;;
    esac
done
[ -z "$missing" ] && exit 0

echo "deps: installing:$missing"
SUDO=
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
        echo "deps: not root and no sudo; install as root:$missing" >&2; exit 1; }
    SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
