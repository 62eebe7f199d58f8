/* set's and frozenset's methods called unbound with a self that is not
   a set, or with none: set.pop(1) in mutable_check (pyvm_methods.c:388),
   set.pop(object()) in vm_set_next, set.copy(1), set.union(1) in
   set_multi, set.union() and frozenset.difference() in self_set
   (pyvm_methods.c:371).  Found by the generator's wrong-self sweep. */
/*[python input]
x = set.union()
[python start generated code]*/
