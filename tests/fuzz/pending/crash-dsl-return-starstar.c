/* ** in a return converter's call: NULL name passed to strcmp in
   builtin_return_converter_init (converters.c:618).  Found by gen.c. */
/*[clinic input]
module m
m.f -> long(zeroes=1, **{})
[clinic start generated code]*/
