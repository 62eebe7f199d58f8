"""Call every function of a module built from clinic's code with many
arguments, right and wrong, and print what each call gave: its result's
repr, or the exception's type and message.  Two builds of the same module
(clinic's 3.11 output on 3.11, the portable output on any CPython) must
print the same lines: the same accepted arguments, the same errors.

usage: calls.py plan MODULE_DIR MODULE_NAME > PLAN
       calls.py run MODULE_DIR MODULE_NAME PLAN > OUTCOMES

`plan` makes the calls from each function's signature (inspect.signature
of the running CPython, so it is run once, with the oracle): for each
parameter a few values of different types, positionally and by keyword,
too few and too many arguments, unknown keywords.  A PLAN line is
"CALLABLE<TAB>ARGUMENTS", the arguments as Python source; `run` makes
those calls and prints "CALLABLE(ARGUMENTS) = repr" or "... ! Type: msg",
and the warnings a call gave after it ("[DeprecationWarning: ...]").
A callable the module lacks (left out of a build) is skipped.  Results
that name an address (an object's default repr) are printed without it.
"""
import importlib
import inspect
import itertools
import re
import sys
import warnings


class Index:
    """An object with __index__ only (3.10 changed what accepts these)."""
    def __init__(self, n):
        self.n = n

    def __index__(self):
        return self.n

    def __repr__(self):
        return "Index(%d)" % self.n


# Values tried for every parameter, as source: each converter accepts some
# and refuses the others, with its own message.
VALUES = [
    "0", "1", "-1", "300", "2**31", "2**64", "-2**63-1", "1.5", "2j", "True",
    "None", "'a'", "'ab'", "'\\x00'", "'\\u20ac'", "b'a'", "b'a\\x00b'",
    "bytearray(b'a')", "memoryview(b'ab')", "[]", "(1,)", "{}", "object()",
    "Index(7)",
]
NAMESPACE = {"Index": Index}
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
MISSING = re.compile(r"missing required|at least|exactly")


def show(value):
    return ADDRESS.sub("", repr(value))


def evaluate(source):
    return eval(source, dict(NAMESPACE))


def hits_vararg_bug(func, nargs):
    """3.11's _PyArg_UnpackKeywordsWithVararg() puts the parameters after
    *args one place too low when fewer arguments are positional than there
    are parameters before *args: over the *args tuple, which leaks, and
    whose slot then holds a borrowed keyword value (or NULL) that the
    parser releases as if it were the tuple.  CPython 3.11's own
    _testclinic crashes after a few such calls.  The portable code puts
    them where they belong; these calls are left out of the comparison."""
    try:
        params = list(inspect.signature(func).parameters.values())
    except (ValueError, TypeError, RuntimeError):
        # (3.9's inspect cannot read some of 3.13's signatures: those
        # functions have no *args)
        return False
    kinds = [p.kind for p in params]
    if inspect.Parameter.VAR_POSITIONAL not in kinds:
        return False
    return nargs < kinds.index(inspect.Parameter.VAR_POSITIONAL)


# Functions of CPython's _testclinic.c whose results depend on memory no
# one wrote, in either build: name -> a predicate of the call's arguments
UNDEFINED = {
    # c's length is left uninitialized when c keeps its default "c"
    "str_converter": lambda nargs, nkwargs: nargs + nkwargs < 3,
}


def call_source(args, kwargs):
    return ", ".join(list(args) + ["%s=%s" % kv for kv in kwargs])


def outcome(func, source):
    args, kwargs = evaluate("(lambda *a, **k: (a, k))(%s)" % source)
    if hits_vararg_bug(func, len(args)):
        return "- not called: 3.11's *args bug"
    undefined = UNDEFINED.get(getattr(func, "__name__", ""))
    if undefined and undefined(len(args), len(kwargs)):
        return "- not called: the result would be undefined"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = "= " + show(func(*args, **kwargs))
        except Exception as e:   # noqa: BLE001: every exception is a result
            result = "! %s: %s" % (type(e).__name__, ADDRESS.sub("", str(e)))
    for w in caught:
        result += " [%s: %s]" % (w.category.__name__, w.message)
    return result


def default_source(p):
    """The parameter's default as source, if it reads back as itself."""
    if p.default is p.empty:
        return None
    text = repr(p.default)
    try:
        if evaluate(text) == p.default:
            return text
    except Exception:   # noqa: BLE001: not a literal
        pass
    return None


def plan_for(func):
    """Argument lists (as source) for one callable."""
    try:
        params = list(inspect.signature(func).parameters.values())
    except (ValueError, TypeError):
        # no signature to read (option groups, defaults such as NULL):
        # up to four positional arguments
        params = [inspect.Parameter("_%d" % i, inspect.Parameter.POSITIONAL_ONLY)
                  for i in range(4)]
    named = [p for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    n = len(named)
    yield ""
    # an accepted value for each parameter: its default, or the first of
    # VALUES that fails for no reason but the arguments still missing
    good = []
    for p in named:
        value = default_source(p)
        if value is None:
            value = "1"
            for v in VALUES:
                result = outcome(func, call_source(good + [v], []))
                if result.startswith("=") or MISSING.search(result):
                    value = v
                    break
        good.append(value)
    # every value in every place, by position and by name
    for i, p in enumerate(named):
        for v in VALUES:
            yield call_source(good[:i] + [v], [])
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                pos = [good[j] for j, q in enumerate(named[:i])
                       if q.kind == q.POSITIONAL_ONLY]
                kw = [(q.name, good[j]) for j, q in enumerate(named[:i])
                      if q.kind != q.POSITIONAL_ONLY]
                yield call_source(pos, kw + [(p.name, v)])
    # 0 .. n+2 positional arguments of accepted kinds
    for k in range(n + 3):
        yield call_source(good[:k] + ["1"] * max(0, k - n), [])
    # keywords: unknown, given by position too, positional-only by name
    yield call_source([], [("bogus", "1")])
    for p in named:
        yield call_source([], [(p.name, "1")])
        yield call_source(["1"], [(p.name, "1")])
    for a, b in itertools.combinations([p.name for p in named], 2):
        yield call_source([], [(a, "1"), (b, "1")])


def callables(module):
    """(label, callable) for the module's functions, classes and the
    methods of instances made with no arguments."""
    for attr in sorted(dir(module)):
        obj = getattr(module, attr)
        if attr.startswith("_") or not callable(obj):
            continue
        yield attr, obj
        if isinstance(obj, type):
            try:
                instance = obj()
            except Exception:   # noqa: BLE001: no such instance
                continue
            for m in sorted(vars(obj)):
                if not m.startswith("_") and callable(getattr(instance, m)):
                    yield "%s().%s" % (attr, m), getattr(instance, m)


def main():
    mode, path, name = sys.argv[1:4]
    sys.path.insert(0, path)
    module = importlib.import_module(name)
    found = dict(callables(module))
    if mode == "plan":
        for label, func in found.items():
            for source in plan_for(func):
                print("%s\t%s" % (label, source))
        return
    with open(sys.argv[4], encoding="utf-8") as f:
        for line in f:
            label, source = line.rstrip("\n").split("\t")
            if label in found:
                print("%s(%s) %s" % (label, source, outcome(found[label], source)))


if __name__ == "__main__":
    main()
