/* type() of a class with an N-long MRO costs N^2 (the MRO is merged
   again for each class), so a chain of 10,000 classes built in a loop
   takes minutes under no step limit; CPython: 0.05 s.  Found by gen.c. */
/*[python input]
k = object
for _ in range(10000):
    k = type('K', (k,), {})
[python start generated code]*/
