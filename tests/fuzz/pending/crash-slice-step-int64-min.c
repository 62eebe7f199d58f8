/* A slice step of -2**63 is negated in slice_indices (pyvm_seq.c:260):
   UBSan "negation of -9223372036854775808"; lists, tuples and strings
   alike.  Found by the generator's odd-int sweep. */
/*[python input]
x = [1, 2, 3][::-2**63]
[python start generated code]*/
