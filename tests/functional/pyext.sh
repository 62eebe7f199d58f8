# pyext.sh — sourced by tests/functional/run.sh and fixtures/demo/show.sh:
# pick the Python 3.11 to build against and run with, and build one C file
# into an extension module for it.  The interpreter that runs the module is
# always the one whose headers (sysconfig) built it.
#
#   PYEXT_PYTHON   the interpreter (default: Debian's /usr/bin/python3.11,
#                  else python3.11 on PATH).  It must be CPython 3.11: the
#                  generated code and test_clinic.py are 3.11's.
#   CC             the C compiler (default cc)
# shellcheck shell=sh disable=SC2034  # PY_* are read by the sourcing script

# pyext_find_python: set PY, PY_INCLUDES (-I flags for the public headers),
# PY_INTERNAL_INCLUDES (-I for the internal pycore_*.h headers, which
# CPython's own modules may use; empty when not installed) and PY_EXT_SUFFIX.
pyext_find_python() {
    PY=${PYEXT_PYTHON:-}
    if [ -z "$PY" ]; then
        if [ -x /usr/bin/python3.11 ]; then
            PY=/usr/bin/python3.11
        else
            PY=$(command -v python3.11 || true)
        fi
    fi
    if [ -z "$PY" ] || ! "$PY" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
        echo "pyext: no CPython 3.11 interpreter (${PY:-python3.11 not found}); install python3.11-dev" >&2
        return 1
    fi
    # include and platinclude hold Python.h and pyconfig.h (what
    # python3.11-config --includes prints); Debian puts the internal
    # headers under include/internal.
    PY_INCLUDES=$("$PY" -c '
import sysconfig
dirs = []
for key in ("include", "platinclude"):
    d = sysconfig.get_paths()[key]
    if d not in dirs:
        dirs.append(d)
print(" ".join("-I" + d for d in dirs))')
    PY_INCLUDE_DIR=$("$PY" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    PY_INTERNAL_INCLUDES=
    if [ -d "$PY_INCLUDE_DIR/internal" ]; then
        PY_INTERNAL_INCLUDES=-I$PY_INCLUDE_DIR/internal
    fi
    PY_EXT_SUFFIX=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
    if [ ! -f "$PY_INCLUDE_DIR/Python.h" ]; then
        echo "pyext: $PY has no headers ($PY_INCLUDE_DIR/Python.h missing); install python3.11-dev" >&2
        return 1
    fi
}

# pyext_build SRC.c OUTDIR MODNAME [EXTRA_CFLAGS...]: compile SRC.c into
# OUTDIR/MODNAME$PY_EXT_SUFFIX, warnings as errors with the warnings CPython
# builds its own modules with.  libpython's symbols resolve at import time.
pyext_build() {
    src=$1 outdir=$2 modname=$3
    shift 3
    mkdir -p "$outdir"
    # shellcheck disable=SC2086
    set -- ${CC:-cc} -shared -fPIC -O2 -g -std=c11 -Wall -Wextra \
        -Wno-unused-parameter -Wno-missing-field-initializers \
        -Wstrict-prototypes -Werror $PY_INCLUDES "$@" \
        -o "$outdir/$modname$PY_EXT_SUFFIX" "$src"
    echo "$ $*"
    "$@"
}
