"""Run CPython 3.11's, 3.13's or 3.15's ClinicFunctionalTest, on whatever CPython
runs this, against a _testclinic module built from code our clinic
generated.

test_clinic.py as a whole needs its own CPython: it imports that version's
clinic.py and test.support helpers other versions lack or changed.
ClinicFunctionalTest needs none of that: it calls _testclinic (as
ac_tester) and reads a few limits from _testcapi.  So this driver takes the
class's source, the file's imports of the standard library (`import X`,
`from X import Y`, not those of the test package) and the file's own
functions the class names (a decorator) out of test_clinic.py,
unchanged, and runs them with ac_tester bound to the module built in
EXT_DIR, and __file__ the test file (3.13 checks that a deprecation
warning points at the caller's line).  It fails when that module is not the one
imported, when no test ran, or when any was skipped.

usage: functional.py TEST_CLINIC_PY EXT_DIR [-v] [--exclude NAME,...]
                     [--module NAME --class NAME] [--older-module]
  --exclude  tests left out (named in the output), for a build that
             leaves the functions they call out of _testclinic
  --older-module  the module was generated from an older _testclinic.c
             than the test file's (3.13.5's, under 3.15's test): each test
             that names a function the module lacks (ac_tester.NAME or
             ac_tester.Class.NAME, in its body or its decorators) is
             taken out of the class before it is made, and named
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


def resolves(node, module, roots):
    """Whether an attribute chain rooted at the module (ac_tester.a.b) names
    something the module has; True for any other expression."""
    chain = []
    while isinstance(node, ast.Attribute):
        chain.append(node.attr)
        node = node.value
    if not (isinstance(node, ast.Name) and node.id in roots):
        return True
    obj = module
    for attr in reversed(chain):
        if not hasattr(obj, attr):
            return False
        obj = getattr(obj, attr)
    return True


def prune_lacking(scope, module, roots, lacking):
    """Take out of SCOPE's body (and of the bodies of its if statements)
    each test whose body or decorators name what the module lacks;
    record each in LACKING with those names."""
    kept = []
    for node in scope.body:
        if isinstance(node, ast.If):
            prune_lacking(node, module, roots, lacking)
            if not node.body:
                node.body = [ast.copy_location(ast.Pass(), node)]
        elif isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            missing = sorted({ast.unparse(n) for n in ast.walk(node)
                              if isinstance(n, ast.Attribute) and
                              not resolves(n, module, roots)})
            # the first missing name of each chain (ac_tester.f, not
            # also ac_tester.f.__name__)
            missing = [m for m in missing
                       if not any(m.startswith(o + ".") for o in missing)]
            if missing:
                lacking[node.name] = missing
                continue
        kept.append(node)
    scope.body = kept


def main():
    args = sys.argv[1:]
    verbosity = 2 if "-v" in args else 1
    args = [a for a in args if a != "-v"]
    exclude = []
    older = "--older-module" in args
    args = [a for a in args if a != "--older-module"]
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
    # the file's own top-level functions the class names (3.14's
    # repeat_fn, a decorator of its tests)
    used = {node.id for node in ast.walk(classes[0]) if isinstance(node, ast.Name)}
    helpers = [node for node in tree.body
               if isinstance(node, ast.FunctionDef) and node.name in used]
    module = ast.Module(body=imports + helpers + classes, type_ignores=[])
    lacking = {}   # test name: the functions it names that the module lacks
    if older:
        prune_lacking(classes[0], tested, ("ac_tester", modname), lacking)
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
    for name, functions in sorted(lacking.items()):
        print("functional: left out: %s: the module lacks %s"
                  % (name, ", ".join(functions)))
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
