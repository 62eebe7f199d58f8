/* type.mro called unbound with a self that is not a class: type_mro
   reads a NULL PyClass (pyvm_methods.c:718).  Found by the generator's
   wrong-self sweep. */
/*[python input]
x = type.mro(1)
[python start generated code]*/
