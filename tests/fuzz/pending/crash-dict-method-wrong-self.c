/* dict's methods called unbound with a self that is not a dict read a
   NULL PyDict: dict.popitem(1) (pyvm_methods.c:300), dict.copy(1)
   (vm_dict_copy, pyvm_table.c:372), dict.clear(1) (vm_dict_changing,
   pyvm_int.h:458).  Found by the generator's wrong-self sweep. */
/*[python input]
x = dict.popitem(1)
[python start generated code]*/
