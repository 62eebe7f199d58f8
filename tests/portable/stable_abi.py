"""Check that extension modules import from libpython only what the stable
ABI of a CPython version has (Misc/stable_abi.toml of the CPython tree,
read with tomllib): a module built with Py_LIMITED_API that loads on later
versions must not depend on anything else.

usage: stable_abi.py STABLE_ABI_TOML X.Y MODULE.so...
Reads each module's undefined dynamic symbols with nm -D; those named
Py* or _Py* must be in the table, added in X.Y or before.
"""
import subprocess
import sys
import tomllib


def version(text):
    return tuple(int(p) for p in text.split("."))


def main():
    table_path, limit, modules = sys.argv[1], version(sys.argv[2]), sys.argv[3:]
    with open(table_path, "rb") as f:
        table = tomllib.load(f)
    stable = {}
    for kind in ("function", "data"):
        for name, entry in table.get(kind, {}).items():
            stable[name] = version(entry["added"])
    bad = 0
    for module in modules:
        out = subprocess.run(["nm", "-D", "--undefined-only", module],
                             check=True, capture_output=True, text=True).stdout
        names = sorted({line.split()[-1].split("@")[0] for line in out.splitlines()
                        if line.strip()})
        python = [n for n in names if n.startswith(("Py", "_Py"))]
        for n in python:
            if n not in stable:
                print("%s: %s is not in the stable ABI" % (module, n))
                bad += 1
            elif stable[n] > limit:
                print("%s: %s is in the stable ABI from %s only"
                      % (module, n, ".".join(map(str, stable[n]))))
                bad += 1
        print("%s: %d symbols of libpython, %s" % (
            module, len(python), "all in the stable ABI of %s" % sys.argv[2]
            if not bad else "not all in the stable ABI"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
