"""Call every function of a module built from clinic's code with many
arguments, right and wrong, and print what each call gave: its result's
repr, or the exception's type and message.  Two builds of the same module
(3.11's output on 3.11, the portable output on any CPython) must print
the same lines: the same accepted arguments, the same errors.

usage: calls.py MODULE_DIR MODULE_NAME
The calls are made from each function's __text_signature__ (through
inspect.signature): for each parameter a few values of different types,
positionally and by keyword, too few and too many, unknown keywords.
Results that name an address (an object's default repr) are printed
without it.
"""
import importlib
import inspect
import itertools
import re
import sys

# Values tried for every parameter: each converter accepts some and
# refuses the others, with its own message.
VALUES = [
    ("0", 0), ("1", 1), ("-1", -1), ("300", 300), ("2**31", 2**31),
    ("2**64", 2**64), ("-2**63-1", -2**63 - 1), ("1.5", 1.5), ("2j", 2j),
    ("True", True), ("None", None), ("'a'", "a"), ("'ab'", "ab"),
    ("'\\x00'", "\x00"), ("'\\u20ac'", "\u20ac"), ("b'a'", b"a"),
    ("b'a\\x00b'", b"a\x00b"), ("bytearray(b'a')", bytearray(b"a")),
    ("memoryview(b'ab')", memoryview(b"ab")), ("[]", []), ("(1,)", (1,)),
    ("{}", {}), ("object()", object()), ("Index(7)", None),
]


class Index:
    """An object with __index__ only (3.10 changed what accepts these)."""
    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n

    def __repr__(self):
        return "Index(%d)" % self.n


VALUES[-1] = ("Index(7)", Index(7))
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
MISSING = re.compile(r"missing required|at least|expected at least|exactly")


def show(value):
    return ADDRESS.sub("", repr(value))


def hits_vararg_bug(func, args):
    """3.11's _PyArg_UnpackKeywordsWithVararg() puts the parameters after
    *args one place too low when fewer arguments are positional than there
    are parameters before *args: over the *args tuple, which leaks, and
    whose slot then holds a borrowed keyword value (or NULL) that the
    parser releases as if it were the tuple.  CPython 3.11's own
    _testclinic crashes after a few such calls.  The portable code puts
    them where they belong; these calls are left out of the comparison."""
    try:
        params = list(inspect.signature(func).parameters.values())
    except (ValueError, TypeError):
        return False
    kinds = [p.kind for p in params]
    if inspect.Parameter.VAR_POSITIONAL not in kinds:
        return False
    return len(args) < kinds.index(inspect.Parameter.VAR_POSITIONAL)


# Functions of CPython's _testclinic.c whose results depend on memory no
# one wrote, in either build: (name, a predicate of the call's arguments)
UNDEFINED = {
    # c's length is left uninitialized when c keeps its default "c"
    "str_converter": lambda args, kwargs: len(args) + len(kwargs) < 3,
}


def outcome(func, args, kwargs):
    if hits_vararg_bug(func, args):
        return "- not called: 3.11's *args bug"
    undefined = UNDEFINED.get(getattr(func, "__name__", ""))
    if undefined and undefined(args, kwargs):
        return "- not called: the result would be undefined"
    try:
        return "= " + show(func(*args, **kwargs))
    except Exception as e:   # noqa: BLE001: every exception is a result
        return "! %s: %s" % (type(e).__name__, ADDRESS.sub("", str(e)))


def calls_for(func):
    """(description, args, kwargs) for one function."""
    try:
        sig = inspect.signature(func)
    except (ValueError, TypeError):
        sig = None
    params = list(sig.parameters.values()) if sig else []
    params = [p for p in params if p.kind != p.VAR_KEYWORD]
    named = [p for p in params if p.kind != p.VAR_POSITIONAL]
    n = len(named)
    yield "()", (), {}
    # an accepted value for each parameter, found by trying: its default,
    # or the first value of VALUES that fails for no reason but the
    # arguments still missing
    good = []
    for i, p in enumerate(named):
        if p.default is not p.empty:
            good.append(p.default)
            continue
        for _, v in VALUES:
            result = outcome(func, tuple(good) + (v,), {})
            if result.startswith("=") or MISSING.search(result):
                good.append(v)
                break
        else:
            good.append(1)
    for i in range(n):
        for text, v in VALUES:
            args = list(good[:i]) + [v]
            desc = "(%s)" % ", ".join([show(a) for a in good[:i]] + [text])
            yield desc, tuple(args), {}
            p = named[i]
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                kw = {q.name: good[j] for j, q in enumerate(named[:i])
                      if q.kind != q.POSITIONAL_ONLY}
                pos = tuple(good[j] for j, q in enumerate(named[:i])
                            if q.kind == q.POSITIONAL_ONLY)
                kw[p.name] = v
                yield "(%s%s=%s)" % ("%d positional, " % len(pos) if pos else "",
                                     p.name, text), pos, kw
    # counts: 0 .. n+2 positional arguments of an accepted kind
    for k in range(n + 3):
        args = tuple(good[:k]) + (1,) * max(0, k - n)
        yield "(%d args)" % k, args, {}
    # keywords: unknown, repeated by position, positional-only by name
    yield "(bogus=1)", (), {"bogus": 1}
    for p in named:
        yield "(%s=1)" % p.name, (), {p.name: 1}
        yield "(1, %s=1)" % p.name, (1,), {p.name: 1}
    for combo in itertools.combinations([p.name for p in named], 2):
        yield "(%s)" % ", ".join("%s=1" % c for c in combo), (), {c: 1 for c in combo}


def main():
    path, name = sys.argv[1], sys.argv[2]
    sys.path.insert(0, path)
    module = importlib.import_module(name)
    targets = []
    for attr in sorted(dir(module)):
        obj = getattr(module, attr)
        if callable(obj) and not attr.startswith("_"):
            targets.append((attr, obj))
            if isinstance(obj, type):
                for m in sorted(vars(obj)):
                    f = getattr(obj, m)
                    if callable(f) and not m.startswith("_") and m not in vars(object):
                        targets.append(("%s().%s" % (attr, m), None))
    for label, func in targets:
        if func is None:
            continue
        for desc, args, kwargs in calls_for(func):
            print("%s%s %s" % (label, desc, outcome(func, args, kwargs)))


if __name__ == "__main__":
    main()
