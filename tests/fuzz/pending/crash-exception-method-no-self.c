/* BaseException's __init__ and __str__ called unbound with no self at
   all take the NULL self of an empty argument list: UBSan "applying
   zero offset to null pointer" in e_str (pyvm_methods.c:706) and e_init
   (pyvm_methods.c:697).  Found by the generator's wrong-self sweep. */
/*[python input]
x = BaseException.__str__()
[python start generated code]*/
