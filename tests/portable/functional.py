"""Run CPython 3.11's or 3.13's ClinicFunctionalTest, on whatever CPython
runs this, against a _testclinic module built from code our clinic
generated.

test_clinic.py as a whole needs its own CPython: it imports that version's
clinic.py and test.support helpers other versions lack or changed.
ClinicFunctionalTest needs none of that: it calls _testclinic (as
ac_tester) and reads a few limits from _testcapi.  So this driver takes the
class's source and the file's imports of the standard library (`import X`,
`from X import Y`, not those of the test package) out of test_clinic.py,
unchanged, and runs them with ac_tester bound to the module built in
EXT_DIR, and __file__ the test file (3.13 checks that a deprecation
warning points at the caller's line).  It fails when that module is not the one
imported, when no test ran, or when any was skipped.

usage: functional.py TEST_CLINIC_PY EXT_DIR [-v] [--exclude NAME,...]
                     [--module NAME --class NAME]
  --exclude  tests left out (named in the output), for a build that
             leaves the functions they call out of _testclinic
  --module, --class  another module and test class of the file (3.13's
             _testclinic_limited and LimitedCAPIFunctionalTest)
"""
import ast
import importlib
import os
import sys
import unittest


def fail(msg):
    print("functional: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    verbosity = 2 if "-v" in args else 1
    args = [a for a in args if a != "-v"]
    exclude = []
    if "--exclude" in args:
        i = args.index("--exclude")
        exclude = [n for n in args[i + 1].split(",") if n]
        del args[i:i + 2]
    modname, classname = "_testclinic", "ClinicFunctionalTest"
    for option in ("--module", "--class"):
        if option in args:
            i = args.index(option)
            if option == "--module":
                modname = args[i + 1]
            else:
                classname = args[i + 1]
            del args[i:i + 2]
    if len(args) != 2:
        fail("usage: functional.py TEST_CLINIC_PY EXT_DIR [-v] [--exclude NAME,...]"
             " [--module NAME --class NAME]")
    source_path, ext = args[0], os.path.abspath(args[1])
    sys.path.insert(0, ext)

    tested = importlib.import_module(modname)
    where = os.path.dirname(os.path.abspath(tested.__file__))
    if where != ext:
        fail("imported %s from %s, not from %s" % (modname, tested.__file__, ext))

    with open(source_path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), source_path)
    classes = [node for node in tree.body
               if isinstance(node, ast.ClassDef) and node.name == classname]
    if len(classes) != 1:
        fail("%s has no %s class" % (source_path, classname))
    # the file's plain imports of the standard library (sys, inspect...)
    imports = [node for node in tree.body
               if isinstance(node, ast.Import) or
               (isinstance(node, ast.ImportFrom) and node.level == 0 and
                node.module.split(".")[0] != "test")]
    module = ast.Module(body=imports + classes, type_ignores=[])
    namespace = {"__name__": "test_clinic_functional", "unittest": unittest,
                 "ac_tester": tested, modname: tested, "__file__": source_path}
    exec(compile(module, source_path, "exec"), namespace)
    case = namespace[classname]

    print("functional: python %s (%s)" % (sys.version.split()[0], sys.executable))
    print("functional: %s from %s" % (modname, tested.__file__))
    print("functional: %s from %s" % (classname, source_path))
    names = unittest.defaultTestLoader.getTestCaseNames(case)
    for name in exclude:
        if name not in names:
            fail("--exclude %s: no such test" % name)
        print("functional: left out: %s" % name)
    suite = unittest.TestSuite(case(n) for n in names if n not in exclude)
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=verbosity).run(suite)

    if result.testsRun == 0:
        fail("no test ran")
    if result.skipped:
        fail("%d test(s) skipped: %s" % (len(result.skipped),
                                         ", ".join(t.id() for t, _ in result.skipped)))
    if not result.wasSuccessful():
        fail("%s: %d failure(s), %d error(s) in %d tests"
             % (classname, len(result.failures), len(result.errors), result.testsRun))
    print("functional: %s: %d tests OK" % (classname, result.testsRun))


if __name__ == "__main__":
    main()
