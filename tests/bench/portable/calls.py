"""Calls per second of the benchmark module's functions (make bench; not
a test), and the time the argument parsing takes: a call's time less that
of the same call to bench.noop, which parses nothing.  Best of REPEAT runs
of NUMBER calls each.

usage: calls.py DIR_OWN DIR_PORTABLE [NUMBER [REPEAT]]
       calls.py --keyword-calls DIR N
Each DIR holds a build of bench.c: with the dialect's own output and with
the portable target's, against the Python running this.  Prints one line
per case: its name, then for the dialect's output, the portable output
and PyArg_ParseTupleAndKeywords, each "calls/s:parse-ns".  With
--keyword-calls, makes N keyword calls to DIR's bench.f and nothing else
(for an instruction count).
"""
import glob
import importlib.util
import sys
import timeit

CASES = [
    # name, function, the call's arguments as source
    ("positional", "f", "1, o, 2.0"),
    ("keyword", "f", "a=1, b=o, c=2.0"),
    ("defaulted", "f", "1, o"),
    ("positional-only", "pos", "1, o, 2.0"),
]


def load(path):
    files = glob.glob(path + "/bench*.so")
    if len(files) != 1:
        sys.exit("calls.py: expected one bench module in %s, found %r" % (path, files))
    spec = importlib.util.spec_from_file_location("bench", files[0])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timers(funcs, args):
    return [timeit.Timer("f(%s)" % args, globals={"f": f, "o": object()})
            for f in funcs]


def keyword_calls(path, n):
    f, o = load(path).f, object()
    for _ in range(n):
        f(a=1, b=o, c=2.0)


def main():
    if sys.argv[1] == "--keyword-calls":
        keyword_calls(sys.argv[2], int(sys.argv[3]))
        return
    d311, dport = sys.argv[1], sys.argv[2]
    number = int(sys.argv[3]) if len(sys.argv) > 3 else 200000
    repeat = int(sys.argv[4]) if len(sys.argv) > 4 else 9
    m311, mport = load(d311), load(dport)
    for label, name, args in CASES:
        funcs = [mport.noop, getattr(m311, name), getattr(mport, name), mport.ptak]
        best = [float("inf")] * len(funcs)
        # the functions in turn, round after round: a machine busy for a
        # while slows them all alike, and the best round of each counts
        for _ in range(repeat):
            for i, timer in enumerate(timers(funcs, args)):
                best[i] = min(best[i], timer.timeit(number) / number)
        base = best[0]
        out = [label] + ["%.0f:%.1f" % (1 / t, max(t - base, 0.0) * 1e9)
                         for t in best[1:]]
        print(" ".join(out))


if __name__ == "__main__":
    main()
