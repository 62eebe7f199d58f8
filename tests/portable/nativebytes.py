"""PyLong_AsNativeBytes() as clinic_portable.h supplies it before 3.13,
against CPython's own (tests/portable/nativebytes.c, the module _nativebytes).

  nativebytes.py run MODULE_DIR fallback|cpython
      one line per case (value, n, flags): "copied" (the size returned is
      at most n) or "truncated" (more than n) and the n bytes written, or
      the exception; for two implementations to be compared by diff.
      With "fallback", also what only it promises: the size returned is
      the least that holds the value (the same call with that n copies
      it, with one byte fewer truncates), and never 0.

The flags: -1 (the defaults), the byte orders BIG_ENDIAN 0, LITTLE_ENDIAN
1, NATIVE_ENDIAN 3, and UNSIGNED_BUFFER 4, REJECT_NEGATIVE 8, ALLOW_INDEX
16 in combinations.
"""
import importlib
import sys

FLAGS = [-1, 0, 1, 3, 3 | 4, 0 | 4, 1 | 4, 3 | 8, 1 | 8, 3 | 16, 3 | 4 | 16,
         3 | 4 | 8 | 16, 1 | 4 | 8 | 16, 0 | 16]
SIZES = [0, 1, 2, 3, 4, 8, 9, 16]


class Index:
    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value

    def __repr__(self):
        return "Index(%r)" % (self.value,)


class Failing:
    def __index__(self):
        raise ZeroDivisionError("from __index__")

    def __repr__(self):
        return "Failing()"


def values():
    out = [0, 1, -1, 127, 128, 255, 256, -128, -129, 32767, 32768, 65535,
           65536, -32768, -32769, 2**31 - 1, 2**31, 2**32 - 1, 2**32,
           -2**31, -2**31 - 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -2**63,
           -2**63 - 1, -2**64, 2**72 - 1, 2**71, -2**71, -2**71 - 1,
           2**100 + 12345, -(2**100) - 7, 2**127, -2**127, 2**128 - 1,
           True, False]
    out += [Index(300), Index(-1), Index(2**70), Failing(), 1.5, "7", None]
    return out


def outcome(fn, value, n, flags):
    try:
        size, data = fn(value, n, flags)
    except Exception as e:   # noqa: BLE001: every exception is a result
        return None, "%s: %s" % (type(e).__name__, e)
    return size, "%s %s" % ("copied" if size <= n else "truncated",
                            data.hex() or "-")


def main():
    if len(sys.argv) != 4 or sys.argv[1] != "run" or \
            sys.argv[3] not in ("fallback", "cpython"):
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[2])
    module = importlib.import_module("_nativebytes")
    fn = getattr(module, sys.argv[3])
    problems = 0
    cases = 0
    for value in values():
        for flags in sorted(set(FLAGS)):
            for n in SIZES:
                size, text = outcome(fn, value, n, flags)
                cases += 1
                print("%r n=%d flags=%d: %s" % (value, n, flags, text))
                if size is None or sys.argv[3] != "fallback":
                    continue
                # the least size: with it copied, with one byte fewer truncated
                whole, _ = outcome(fn, value, size, flags)
                less, _ = outcome(fn, value, size - 1, flags)
                if size == 0 or whole is None or whole > size or \
                        (size > 1 and (less is None or less <= size - 1)):
                    problems += 1
                    print("  FAIL: %d is not the least size for %r, flags %d"
                          % (size, value, flags), file=sys.stderr)
    print("nativebytes: %d cases" % cases, file=sys.stderr)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
