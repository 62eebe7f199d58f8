/* round() of an int with ndigits -2**63 negates INT64_MIN: UBSan
   "negation of -9223372036854775808" in b_round (pyvm_builtins.c:714).
   Found by the generator's odd-int sweep. */
/*[python input]
x = round(10**400, -2**63)
[python start generated code]*/
