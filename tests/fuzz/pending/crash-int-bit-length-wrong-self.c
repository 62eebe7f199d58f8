/* int.bit_length called unbound with a float: i_bit_length takes the
   float's NULL digit string (pyvm_methods.c:607, UBSan "applying zero
   offset to null pointer").  Found by the generator's wrong-self
   sweep. */
/*[python input]
x = int.bit_length(1.5)
[python start generated code]*/
