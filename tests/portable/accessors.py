"""Get, set and delete a module's getset attributes (what calls.py, which
calls callables, cannot reach) and print each outcome, for two builds of
one module to compare.

usage: accessors.py MODULE_DIR MODULE_NAME CLASS ATTRIBUTE
"""
import importlib
import sys

VALUES = ["'a'", "'\\u20ac'", "1", "None", "b'a'"]


def attempt(what, action):
    try:
        print("%s = %r" % (what, action()))
    except Exception as e:   # noqa: BLE001: every exception is a result
        print("%s ! %s: %s" % (what, type(e).__name__, e))


def main(moddir, modname, classname, attr):
    sys.path.insert(0, moddir)
    cls = getattr(importlib.import_module(modname), classname)
    obj = cls()
    attempt("get", lambda: getattr(obj, attr))
    for source in VALUES:
        attempt("set %s" % source,
                lambda: setattr(obj, attr, eval(source)))
        attempt("get", lambda: getattr(obj, attr))
    attempt("delete", lambda: delattr(obj, attr))
    attempt("get", lambda: getattr(obj, attr))
    attempt("delete again", lambda: delattr(obj, attr))
    attempt("set 'b'", lambda: setattr(obj, attr, "b"))
    attempt("get", lambda: getattr(obj, attr))


if __name__ == "__main__":
    main(*sys.argv[1:])
