/* A non-empty ** argument in the DSL stores a NULL name, as int(**{})
   does: UBSan in builtin_cconverter_init (converters.c:500), a
   NULL strcmp without it.  Found by gen.c. */
/*[clinic input]
module m
m.f
    a: float(**{'x': 1})
[clinic start generated code]*/
