"""Calls a module's functions with the argument lists of a .calls file and
prints, for each line, the result's repr or the exception's type: the
same before and after --convert means the same behaviour (the messages
of the exceptions are clinic's after, which is the point).

usage: python3 calls.py MODULE_DIR MODULE_NAME CALLS_FILE
"""
import importlib
import re
import sys

sys.path.insert(0, sys.argv[1])
m = importlib.import_module(sys.argv[2])
with open(sys.argv[3], encoding="utf-8") as calls:
    for line in calls:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            # an object's address differs from run to run
            outcome = re.sub(r" at 0x[0-9a-fA-F]+", " at 0x?",
                             repr(eval(line, {"m": m})))
        except Exception as e:   # the type is what must not change
            outcome = "raises " + type(e).__name__
        print(f"{line} -> {outcome}")
