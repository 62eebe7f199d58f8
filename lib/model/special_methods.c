/*
 * special_methods.c — the special methods clinic does not convert (their
 * slots' wrappers are the type's): the DSL refuses them, and --convert
 * leaves a function registered under one of those names.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* Sorted by strcmp, for bsearch. */
static const char *const unsupported_special_methods[] = {
    "__abs__", "__add__", "__and__", "__call__", "__delitem__",
    "__divmod__", "__eq__", "__float__", "__floordiv__", "__ge__",
    "__getattr__", "__getattribute__", "__getitem__", "__gt__", "__hash__",
    "__iadd__", "__iand__", "__ifloordiv__", "__ilshift__", "__imatmul__",
    "__imod__", "__imul__", "__index__", "__int__", "__invert__", "__ior__",
    "__ipow__", "__irshift__", "__isub__", "__iter__", "__itruediv__",
    "__ixor__", "__le__", "__len__", "__lshift__", "__lt__", "__matmul__",
    "__mod__", "__mul__", "__neg__", "__next__", "__or__", "__pos__",
    "__pow__", "__radd__", "__rand__", "__rdivmod__", "__repr__",
    "__rfloordiv__", "__rlshift__", "__rmatmul__", "__rmod__", "__rmul__",
    "__ror__", "__rpow__", "__rrshift__", "__rshift__", "__rsub__",
    "__rtruediv__", "__rxor__", "__setattr__", "__setitem__", "__str__",
    "__sub__", "__truediv__", "__xor__",
};

static int compare_names(const void *key, const void *item)
{
    return strcmp(key, *(const char *const *)item);
}

bool model_unsupported_special_method(const char *name)
{
    size_t n = sizeof unsupported_special_methods /
               sizeof unsupported_special_methods[0];
    if (name[0] != '_' || name[1] != '_')
        return false;   /* every one of them is a dunder name */
    /* the table is sorted (by strcmp) */
    return bsearch(name, unsupported_special_methods, n,
                   sizeof unsupported_special_methods[0],
                   compare_names) != NULL;
}
