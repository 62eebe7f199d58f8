/* A host class's __repr__ called unbound with a self that is no host
   object at all: host_repr reads the NULL Function behind a list
   (converters_py.c:803; Parameter, Module, Class alike).  The issue's
   print(Function()) is the same function with an unbacked self.  Found
   by gen.c. */
/*[python input]
print(Function.__repr__([]))
[python start generated code]*/
