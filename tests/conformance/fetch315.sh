#!/bin/sh
# Fetch the 3.15 dialect's reference (Debian sid's python3.15-examples and
# libpython3.15-testsuite) into the conformance cache; prints REFDIR,
# CLINIC_TEST and TEST_CLINIC as shell assignments (see fetchsid.sh).
# Usage: fetch315.sh CACHE
set -eu
exec sh "$(dirname "$0")/fetchsid.sh" "$1" 3.15
