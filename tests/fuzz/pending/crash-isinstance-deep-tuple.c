/* isinstance() (and issubclass()) walk a tuple of classes recursively
   with no depth limit: a 60,000-deep tuple overflows the C stack in
   isinstance_of (ASan stack-overflow; exit 139 without it).  Not among
   issue 28's list of recursing natives.  Found by gen.c. */
/*[python input]
t = ()
for _ in range(60000):
    t = (t,)
isinstance(1, t)
[python start generated code]*/
