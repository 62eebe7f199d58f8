"""Run CPython 3.11's ClinicFunctionalTest against the _testclinic module
that run.sh built from code our clinic generated.

test_clinic.py imports the module with import_helper.import_module(), which
turns an ImportError into a SkipTest for the whole file; a missing or wrong
module would then look like "no failures".  So this driver imports
_testclinic itself first, insists that it is the one built in BUILD_DIR, and
fails when no test ran or any test was skipped.

usage: functional.py BUILD_DIR [-v]
  BUILD_DIR/ext   holds the built _testclinic extension module
  BUILD_DIR/root  holds Lib/test (the test package) and Tools/clinic
                  (clinic.py, which test_clinic.py imports at module level)
"""
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
    if len(args) != 1:
        fail("usage: functional.py BUILD_DIR [-v]")
    build = os.path.abspath(args[0])
    ext = os.path.join(build, "ext")
    lib = os.path.join(build, "root", "Lib")
    sys.path[:0] = [ext, lib]

    import _testclinic
    where = os.path.dirname(os.path.abspath(_testclinic.__file__))
    if where != ext:
        fail("imported _testclinic from %s, not from %s" % (_testclinic.__file__, ext))
    import test
    test_dir = os.path.dirname(os.path.abspath(test.__file__))
    if test_dir != os.path.join(lib, "test"):
        fail("imported the test package from %s, not from %s/test" % (test_dir, lib))
    print("functional: _testclinic from %s" % _testclinic.__file__)
    print("functional: test.test_clinic from %s" % os.path.join(test_dir, "test_clinic.py"))
    print("functional: python %s (%s)" % (sys.version.split()[0], sys.executable))

    # Import errors and module-level SkipTest must surface, not vanish.
    try:
        from test import test_clinic
    except unittest.SkipTest as e:
        fail("test_clinic skipped itself: %s" % e)
    if test_clinic.ac_tester is not _testclinic:
        fail("test_clinic tests a different _testclinic module")

    suite = unittest.defaultTestLoader.loadTestsFromTestCase(test_clinic.ClinicFunctionalTest)
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=verbosity).run(suite)

    if result.testsRun == 0:
        fail("no test ran")
    if result.skipped:
        fail("%d test(s) skipped: %s" % (len(result.skipped),
                                         ", ".join(t.id() for t, _ in result.skipped)))
    if not result.wasSuccessful():
        fail("ClinicFunctionalTest: %d failure(s), %d error(s) in %d tests"
             % (len(result.failures), len(result.errors), result.testsRun))
    print("functional: ClinicFunctionalTest: %d tests OK" % result.testsRun)


if __name__ == "__main__":
    main()
