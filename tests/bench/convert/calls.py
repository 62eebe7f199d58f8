"""Calls per second of a module's functions: each call of CALLS (a Python
expression over the module m, one a line, "#" comments) timed with
timeit, the best of five runs.  Prints "EXPR<TAB>CALLS_PER_SECOND".

usage: python3 calls.py MODULE_DIR MODULE_NAME CALLS_FILE
"""
import importlib
import sys
import timeit

sys.path.insert(0, sys.argv[1])
m = importlib.import_module(sys.argv[2])
with open(sys.argv[3], encoding="utf-8") as calls:
    for line in calls:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        timer = timeit.Timer(line, globals={"m": m})
        n, _ = timer.autorange()
        best = min(timer.repeat(5, n)) / n
        print(f"{line}\t{1 / best:.0f}")
