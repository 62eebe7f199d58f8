/* str's methods called unbound with a self that is not a str take its
   NULL text: str.strip(None) in strip_impl (pyvm_str.c:257),
   str.upper(None) in arena_strndup (arena.c:274), and the other str
   methods alike.  Found by the generator's wrong-self sweep. */
/*[python input]
x = str.upper(None)
[python start generated code]*/
