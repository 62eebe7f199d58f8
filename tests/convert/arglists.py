"""Generated argument lists for a third-party extension's converted
functions (tests/convert/thirdparty.sh): for each "call EXPR" line of a
spec, PER calls of EXPR with 0-3 positional arguments drawn from a pool
of values of every kind the format units take or refuse (half of them
the spec's own "value" lines), and now and then
a keyword argument (a likely parameter name, or a wrong one).  Seeded: the same lines on every
CPython, one per line, in calls.py's form (m is the module).

usage: python3 arglists.py SPEC PER > CALLS
"""
import random
import sys

POOL = [
    "0", "1", "-1", "7", "255", "256", "-129", "2**31", "-2**31 - 1",
    "2**32", "2**63", "2**64", "-2**64", "True", "False", "None", "1.5",
    "-0.0", "float('nan')", "1j", "''", "'a'", "'abc'", "'x' * 100",
    "b''", "b'a'", "b'abc'", "b'\\x00nul'", "bytearray(b'xyz')",
    "memoryview(b'mv')", "[]", "[1, 2]", "()", "(1, 'a')", "{}",
    "{'k': 1}", "object()", "int", "...",
]
NAMES = ["obj", "data", "key", "seed", "value", "datetime_string",
         "string", "bogus"]


def main():
    spec, per = sys.argv[1], int(sys.argv[2])
    calls, own = [], []
    with open(spec, encoding="utf-8") as f:
        for line in f:
            word, _, rest = line.strip().partition(" ")
            if word == "call":
                calls.append(rest.strip())
            elif word == "value":
                own.append(rest.strip())
    rng = random.Random(26)
    pool = POOL + own

    def value():
        # the spec's own values half the time: calls that get through
        return rng.choice(own if own and rng.random() < 0.5 else pool)

    for expr in calls:
        seen = set()
        for _ in range(per * 4):
            if len(seen) == per:
                break
            n = rng.choice([0, 0, 1, 1, 1, 1, 2, 2, 3])
            args = [value() for _ in range(n)]
            if rng.random() < 0.3:
                args.append(rng.choice(NAMES) + "=" + value())
            line = f"{expr}({', '.join(args)})"
            if line not in seen:
                seen.add(line)
                print(line)


main()
