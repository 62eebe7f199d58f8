"""Prepare make portable's sources from CPython 3.11's _testclinic.c:
strip its generated code (the conformance harness's stripper) and write

  OUT/oracle/_testclinic.c     stripped, nothing else: clinic's 3.11 output
                               of it, on CPython 3.11, is the oracle
  OUT/full/_testclinic.c       stripped, with the shims below
  OUT/abi3/with-all.c          the same defining Py_LIMITED_API first
  OUT/abi3/_testclinic.c       that, without the functions the Limited API
                               cannot express (LEFT_OUT) and the hand-written
                               helpers only they use (HELPERS)

The shims touch the hand-written code only (run.sh lists them):
  Py_BUILD_CORE_MODULE is not defined: this is a third-party module
  _PyObject_IsFreed(arg) becomes 0: a private debugging check
  Py_NewRef( becomes Clinic_NewRef(: 3.9 has no Py_NewRef
  after the generated code's #include, pragmas turn off -Wunused-parameter
    and -Wmissing-field-initializers for the hand-written code
  abi3: PyTuple_SET_ITEM( becomes ClinicTuple_SET_ITEM(

From 3.13's tree (a newer dialect's _testclinic.c), the shims also
  drop its #include of pycore_object.h (for _PyObject_IsFreed), and mark
  the unused parameters of custom_converter, written before the pragmas;
  with _TESTCLINIC_LIMITED_C, OUT/limited/_testclinic_limited.c is that
  file, stripped, with Py_LIMITED_API LIMITED instead of 0x030d0000 and
  the pragmas after its generated code.

usage: sources.py CONFORMANCE_DIR _TESTCLINIC_C OUT LIMITED LEFT_OUT HELPERS
                  [_TESTCLINIC_LIMITED_C]
(LEFT_OUT and HELPERS: comma-separated names)
"""
import os
import re
import sys


def fail(msg):
    sys.exit("sources.py: " + msg)


def replace_once(text, old, new, what):
    if text.count(old) != 1:
        fail("%s: %r found %d times, not once" % (what, old, text.count(old)))
    return text.replace(old, new)


def replace_all(text, old, new, what):
    if old not in text:
        fail("%s: %r not found" % (what, old))
    return text.replace(old, new)


def remove_function(text, name):
    """A function's clinic block, its body, and its METHODDEF line."""
    start = text.find("/*[clinic input]\n%s\n" % name)
    if start < 0:
        fail("no clinic block for %s" % name)
    end = text.index("\n}\n", start) + 3
    text = text[:start] + text[end:]
    text, n = re.subn(r"\n[ \t]*%s_METHODDEF[ \t]*(?=\n)" % name.upper(), "", text)
    if n != 1:
        fail("%s_METHODDEF found %d times" % (name.upper(), n))
    return text


def remove_helper(text, name):
    m = re.search(r"\nstatic [^\n]*\n%s\(" % re.escape(name), text)
    if not m:
        fail("no helper %s" % name)
    end = text.index("\n}\n", m.start()) + 3
    return text[:m.start() + 1] + text[end:]


def main():
    conformance, source, out, limited, left_out, helpers = sys.argv[1:7]
    sys.path.insert(0, conformance)
    import blocks
    with open(source, newline="") as f:
        text = f.read()
    stripped = blocks.strip(text)
    if stripped == text or "[clinic end generated code:" in stripped:
        fail("stripping %s removed nothing or not everything" % source)

    def write(rel, content):
        path = os.path.join(out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", newline="") as f:
            f.write(content)

    write("oracle/_testclinic.c", stripped)

    full = replace_once(stripped, "#  define Py_BUILD_CORE_MODULE 1\n",
                        "   /* (shim: Py_BUILD_CORE_MODULE not defined) */\n",
                        "Py_BUILD_CORE_MODULE")
    pycore_object = '#include "pycore_object.h"        // _PyObject_IsFreed()\n'
    if pycore_object in full:
        full = replace_once(full, pycore_object,
                            "/* (shim: no pycore_object.h) */\n", "pycore_object.h")
    custom = "custom_converter(PyObject *obj, custom_t *val)"
    if custom in full:
        full = replace_once(full, custom,
                            "custom_converter(PyObject *Py_UNUSED(obj), "
                            "custom_t *Py_UNUSED(val)) /* shim */", "custom_converter")
    full = replace_all(full, "_PyObject_IsFreed(arg)", "0 /* shim */", "_PyObject_IsFreed")
    full = replace_all(full, "Py_NewRef(", "Clinic_NewRef(", "Py_NewRef")
    full = replace_once(
        full, '#include "clinic/_testclinic.c.h"\n',
        '#include "clinic/_testclinic.c.h"\n'
        '/* shim: the hand-written code below ignores its module argument and\n'
        '   ends its tables with {NULL, NULL} */\n'
        '#pragma GCC diagnostic ignored "-Wunused-parameter"\n'
        '#pragma GCC diagnostic ignored "-Wmissing-field-initializers"\n',
        "the #include of the generated code")
    write("full/_testclinic.c", full)

    abi3 = "#define Py_LIMITED_API %s   /* shim */\n" % limited + full
    abi3 = replace_all(abi3, "PyTuple_SET_ITEM(", "ClinicTuple_SET_ITEM(", "PyTuple_SET_ITEM")
    write("abi3/with-all.c", abi3)
    for name in filter(None, left_out.split(",")):
        abi3 = remove_function(abi3, name)
        print("abi3: left out %s" % name)
    for name in filter(None, helpers.split(",")):
        abi3 = remove_helper(abi3, name)
        print("abi3: left out the helper %s" % name)
    write("abi3/_testclinic.c", abi3)

    if len(sys.argv) > 7:
        with open(sys.argv[7], newline="") as f:
            limited_text = blocks.strip(f.read())
        limited_text = replace_once(limited_text,
                                    "#  define Py_LIMITED_API 0x030d0000\n",
                                    "#  define Py_LIMITED_API %s   /* shim */\n" % limited,
                                    "Py_LIMITED_API")
        limited_text = replace_once(
            limited_text, '#include "clinic/_testclinic_limited.c.h"\n',
            '#include "clinic/_testclinic_limited.c.h"\n'
            '/* shim: the hand-written code below ignores its module argument and\n'
            '   ends its table with {NULL, NULL} */\n'
            '#pragma GCC diagnostic ignored "-Wunused-parameter"\n'
            '#pragma GCC diagnostic ignored "-Wmissing-field-initializers"\n',
            "the #include of the generated code")
        write("limited/_testclinic_limited.c", limited_text)


if __name__ == "__main__":
    main()
