#!/bin/sh
# Fetch the 3.14 dialect's reference (Debian sid's python3.14-examples and
# libpython3.14-testsuite) into the conformance cache; prints REFDIR,
# CLINIC_TEST and TEST_CLINIC as shell assignments (see fetchsid.sh).
# Usage: fetch314.sh CACHE
set -eu
exec sh "$(dirname "$0")/fetchsid.sh" "$1" 3.14
