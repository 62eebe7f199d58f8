/* A frozenset's hash is not kept: frozenset([x]) hashes x again, all the
   way down, so nesting frozensets N deep costs N^2 (10,000: 4.7 s,
   60,000: 72 s); at 200,000 the hash recursion overflows the C stack
   (vm_hash, exit 139).  Found by gen.c. */
/*[python input]
x = ()
for _ in range(60000):
    x = frozenset([x])
[python start generated code]*/
