/*
 * check_pyexpr.c — pyexpr against CPython 3.11's own answers.
 *
 * The table in pyexpr_cases.h holds inputs and what Python printed for
 * them (repr of literal_eval, ast.dump, eval in clinic.py's globals, the
 * parameter summary state_parameter reads, SyntaxError.text); the
 * table-driven test formats our results the same way and compares.  The
 * other tests pin down API behaviour the table cannot show: values,
 * equality, truthiness, node fields, the walker, error details.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "python/pyexpr.h"
#include "model/converters.h"
#include "python/pyvm.h"
#include "base/dialect.h"
#include "base/strbuf.h"

#include "pyexpr_cases.h"
#include "unit.h"

/* Newlines are written as \n in the table (one case per line). */
static const char *flat(Arena *a, const char *s)
{
    StrBuf sb = STRBUF_INIT;
    for (; *s; s++) {
        if (*s == '\n')
            sb_adds(&sb, "\\n");
        else
            sb_addc(&sb, *s);
    }
    char *out = sb_to_arena(&sb, a);
    sb_free(&sb);
    return out;
}

static const char *syntax_error(Arena *a, const PySyntaxError *err)
{
    return arena_printf(a, "SyntaxError %s", py_repr_str(a, err->text, strlen(err->text)));
}

/* A 3.11 file's context: eval() runs in its interpreter. */
static Clinic *eval_clinic(void)
{
    return unit_clinic("t.c", dialect_find("3.11"));
}

/* eval() of a parsed tree as clinic evaluates a converter argument
   (PY_SCOPE_GLOBALS) or a default (PY_SCOPE_STATE_PARAMETER). */
static bool eval_tree(Clinic *c, const PyExpr *e, PyEvalScope scope,
                      PyValue *v, PyException *exc)
{
    return converters_eval(c, e, scope, v, exc);
}

/* eval(text) as state_parameter calls it: compiled from the string. */
static bool eval_source(Clinic *c, const char *text, PyEvalScope scope,
                        PyValue *v, PyException *exc)
{
    const PyExpr *e = pyexpr_compile_source(c->arena, text, exc);
    return e && converters_eval(c, e, scope, v, exc);
}

/* The table's form of a value: its repr, or "<opaque>" for an object
   clinic keeps as the interpreter's or whose repr it only stands for. */
static const char *shown(Arena *a, const PyValue *v)
{
    if (py_is_opaque(v) || v->kind == PY_OBJECT)
        return "<opaque>";
    return py_repr(a, v);
}

/* Our answer for one table row, formatted as the table expects. */
static const char *run_case(Arena *a, const char *mode, const char *text)
{
    PySyntaxError err;
    PyValue v;
    if (!strcmp(mode, "lit") || !strcmp(mode, "dump") || !strcmp(mode, "eval")) {
        PyExpr *e = pyexpr_parse_default(a, text, &err);
        if (!e)
            return syntax_error(a, &err);
        if (!strcmp(mode, "dump"))
            return pyexpr_dump(a, e);
        if (!strcmp(mode, "lit"))
            return pyexpr_literal_eval(a, e, &v) ? py_repr(a, &v) : "ValueError";
        PyException exc;
        Clinic *c = eval_clinic();
        const char *got = eval_tree(c, e, PY_SCOPE_GLOBALS, &v, &exc)
                              ? shown(a, &v) : arena_strdup(a, exc.repr);
        clinic_free(c);
        return got;
    }
    if (!strcmp(mode, "evs")) {
        PyException exc;
        Clinic *c = eval_clinic();
        const char *got = eval_source(c, text, PY_SCOPE_GLOBALS, &v, &exc)
                              ? shown(a, &v) : arena_strdup(a, exc.repr);
        clinic_free(c);
        return got;
    }
    if (!strcmp(mode, "params")) {
        PyParamDecl d;
        if (!pyexpr_parse_params(a, text, &d, &err))
            return syntax_error(a, &err);
        return arena_printf(a, "%d %d %d %d %s %s", d.nargs, d.has_default, d.has_kwarg,
                            d.is_vararg, d.name ? d.name : "-",
                            d.annotation ? pyexpr_dump(a, d.annotation) : "None");
    }
    if (!strcmp(mode, "ret")) {
        PyExpr *e = pyexpr_parse_returns(a, text, &err);
        return e ? pyexpr_dump(a, e) : syntax_error(a, &err);
    }
    return "?";
}

START_TEST(test_python_table)
{
    size_t n = sizeof pyexpr_cases / sizeof pyexpr_cases[0];
    int failures = 0;
    for (size_t i = 0; i < n; i++) {
        Arena *a = arena_new();
        const struct PyexprCase *c = &pyexpr_cases[i];
        const char *got = flat(a, run_case(a, c->mode, c->text));
        if (strcmp(got, c->expected) != 0) {
            failures++;
            fprintf(stderr, "%s %s\n  expected: %s\n  got:      %s\n", c->mode, c->text,
                    c->expected, got);
        }
        arena_free(a);
    }
    ck_assert_int_eq(failures, 0);
}
END_TEST

/* ---- repr ------------------------------------------------------------- */

static char *repr_float(Arena *a, double d)
{
    PyValue v = { .kind = PY_FLOAT, .f = d };
    return py_repr(a, &v);
}

START_TEST(test_float_repr)
{
    Arena *a = arena_new();
    ck_assert_str_eq(repr_float(a, 0.1), "0.1");
    ck_assert_str_eq(repr_float(a, 1e22), "1e+22");
    ck_assert_str_eq(repr_float(a, 1.5e-7), "1.5e-07");
    ck_assert_str_eq(repr_float(a, 123456789012345680.0), "1.2345678901234568e+17");
    ck_assert_str_eq(repr_float(a, 9007199254740993.0), "9007199254740992.0");
    ck_assert_str_eq(repr_float(a, -0.0), "-0.0");
    ck_assert_str_eq(repr_float(a, 1e16), "1e+16");
    ck_assert_str_eq(repr_float(a, 1234567890123456.0), "1234567890123456.0");
    ck_assert_str_eq(repr_float(a, 1e-5), "1e-05");
    ck_assert_str_eq(repr_float(a, 0.0001), "0.0001");
    ck_assert_str_eq(repr_float(a, 1.0), "1.0");
    ck_assert_str_eq(repr_float(a, 5e-324), "5e-324");
    ck_assert_str_eq(repr_float(a, 1.7976931348623157e308), "1.7976931348623157e+308");
    ck_assert_str_eq(repr_float(a, 0.1 + 0.2), "0.30000000000000004");
    ck_assert_str_eq(repr_float(a, INFINITY), "inf");
    ck_assert_str_eq(repr_float(a, -INFINITY), "-inf");
    ck_assert_str_eq(repr_float(a, NAN), "nan");
    arena_free(a);
}
END_TEST

START_TEST(test_complex_repr)
{
    Arena *a = arena_new();
    PyValue v = { .kind = PY_COMPLEX, .f = 0, .imag = 1 };
    ck_assert_str_eq(py_repr(a, &v), "1j");
    v.f = 1, v.imag = 2;
    ck_assert_str_eq(py_repr(a, &v), "(1+2j)");
    v.f = -0.0, v.imag = -0.0;
    ck_assert_str_eq(py_repr(a, &v), "(-0-0j)");
    v.f = 0, v.imag = -0.0;
    ck_assert_str_eq(py_repr(a, &v), "-0j");
    v.f = 1.5, v.imag = 1e16;
    ck_assert_str_eq(py_repr(a, &v), "(1.5+1e+16j)");
    v.f = 0, v.imag = INFINITY;
    ck_assert_str_eq(py_repr(a, &v), "infj");
    v.f = 1, v.imag = NAN;
    ck_assert_str_eq(py_repr(a, &v), "(1+nanj)");
    arena_free(a);
}
END_TEST

static char *repr_str(Arena *a, const char *s)
{
    return py_repr_str(a, s, strlen(s));
}

START_TEST(test_str_repr)
{
    Arena *a = arena_new();
    ck_assert_str_eq(repr_str(a, "abc"), "'abc'");
    ck_assert_str_eq(repr_str(a, "a'b"), "\"a'b\"");
    ck_assert_str_eq(repr_str(a, "a\"b"), "'a\"b'");
    ck_assert_str_eq(repr_str(a, "a'b\"c"), "'a\\'b\"c'");
    ck_assert_str_eq(repr_str(a, "\n\t\r\\"), "'\\n\\t\\r\\\\'");
    ck_assert_str_eq(repr_str(a, "\x01\x7f"), "'\\x01\\x7f'");
    ck_assert_str_eq(repr_str(a, "\xc3\xa9"), "'\xc3\xa9'");               /* é */
    ck_assert_str_eq(repr_str(a, "\xc2\xa0"), "'\\xa0'");                  /* NBSP */
    ck_assert_str_eq(repr_str(a, "\xe2\x80\xa8"), "'\\u2028'");            /* LS */
    ck_assert_str_eq(repr_str(a, "\xf3\xa0\x80\x81"), "'\\U000e0001'");    /* tag */
    ck_assert_str_eq(repr_str(a, "\xf0\x9f\x98\x80"), "'\xf0\x9f\x98\x80'"); /* emoji */
    /* embedded NUL */
    ck_assert_str_eq(py_repr_str(a, "a\0b", 3), "'a\\x00b'");
    PyValue b = { .kind = PY_BYTES, .s = "'\x00\xff\"", .len = 4 };
    ck_assert_str_eq(py_repr(a, &b), "b'\\'\\x00\\xff\"'");
    arena_free(a);
}
END_TEST

START_TEST(test_value_repr)
{
    Arena *a = arena_new();
    ck_assert_str_eq(py_repr(a, &py_null), "<Null>");
    ck_assert_str_eq(py_repr(a, &py_unspecified), "<Unspecified>");
    ck_assert_str_eq(py_repr(a, &py_unknown), "<Unknown>");
    ck_assert_str_eq(py_repr(a, &py_none), "None");
    PyValue t = { .kind = PY_TYPE, .types = PYT_NONETYPE };
    ck_assert_str_eq(py_repr(a, &t), "<class 'NoneType'>");
    t.types = PYT_RWBUFFER;
    ck_assert_str_eq(py_repr(a, &t), "<class '__main__.rwbuffer'>");
    /* Python's iteration order for a set of builtin classes (Debian's
       python3.11) */
    PyValue s = { .kind = PY_SET, .types = PYT_STR | PYT_NONETYPE };
    ck_assert_str_eq(py_repr(a, &s), "{<class 'str'>, <class 'NoneType'>}");
    s.types = PYT_BYTES | PYT_BYTEARRAY | PYT_STR;
    ck_assert_str_eq(py_repr(a, &s), "{<class 'str'>, <class 'bytes'>, <class 'bytearray'>}");
    s.types = 0;
    ck_assert_str_eq(py_repr(a, &s), "set()");
    PyValue items[2] = { { .kind = PY_BOOL, .b = true }, { .kind = PY_NONE } };
    PyValue tup = { .kind = PY_TUPLE, .items = items, .nitems = 1 };
    ck_assert_str_eq(py_repr(a, &tup), "(True,)");
    tup.nitems = 2;
    ck_assert_str_eq(py_repr(a, &tup), "(True, None)");
    tup.nitems = 0;
    ck_assert_str_eq(py_repr(a, &tup), "()");
    ck_assert_str_eq(py_type_name(PYT_BYTEARRAY), "bytearray");
    ck_assert_str_eq(py_value_type_name(&py_null), "Null");
    ck_assert_str_eq(py_value_type_name(&s), "set");
    arena_free(a);
}
END_TEST

/* ---- literal values --------------------------------------------------- */

static PyValue literal(Arena *a, const char *text)
{
    PySyntaxError err;
    PyExpr *e = pyexpr_parse_default(a, text, &err);
    ck_assert_ptr_nonnull(e);
    PyValue v;
    ck_assert(pyexpr_literal_eval(a, e, &v));
    return v;
}

START_TEST(test_int_literals)
{
    Arena *a = arena_new();
    PyValue v = literal(a, "0xFFFFFFFFFFFFFFFFFFFF");
    ck_assert_int_eq(v.kind, PY_INT);
    ck_assert_str_eq(v.s, "1208925819614629174706175");
    ck_assert_uint_eq(v.len, strlen(v.s));
    ck_assert_str_eq(literal(a, "0o777").s, "511");
    ck_assert_str_eq(literal(a, "0b1_0_1").s, "5");
    ck_assert_str_eq(literal(a, "-0").s, "0");
    ck_assert_str_eq(literal(a, "-1_000").s, "-1000");
    ck_assert_str_eq(literal(a, "00").s, "0");
    v = literal(a, "1.");
    ck_assert_int_eq(v.kind, PY_FLOAT);
    ck_assert(v.f == 1.0);
    v = literal(a, "-1-2j");
    ck_assert_int_eq(v.kind, PY_COMPLEX);
    ck_assert(v.f == -1 && v.imag == -2);
    v = literal(a, "'a' 'b' '\\x41\\u00e9\\101\\\n'");
    ck_assert_int_eq(v.kind, PY_STR);
    ck_assert_str_eq(v.s, "abA\xc3\xa9" "A");
    arena_free(a);
}
END_TEST

/* literal_eval of two texts, compared with == */
static bool equal_literals(Arena *a, const char *x, const char *y)
{
    PyValue vx = literal(a, x), vy = literal(a, y);
    return py_equal(&vx, &vy);
}

START_TEST(test_truthy_equal)
{
    Arena *a = arena_new();
    ck_assert(!py_truthy(&py_none));
    ck_assert(py_truthy(&py_null));
    ck_assert(!py_truthy(&(PyValue){ .kind = PY_INT, .s = "0", .len = 1 }));
    ck_assert(py_truthy(&(PyValue){ .kind = PY_INT, .s = "-3", .len = 2 }));
    ck_assert(!py_truthy(&(PyValue){ .kind = PY_STR, .s = "", .len = 0 }));
    ck_assert(!py_truthy(&(PyValue){ .kind = PY_FLOAT, .f = -0.0 }));
    ck_assert(equal_literals(a, "1", "1.0"));
    ck_assert(equal_literals(a, "True", "1"));
    ck_assert(equal_literals(a, "1j", "0+1j"));
    ck_assert(!equal_literals(a, "'1'", "1"));
    ck_assert(equal_literals(a, "(1, 'a')", "(1.0, 'a')"));
    ck_assert(equal_literals(a, "9007199254740992", "9007199254740992.0"));
    ck_assert(!equal_literals(a, "9007199254740993", "9007199254740993.0"));
    ck_assert(!py_equal(&py_null, &py_none));
    ck_assert(py_equal(&py_unspecified, &py_unspecified));
    arena_free(a);
}
END_TEST

/* ---- eval ------------------------------------------------------------- */

static bool eval_text(Clinic *c, const char *text, PyEvalScope scope,
                      PyValue *v, PyException *exc)
{
    PySyntaxError err;
    PyExpr *e = pyexpr_parse(c->arena, text, &err);
    ck_assert_ptr_nonnull(e);
    return eval_tree(c, e, scope, v, exc);
}

START_TEST(test_eval_namespace)
{
    Clinic *c = eval_clinic();
    PyValue v;
    PyException exc;
    ck_assert(eval_text(c, "{str, NoneType}", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_int_eq(v.kind, PY_SET);
    ck_assert_uint_eq(v.types, PYT_STR | PYT_NONETYPE);
    ck_assert(eval_text(c, "{robuffer, str, NoneType}", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_uint_eq(v.types, PYT_ROBUFFER | PYT_STR | PYT_NONETYPE);
    ck_assert(eval_text(c, "{str} | {buffer}", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_uint_eq(v.types, PYT_STR | PYT_BUFFER);
    ck_assert(eval_text(c, "NULL", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_int_eq(v.kind, PY_NULL);
    ck_assert(eval_text(c, "unspecified", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_int_eq(v.kind, PY_UNSPECIFIED);
    ck_assert(eval_text(c, "unknown", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert(v.kind == PY_UNKNOWN && !py_is_opaque(&v));
    ck_assert(eval_text(c, "sys.maxsize", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(v.s, "9223372036854775807");
    ck_assert(eval_text(c, "len", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_int_eq(v.kind, PY_OBJECT);
    /* locals of state_parameter exist only in that scope */
    ck_assert(!eval_text(c, "default", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(exc.repr, "NameError(\"name 'default' is not defined\")");
    ck_assert(eval_text(c, "default", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert(py_is_uncomputed(&v));
    ck_assert(!eval_text(c, "foo.bar", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert_str_eq(exc.repr, "NameError(\"name 'foo' is not defined\")");
    ck_assert(!eval_text(c, "sys.foo", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(exc.repr, "AttributeError(\"module 'sys' has no attribute 'foo'\")");
    ck_assert(!eval_text(c, "1/0", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(exc.repr, "ZeroDivisionError('division by zero')");
    ck_assert(eval_text(c, "2**100 - 1", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(v.s, "1267650600228229401496703205375");
    ck_assert(eval_text(c, "-sys.maxsize - 1", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(v.s, "-9223372036854775808");
    clinic_free(c);
    /* from 3.13 on, converter arguments see libclinic's parser namespace
       (no NULL, no modules), defaults clinic.py's module as before */
    c = unit_clinic("t.c", dialect_find("3.13"));
    ck_assert(!eval_text(c, "NULL", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(exc.repr, "NameError(\"name 'NULL' is not defined\")");
    ck_assert(!eval_text(c, "sys", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert(eval_text(c, "int_converter", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert(eval_text(c, "sys.maxsize", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert_str_eq(v.s, "9223372036854775807");
    ck_assert(eval_text(c, "NULL", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert_int_eq(v.kind, PY_NULL);
    clinic_free(c);
}
END_TEST

/* ---- syntax ----------------------------------------------------------- */

/* eval() of a parsed tree compiles it first: what the compiler refuses
   fails before anything is evaluated, wherever it sits in the tree. */
START_TEST(test_eval_compiles_first)
{
    Clinic *c = eval_clinic();
    Arena *a = c->arena;
    PyValue v;
    PyException exc;
    ck_assert(!eval_text(c, "dict(a=1, a=2)", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(exc.repr, "SyntaxError('keyword argument repeated: a')");
    ck_assert(!eval_text(c, "[undefined, f(x=1, y=2, x=3)]", PY_SCOPE_GLOBALS,
                         &v, &exc));
    ck_assert_str_eq(exc.repr, "SyntaxError('keyword argument repeated: x')");
    ck_assert(!eval_text(c, "1 if 1 else (yield)", PY_SCOPE_GLOBALS, &v,
                         &exc));
    ck_assert_str_eq(exc.repr, "SyntaxError(\"'yield' outside function\")");
    /* "**" entries have no name to repeat */
    ck_assert(eval_text(c, "dict(**{}, **{})", PY_SCOPE_GLOBALS, &v, &exc));
    PySyntaxError err;
    PyExpr *e = pyexpr_parse(a, "f(a=1, **{}, a=(yield))", &err);
    ck_assert_ptr_nonnull(e);
    ck_assert_str_eq(pyexpr_compile_error(a, e),
                     "keyword argument repeated: a");
    e = pyexpr_parse(a, "f(a, b=1)", &err);
    ck_assert_ptr_null(pyexpr_compile_error(a, e));
    clinic_free(c);
}
END_TEST

/* The file's interpreter computes what Python would, within its limits
   (the file's work budget and memory); what clinic.py has and it does
   not model is a stand-in, never passed off as a value. */
START_TEST(test_eval_computed)
{
    Clinic *c = eval_clinic();
    Arena *a = c->arena;
    PyValue v;
    PyException exc;
    ck_assert(eval_text(c, "'ab' * 1000001", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_int_eq(v.kind, PY_STR);
    ck_assert_uint_eq(v.len, 2000002);
    ck_assert(v.s[0] == 'a' && v.s[2000001] == 'b' && v.s[2000002] == '\0');
    ck_assert(eval_text(c, "b'x' * 3 + b'y'", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_int_eq(v.kind, PY_BYTES);
    ck_assert_str_eq(py_repr(a, &v), "b'xxxy'");
    ck_assert(eval_text(c, "'' * 2**62", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_uint_eq(v.len, 0);
    ck_assert(eval_text(c, "'x' * -3", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_uint_eq(v.len, 0);
    ck_assert(!eval_text(c, "'x' * 2**40", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(exc.type, "MemoryError");
    ck_assert(!eval_text(c, "'ab' * (2**63 - 1)", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(exc.type, "OverflowError");
    ck_assert(!eval_text(c, "'x' * 2**100", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(pyexpr_exception_line(a, &exc), "OverflowError: cannot "
                     "fit 'int' into an index-sized integer");
    /* a search takes time linear in its operands */
    ck_assert(eval_text(c, "'a' * 2**21 + 'b' in 'a' * 2**22",
                        PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert(v.kind == PY_BOOL && !v.b);
    ck_assert(eval_text(c, "b'ab' in b'x' * 2**20 + b'ab'",
                        PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert(v.kind == PY_BOOL && v.b);
    /* big ints are computed up to the interpreter's size (70 factors of
       1401 digits), and their work counts in the file's budget, which
       every expression and python block of the file shares: once the
       work done so far passes it, the next expression stops */
    StrBuf product = STRBUF_INIT;
    for (int i = 0; i < 70; i++)
        sb_adds(&product, i ? " * 10**1400" : "10**1400");
    ck_assert(eval_text(c, product.buf, PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_int_eq(v.kind, PY_INT);
    ck_assert_uint_eq(v.len, 70 * 1400 + 1);
    ck_assert(!eval_text(c, "10**1400 * 10**99000", PY_SCOPE_GLOBALS, &v,
                         &exc));
    ck_assert_str_eq(exc.type, "MemoryError");
    pyvm_set_work_limit(converters_python(c), (uint64_t)1 << 22);
    ck_assert(!eval_text(c, "10**1400 * 10**1400", PY_SCOPE_GLOBALS, &v,
                         &exc));
    ck_assert_str_eq(exc.type, "RuntimeError");
    sb_free(&product);
    clinic_free(c);
    c = eval_clinic();
    a = c->arena;
    /* a list joined is a list with its repr */
    ck_assert(eval_text(c, "[1] + ['a']", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(py_repr(a, &v), "[1, 'a']");
    ck_assert(!py_is_uncomputed(&v));
    static const char *const computed[][2] = {
        { "'%d' % 5", "'5'" }, { "f'{1}'", "'1'" },
        { "[x for x in 'ab'][0]", "'a'" }, { "('a', len)[0:1]", "('a',)" },
        { "str(1).join('bc')", "'b1c'" }, { "10 ** 400 > 1.5", "True" },
        { "str([1, 'a'])", "\"[1, 'a']\"" }, { "repr(sys)",
          "\"<module 'sys' (built-in)>\"" },
    };
    for (size_t i = 0; i < sizeof computed / sizeof *computed; i++) {
        ck_assert_msg(eval_text(c, computed[i][0], PY_SCOPE_GLOBALS, &v, &exc),
                      "%s: %s", computed[i][0], exc.repr);
        ck_assert_str_eq(py_repr(a, &v), computed[i][1]);
    }
    /* clinic.py's objects the interpreter does not model */
    static const char *const stand_ins[] = {
        "converters", "{1: __file__}", "(clinic,)", "clinic.language",
    };
    for (size_t i = 0; i < sizeof stand_ins / sizeof *stand_ins; i++) {
        ck_assert_msg(eval_text(c, stand_ins[i], PY_SCOPE_GLOBALS, &v, &exc),
                      "%s: %s", stand_ins[i], exc.repr);
        ck_assert_msg(py_is_uncomputed(&v), "%s", stand_ins[i]);
    }
    /* what it does not run, and a repr with a path it does not know */
    ck_assert(!eval_text(c, "open('x').read()", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(pyexpr_exception_line(a, &exc),
                     "RuntimeError: clinic does not run open()");
    ck_assert(!eval_text(c, "repr(os)", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(exc.type, "RuntimeError");
    ck_assert(eval_text(c, "not sys", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert(v.kind == PY_BOOL && !v.b);
    clinic_free(c);
}
END_TEST

START_TEST(test_nodes)
{
    Arena *a = arena_new();
    PySyntaxError err;
    PyExpr *e = pyexpr_parse(a, "f(1, *a, b=2, **c)", &err);
    ck_assert_int_eq(e->kind, PX_CALL);
    ck_assert_int_eq(e->left->kind, PX_NAME);
    ck_assert_str_eq(e->left->id, "f");
    ck_assert_uint_eq(e->nitems, 2);
    ck_assert_int_eq(e->items[1]->kind, PX_STARRED);
    ck_assert_uint_eq(e->nkeywords, 2);
    ck_assert_str_eq(e->keywords[0].arg, "b");
    ck_assert_ptr_null(e->keywords[1].arg);
    ck_assert_str_eq(e->source, "f(1, *a, b=2, **c)");
    e = pyexpr_parse(a, "-x.y", &err);
    ck_assert_int_eq(e->kind, PX_UNARYOP);
    ck_assert_str_eq(e->op, "USub");
    ck_assert_int_eq(e->left->kind, PX_ATTRIBUTE);
    ck_assert_str_eq(e->left->id, "y");
    ck_assert_str_eq(e->left->source, "x.y");
    e = pyexpr_parse(a, "a < b <= c", &err);
    ck_assert_int_eq(e->kind, PX_COMPARE);
    ck_assert_uint_eq(e->nitems, 2);
    ck_assert_str_eq(e->ops[1], "LtE");
    e = pyexpr_parse(a, "1 if x else 2", &err);
    ck_assert_int_eq(e->kind, PX_IFEXP);
    ck_assert_str_eq(e->test->id, "x");
    ck_assert_ptr_null(pyexpr_parse(a, "1 +", &err));
    ck_assert_str_eq(err.msg, "invalid syntax");
    ck_assert_ptr_null(pyexpr_parse(a, "(1", &err));
    ck_assert_str_eq(err.msg, "'(' was never closed");
    ck_assert_ptr_null(pyexpr_parse(a, "0777", &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "leading zeros"));
    ck_assert_ptr_null(pyexpr_parse(a, "'\\N{BULLET}'", &err));
    arena_free(a);
}
END_TEST

static bool is_call(const PyExpr *e, void *ctx)
{
    (*(int *)ctx)++;
    return e->kind == PX_CALL;
}

START_TEST(test_walk)
{
    Arena *a = arena_new();
    PySyntaxError err;
    int visited = 0;
    ck_assert(pyexpr_any(pyexpr_parse(a, "1 + [x for x in f()]", &err), is_call, &visited));
    visited = 0;
    ck_assert(!pyexpr_any(pyexpr_parse(a, "-(a.b + c[1])", &err), is_call, &visited));
    ck_assert_int_eq(visited, 7);
    ck_assert(pyexpr_any(pyexpr_parse(a, "lambda x=g(): 0", &err), is_call, &visited));
    arena_free(a);
}
END_TEST

START_TEST(test_params)
{
    Arena *a = arena_new();
    PySyntaxError err;
    PyParamDecl d;
    ck_assert(pyexpr_parse_params(a, "a: int(accept={str})", &d, &err));
    ck_assert_str_eq(d.name, "a");
    ck_assert_int_eq(d.annotation->kind, PX_CALL);
    ck_assert_str_eq(d.annotation->keywords[0].arg, "accept");
    ck_assert_int_eq(d.annotation->keywords[0].value->kind, PX_SET);
    /* the rpartition('=') half that state_parameter tries first */
    ck_assert(!pyexpr_parse_params(a, "a: int(accept", &d, &err));
    ck_assert_str_eq(err.text, "def x(a: int(accept): pass\n");
    ck_assert(pyexpr_parse_params(a, "*, a", &d, &err));
    ck_assert(d.has_default); /* kw_defaults == [None] is truthy */
    ck_assert(pyexpr_parse_params(a, "a, /", &d, &err));
    ck_assert_int_eq(d.nargs, 0);
    ck_assert_ptr_null(d.name);
    PyArguments *args = pyexpr_parse_arguments(a, "a, /, b=1, *c, d, **e", &err);
    ck_assert_ptr_nonnull(args);
    ck_assert_uint_eq(args->nposonlyargs, 1);
    ck_assert_uint_eq(args->nargs, 1);
    ck_assert_str_eq(args->vararg->arg, "c");
    ck_assert_str_eq(args->kwonlyargs[0].arg, "d");
    ck_assert_ptr_null(args->kw_defaults[0]);
    ck_assert_str_eq(args->kwarg->arg, "e");
    arena_free(a);
}
END_TEST

START_TEST(test_default_syntax_error_text)
{
    Arena *a = arena_new();
    PySyntaxError err;
    /* parser errors keep the newline, tokenizer errors do not */
    ck_assert_ptr_null(pyexpr_parse_default(a, "1 +", &err));
    ck_assert_str_eq(err.text, "x = 1 +\n");
    ck_assert_ptr_null(pyexpr_parse_default(a, "'abc", &err));
    ck_assert_str_eq(err.text, "x = 'abc");
    ck_assert_ptr_null(pyexpr_parse_default(a, "a b 1_", &err));
    ck_assert_str_eq(err.text, "x = a b 1_");
    ck_assert_ptr_null(pyexpr_parse_default(a, "'\\x4'", &err));
    ck_assert_str_eq(err.text, "x = '\\x4'\n");
    arena_free(a);
}
END_TEST

START_TEST(test_eval_source)
{
    Clinic *c = eval_clinic();
    Arena *a = c->arena;
    PyValue v;
    PyException exc;
    /* valid after "x = " but not as eval()'s expression */
    ck_assert(!eval_source(c, "*a", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert_str_eq(exc.repr, "SyntaxError('invalid syntax', ('<string>', 1, 1, '*a', 1, 2))");
    ck_assert(!eval_source(c, "1; 2", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert_str_eq(exc.repr, "SyntaxError('invalid syntax', ('<string>', 1, 2, '1; 2', 1, 3))");
    ck_assert(!eval_source(c, "(yield)", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert_str_eq(exc.repr, "SyntaxError(\"'yield' outside function\", ('<string>', 1, 2, None, 1, 7))");
    ck_assert(!eval_source(c, "f(a=1, a=2)", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert_str_eq(exc.repr, "SyntaxError('keyword argument repeated: a', ('<string>', 1, 8, None, 1, 11))");
    ck_assert(eval_source(c, "  sys.maxsize", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert_str_eq(v.s, "9223372036854775807");
    ck_assert(eval_source(c, "unspecified", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert_int_eq(v.kind, PY_UNSPECIFIED);
    ck_assert(!eval_source(c, "[][0]", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert_str_eq(exc.repr, "IndexError('list index out of range')");
    ck_assert(!eval_source(c, "1 << 2**40", PY_SCOPE_STATE_PARAMETER, &v, &exc));
    ck_assert_str_eq(exc.repr, "MemoryError()");
    ck_assert_str_eq(pyexpr_exception_line(a, &exc), "MemoryError");
    /* the traceback's last line: the type, then str() of the exception */
    ck_assert(!eval_source(c, "bar", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(pyexpr_exception_line(a, &exc),
                     "NameError: name 'bar' is not defined");
    ck_assert(!eval_source(c, "1 // 0", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(pyexpr_exception_line(a, &exc),
                     "ZeroDivisionError: integer division or modulo by zero");
    ck_assert(!eval_source(c, "{}[int]", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(exc.repr, "KeyError(<class 'int'>)");
    ck_assert_str_eq(pyexpr_exception_line(a, &exc), "KeyError: <class 'int'>");
    ck_assert(!eval_source(c, "10.0 ** 400", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(exc.repr, "OverflowError(34, 'Numerical result out of range')");
    ck_assert_str_eq(pyexpr_exception_line(a, &exc),
                     "OverflowError: (34, 'Numerical result out of range')");
    ck_assert(!eval_source(c, "'a' + 1", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(exc.repr, "TypeError('can only concatenate str (not \"int\") to str')");
    ck_assert_str_eq(pyexpr_exception_line(a, &exc),
                     "TypeError: can only concatenate str (not \"int\") to str");
    ck_assert(!eval_source(c, "*a", PY_SCOPE_GLOBALS, &v, &exc));
    ck_assert_str_eq(pyexpr_exception_line(a, &exc),
                     "SyntaxError: invalid syntax (<string>, line 1)");
    clinic_free(c);
}
END_TEST

static Suite *pyexpr_suite(void)
{
    Suite *s = suite_create("pyexpr");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_python_table);
    tcase_add_test(tc, test_float_repr);
    tcase_add_test(tc, test_complex_repr);
    tcase_add_test(tc, test_str_repr);
    tcase_add_test(tc, test_value_repr);
    tcase_add_test(tc, test_int_literals);
    tcase_add_test(tc, test_truthy_equal);
    tcase_add_test(tc, test_eval_namespace);
    tcase_add_test(tc, test_eval_compiles_first);
    tcase_add_test(tc, test_eval_computed);
    tcase_add_test(tc, test_nodes);
    tcase_add_test(tc, test_walk);
    tcase_add_test(tc, test_params);
    tcase_add_test(tc, test_default_syntax_error_text);
    tcase_add_test(tc, test_eval_source);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return unit_run(pyexpr_suite());
}
