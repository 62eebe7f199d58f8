#!/bin/sh
# make deps: install what building and testing clinic needs, with apt-get
# (Debian bookworm).  Quiet when everything is already there; runs
# `apt-get update` only when something is missing; uses sudo when not root.
#
#   build-essential gcc make   the default build
#   clang libclang-rt-14-dev   the second -Werror build; the sanitizer and
#                              libFuzzer runtimes (make sanitize, make fuzz)
#   pkg-config                 finds the libraries' flags
#   libpcre2-dev               regular expressions (pcre2-8)
#   libssl-dev                 SHA-1 for the output checksums: OpenSSL's
#                              libcrypto.a (the CPU's SHA instructions,
#                              else AVX2, where present), linked statically
#   check                      unit tests (Check framework)
#   valgrind                   memory checks
#   groff                      checks the man page
#   python3 dpkg-dev xz-utils  the reference clinic.py (conformance, bench)
#   python3.11-dev             headers the demo and make functional build
#                              extension modules against
#                              and `apt-get source` for the CPython tree
#   time                       /usr/bin/time: the benchmark's and the memory
#                              test's peak memory
#   pre-commit git patch       the workflow tests: both hooks run by a real
#                              pre-commit in a scratch git repository, and
#                              --diff applied with git apply and patch -p1
#   debhelper fakeroot         make deb: dpkg-buildpackage with dh (dpkg-dev
#                              is above); fakeroot for its binary target
#   lintian                    tests/package.sh: the package has no lintian
#                              error or warning
#   e2fsprogs util-linux       chattr, setpriv and mount for the hardening
#                              cases that need them
#   python3-jsonschema jq      make query: the --json output validated
#                              against schema/ and read by jq
#   debootstrap                make portable: the Debian sid root whose
#                              CPython 3.14 and 3.15 the portable target is
#                              tested on (tests/portable/pythons.sh)
set -eu

PKGS="build-essential gcc make pkg-config libpcre2-dev libssl-dev check clang
libclang-rt-14-dev valgrind groff python3 python3.11-dev dpkg-dev xz-utils time
pre-commit git patch e2fsprogs util-linux python3-jsonschema jq debhelper
fakeroot lintian debootstrap"

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
