/*
 * convert_units.c — the format units of PyArg_ParseTuple and the clinic
 * converter each one becomes (the How-To's table), with the C type the
 * variable must have and what the variable's initialiser may be as a
 * default.  A unit not here ("(", "u", "Z", "w#", "e" without s or t...)
 * is refused.
 */
#include <string.h>

#include "convert/convert_units.h"

static const FormatUnit units[] = {
    {"b", "unsigned_char", "unsigned char", NULL, DEF_INT, 1},
    {"B", "unsigned_char(bitwise=True)", "unsigned char", NULL, DEF_INT, 1},
    {"h", "short", "short", "short int", DEF_INT, 1},
    {"H", "unsigned_short(bitwise=True)", "unsigned short", "unsigned short int", DEF_INT, 1},
    {"i", "int", "int", NULL, DEF_INT, 1},
    /* uint32_t: unsigned int wherever CPython runs (int has 32 bits) */
    {"I", "unsigned_int(bitwise=True)", "unsigned int", "unsigned|uint32_t", DEF_INT, 1},
    {"l", "long", "long", "long int", DEF_INT, 1},
    {"k", "unsigned_long(bitwise=True)", "unsigned long", "unsigned long int", DEF_INT, 1},
    {"L", "long_long", "long long", "PY_LONG_LONG", DEF_INT, 1},
    {"K", "unsigned_long_long(bitwise=True)", "unsigned long long", "unsigned PY_LONG_LONG", DEF_INT, 1},
    {"n", "Py_ssize_t", "Py_ssize_t", NULL, DEF_INT, 1},
    {"c", "char", "char", NULL, DEF_CHAR, 1},
    {"C", "int(accept={str})", "int", NULL, DEF_NONE, 1},
    {"f", "float", "float", NULL, DEF_FLOAT, 1},
    {"d", "double", "double", NULL, DEF_FLOAT, 1},
    {"D", "Py_complex", "Py_complex", NULL, DEF_NONE, 1},
    {"p", "bool", "int", NULL, DEF_BOOL, 1},
    {"s", "str", "const char *", "char *", DEF_STR, 1},
    {"z", "str(accept={str, NoneType})", "const char *", "char *", DEF_STR_NONE, 1},
    {"y", "str(accept={robuffer})", "const char *", "char *", DEF_NULL, 1},
    {"s#", "str(accept={robuffer, str}, zeroes=True)", "const char *", "char *", DEF_NULL, 2},
    {"z#", "str(accept={robuffer, str, NoneType}, zeroes=True)", "const char *", "char *", DEF_STR_NONE, 2},
    {"y#", "str(accept={robuffer}, zeroes=True)", "const char *", "char *", DEF_NULL, 2},
    {"s*", "Py_buffer(accept={buffer, str})", "Py_buffer", NULL, DEF_BUFFER, 1},
    {"z*", "Py_buffer(accept={buffer, str, NoneType})", "Py_buffer", NULL, DEF_BUFFER, 1},
    {"y*", "Py_buffer", "Py_buffer", NULL, DEF_BUFFER, 1},
    {"w*", "Py_buffer(accept={rwbuffer})", "Py_buffer", NULL, DEF_BUFFER, 1},
    {"S", "PyBytesObject", "PyBytesObject *", NULL, DEF_OBJECT, 1},
    {"Y", "PyByteArrayObject", "PyByteArrayObject *", NULL, DEF_OBJECT, 1},
    {"U", "unicode", "PyObject *", NULL, DEF_OBJECT, 1},
    {"O", "object", "PyObject *", NULL, DEF_OBJECT, 1},
    {"O!", "object", "PyObject *", NULL, DEF_OBJECT, 2},
    {"O&", "object", NULL, NULL, DEF_ANY, 2},
    {"es", "str", "char *", NULL, DEF_NONE, 2},
    {"et", "str", "char *", NULL, DEF_NONE, 2},
    {"es#", "str", "char *", NULL, DEF_NONE, 3},
    {"et#", "str", "char *", NULL, DEF_NONE, 3},
    {NULL, NULL, NULL, NULL, DEF_NONE, 0},
};

const FormatUnit *unit_next(const char **fmt)
{
    const char *p = *fmt;
    char spelled[4] = {0};
    size_t n = 0;
    if (p[0] == 'e' && (p[1] == 's' || p[1] == 't'))
        n = p[2] == '#' ? 3 : 2;
    else if (p[0] && (p[1] == '#' || p[1] == '*' || p[1] == '!' ||
                      p[1] == '&'))
        n = 2;
    else if (p[0])
        n = 1;
    memcpy(spelled, p, n);
    for (size_t i = 0; units[i].unit; i++)
        if (!strcmp(units[i].unit, spelled)) {
            *fmt = p + n;
            return &units[i];
        }
    return NULL;
}
