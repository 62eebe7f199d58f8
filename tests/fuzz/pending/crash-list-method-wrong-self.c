/* list's methods called unbound with a self that is not a list: l_pop
   reads a NULL PyList (pyvm_methods.c:66) for an int self, and with a
   class as self (list.pop(int)) reads the class as a list: ASan
   unknown-crash in memcpy; list.sort(int) asks for a huge allocation,
   list.sort(1) NULL at pyvm_methods.c:186.  Found by the generator's
   wrong-self sweep; the sweep's list of natives is in the report. */
/*[python input]
x = list.pop(int)
[python start generated code]*/
