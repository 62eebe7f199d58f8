/* id() of a 60,000-deep tuple hashes it (a tuple has no address to give,
   so its id is made from its hash), recursing in hash_tuple / vm_hash
   with no depth limit: ASan stack-overflow.  id() is not among the
   issue's recursing natives; fail() and warn() of it overflow in repr
   (ab_add) as print() does.  Found by gen_run -w's deep rounds. */
/*[python input]
t = ()
for _ in range(60000):
    t = (t,)
x = id(t)
[python start generated code]*/
