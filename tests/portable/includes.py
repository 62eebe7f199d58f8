# includes.py: prints the -I flags that build an extension module for the
# Python running it: its include directory and its platform include
# directory, which for a CPython run from its build tree (sysconfig's
# python_build) is that tree, where pyconfig.h is.
import sysconfig

paths = sysconfig.get_paths()
print(" ".join(sorted({"-I" + paths["include"], "-I" + paths["platinclude"]})))
