/*
 * target.c — the targets clinic writes code for, as data (target.h).
 *
 * "portable" renders exactly what the dialect in force writes for code
 * built outside CPython's core (no internal header, no keyword tuple of
 * the core's strings), then renames every private or version-bound name
 * the parsers use to the helper of clinic_portable.h that stands for it
 * (each helper is named after the name it replaces: _PyArg_X becomes
 * ClinicArg_X, the PyTuple_X macros ClinicTuple_X, which are functions
 * under the Limited API), and has the header included before the first
 * generated line of each destination that needs it.  Every dialect goes
 * through the same tables: what a newer dialect names differently is one
 * more row here, never a test of the dialect.
 */
#include "model/target.h"

#include <string.h>

#include "base/strbuf.h"

/* The portable header, embedded at build time (Makefile: build/gen/). */
extern const char portable_header_text[];

static const Target target_3_11 = {
    .name = "3.11",
    .summary = "CPython 3.11's own build: clinic.py's output, byte for byte",
};

/* Sorted by strcmp (crename_sorted() checks it in check_target). */
static const CRename portable_names[] = {
    {"PyArg_Parse", "ClinicArg_Parse"},
    {"PyArg_ParseTuple", "ClinicArg_ParseTuple"},
    {"PyByteArray_AS_STRING", "ClinicByteArray_AS_STRING"},
    {"PyByteArray_GET_SIZE", "ClinicByteArray_GET_SIZE"},
    {"PyBytes_AS_STRING", "ClinicBytes_AS_STRING"},
    {"PyBytes_GET_SIZE", "ClinicBytes_GET_SIZE"},
    {"PyComplex_AsCComplex", "ClinicComplex_AsCComplex"},
    {"PyDict_GET_SIZE", "ClinicDict_GET_SIZE"},
    {"PyFloat_AS_DOUBLE", "ClinicFloat_AS_DOUBLE"},
    {"PyFloat_AsDouble", "ClinicFloat_AsDouble"},
    {"PyLong_AsInt", "ClinicLong_AsInt"},
    {"PyLong_AsLong", "ClinicLong_AsLong"},
    {"PyLong_AsLongLong", "ClinicLong_AsLongLong"},
    {"PyLong_AsNativeBytes", "ClinicLong_AsNativeBytes"},
    {"PyLong_AsUnsignedLongLongMask", "ClinicLong_AsUnsignedLongLongMask"},
    {"PyLong_AsUnsignedLongMask", "ClinicLong_AsUnsignedLongMask"},
    {"PyMem_FREE", "PyMem_Free"},
    {"PyObject_AsFileDescriptor", "ClinicObject_AsFileDescriptor"},
    {"PyTuple_FromArray", "ClinicTuple_FromArray"},
    {"PyTuple_GET_ITEM", "ClinicTuple_GET_ITEM"},
    {"PyTuple_GET_SIZE", "ClinicTuple_GET_SIZE"},
    {"PyTuple_SET_ITEM", "ClinicTuple_SET_ITEM"},
    {"PyUnicode_FSDecoder", "ClinicUnicode_FSDecoder"},
    {"PyUnicode_GET_LENGTH", "ClinicUnicode_GET_LENGTH"},
    {"PyUnicode_READY", "ClinicUnicode_READY"},
    {"PyUnicode_READ_CHAR", "ClinicUnicode_READ_CHAR"},
    {"Py_NewRef", "Clinic_NewRef"},
    {"Py_UNICODE", "wchar_t"},
    {"_PyArg_BadArgument", "ClinicArg_BadArgument"},
    {"_PyArg_CheckPositional", "ClinicArg_CheckPositional"},
    {"_PyArg_NoKeywords", "ClinicArg_NoKeywords"},
    {"_PyArg_NoPositional", "ClinicArg_NoPositional"},
    {"_PyArg_ParseStack", "ClinicArg_ParseStack"},
    {"_PyArg_ParseStackAndKeywords", "ClinicArg_ParseStackAndKeywords"},
    {"_PyArg_ParseTupleAndKeywordsFast", "ClinicArg_ParseTupleAndKeywordsFast"},
    {"_PyArg_Parser", "ClinicArg_Parser"},
    {"_PyArg_UnpackKeywords", "ClinicArg_UnpackKeywords"},
    {"_PyArg_UnpackKeywordsWithVararg", "ClinicArg_UnpackKeywordsWithVararg"},
    {"_PyCFunction_CAST", "ClinicCFunction_CAST"},
    {"_PyEval_SliceIndex", "ClinicEval_SliceIndex"},
    {"_PyEval_SliceIndexNotNone", "ClinicEval_SliceIndexNotNone"},
    {"_PyLong_AsInt", "ClinicLong_AsInt"},
    {"_PyLong_FileDescriptor_Converter", "ClinicLong_FileDescriptor_Converter"},
    {"_PyLong_Size_t_Converter", "ClinicLong_Size_t_Converter"},
    {"_PyLong_UInt16_Converter", "ClinicLong_UInt16_Converter"},
    {"_PyLong_UInt32_Converter", "ClinicLong_UInt32_Converter"},
    {"_PyLong_UInt64_Converter", "ClinicLong_UInt64_Converter"},
    {"_PyLong_UInt8_Converter", "ClinicLong_UInt8_Converter"},
    {"_PyLong_UnsignedInt_Converter", "ClinicLong_UnsignedInt_Converter"},
    {"_PyLong_UnsignedLongLong_Converter", "ClinicLong_UnsignedLongLong_Converter"},
    {"_PyLong_UnsignedLong_Converter", "ClinicLong_UnsignedLong_Converter"},
    {"_PyLong_UnsignedShort_Converter", "ClinicLong_UnsignedShort_Converter"},
    {"_PyNumber_Index", "PyNumber_Index"},
    {"_PyTuple_FromArray", "ClinicTuple_FromArray"},
    {"_PyUnicode_WideCharString_Converter", "ClinicUnicode_WideCharString_Converter"},
    {"_PyUnicode_WideCharString_Opt_Converter", "ClinicUnicode_WideCharString_Opt_Converter"},
    {"_Py_convert_optional_to_ssize_t", "Clinic_convert_optional_to_ssize_t"},};

/* 3.11's __new__ and __init__ parsers pass a tuple's item array; the
   Limited API has no way to it, the helper takes the tuple.  CPython
   builds with -Wno-missing-field-initializers and -Wno-unused-parameter,
   an extension may not: a Py_buffer starts out as {0} (all of it zero,
   as {NULL, NULL} makes it), a format string's parser struct gets its
   fourth field, 3.12's keyword tuple (NULL outside the core) none,
   3.13's PyGetSetDef lines their closure (NULL), and a static method's
   parser marks its unused first parameter (3.13's defining-class method
   without parameters its arguments). */
static const TargetRewrite portable_rewrites[] = {
    {", _keywords, 0};", ", _keywords, 0, NULL};"},
    {"        .kwtuple = KWTUPLE,\n", ""},
    {" = {NULL, NULL};", " = {0};"},
    {"(void *null, ", "(void *Py_UNUSED(null), "},
    {"PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)\n"
     "{\n"
     "    if (nargs || (kwnames && ClinicTuple_GET_SIZE(kwnames))) {",
     "PyObject *const *Py_UNUSED(args), Py_ssize_t nargs, PyObject *kwnames)\n"
     "{\n"
     "    if (nargs || (kwnames && ClinicTuple_GET_SIZE(kwnames))) {"},
    {"_DOCSTR},\n", "_DOCSTR, NULL},\n"},
    {"_set, NULL},\n", "_set, NULL, NULL},\n"},
    {"ClinicArg_UnpackKeywords(_PyTuple_CAST(args)->ob_item,",
     "ClinicArg_UnpackKeywordsFromTuple(args,"},
    {"ClinicArg_UnpackKeywordsWithVararg(_PyTuple_CAST(args)->ob_item,",
     "ClinicArg_UnpackKeywordsWithVarargFromTuple(args,"},
};

/* __new__ and __init__ compare slots to see whether a subclass
   overrides them; the Limited API reads them with PyType_GetSlot(). */
static const TargetMember portable_members[] = {
    {"tp_init", "ClinicType_TP_INIT"},
    {"tp_new", "ClinicType_TP_NEW"},
};

/* What the Limited API 3.10 (the oldest with METH_FASTCALL) lacks. */
static const TargetRefusal portable_limited_refusals[] = {
    {"PyBytesObject", NULL, "PyBytesObject is not in the Limited API"},
    {"PyByteArrayObject", NULL,
     "PyByteArrayObject is not in the Limited API"},
    {"Py_complex", NULL, "Py_complex is not in the Limited API"},
    {"Py_buffer", NULL,
     "Py_buffer is in the Limited API from 3.11 only (the code must build "
     "with 3.10's)"},
    {"str", "y y# s# z#",
     "str(accept={robuffer}) reads a bytes-like object through the buffer "
     "protocol, in the Limited API from 3.11 only"},
};

/* Public from 3.13 on; the header makes them nothing before (a GIL
   serialises the calls there), as pythoncapi_compat.h does, token for
   token, so that both headers may be included. */
static const char *const portable_header_supplies[] = {
    "Py_BEGIN_CRITICAL_SECTION", "Py_END_CRITICAL_SECTION", NULL,
};

static const Target target_portable = {
    .name = "portable",
    .summary = "any CPython from 3.9 on, public API only; abi3 with "
               "Py_LIMITED_API 3.10+",
    .api_names = {portable_names,
                  sizeof portable_names / sizeof *portable_names},
    .rewrites = portable_rewrites,
    .nrewrites = sizeof portable_rewrites / sizeof *portable_rewrites,
    .members = portable_members,
    .nmembers = sizeof portable_members / sizeof *portable_members,
    .preamble = "#define CLINIC_PORTABLE_DIALECT 0x%02X%02X0000\n"
                "#include \"clinic_portable.h\"\n\n",
    .helper_prefix = "Clinic",
    .header_supplies = portable_header_supplies,
    .keyword_given = "ClinicArg_KeywordGiven",
    .outside_core = true,
    .header_name = "clinic_portable.h",
    .header_text = portable_header_text,
    .header_mark = "/*\n * clinic_portable.h -- what the argument parsers "
                   "that clinic writes with\n",
    .limited_refusals = portable_limited_refusals,
    .nlimited_refusals = sizeof portable_limited_refusals /
                         sizeof *portable_limited_refusals,
};

const Target *const targets[] = {&target_3_11, &target_portable, NULL};

const Target *target_default(void)
{
    return targets[0];
}

const Target *target_find(const char *name)
{
    for (size_t i = 0; targets[i]; i++)
        if (!strcmp(targets[i]->name, name))
            return targets[i];
    return NULL;
}

/* Every occurrence of from in text replaced by to. */
static const char *replace_all(Arena *a, const char *text, const char *from,
                               const char *to)
{
    const char *hit = strstr(text, from);
    if (!hit)
        return text;
    StrBuf sb = STRBUF_INIT;
    size_t nfrom = strlen(from);
    for (; hit; text = hit + nfrom, hit = strstr(text, from)) {
        sb_add(&sb, text, (size_t)(hit - text));
        sb_adds(&sb, to);
    }
    sb_adds(&sb, text);
    return sb_take(&sb, a);
}

static bool is_name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '_';
}

/* Where the operand of the member access at `at` ("->" or ".") starts:
   a name, or a name and its parenthesized arguments; NULL if neither. */
static const char *operand_start(const char *text, const char *at)
{
    const char *p = at;
    if (p > text && p[-1] == ')') {
        int depth = 0;
        do {
            p--;
            if (*p == ')')
                depth++;
            else if (*p == '(')
                depth--;
        } while (depth && p > text);
        if (depth)
            return NULL;
    }
    while (p > text && is_name_char(p[-1]))
        p--;
    return p < at && !(*p >= '0' && *p <= '9') ? p : NULL;
}

/* "E->member" and "V.member" read through m->macro (TargetMember). */
static const char *rewrite_member(Arena *a, const char *text,
                                  const TargetMember *m)
{
    size_t n = strlen(m->member);
    StrBuf sb = STRBUF_INIT;
    const char *done = text;   /* copied up to here */
    for (const char *hit = strstr(text, m->member); hit;
         hit = strstr(hit + n, m->member)) {
        if (is_name_char(hit[n]))
            continue;
        bool arrow = hit - text >= 2 && hit[-2] == '-' && hit[-1] == '>';
        bool dot = !arrow && hit > text && hit[-1] == '.';
        if (!arrow && !dot)
            continue;
        const char *access = hit - (arrow ? 2 : 1);
        const char *start = operand_start(text, access);
        if (!start || start < done)
            continue;
        sb_add(&sb, done, (size_t)(start - done));
        sb_addf(&sb, "%s(%s%.*s)", m->macro, dot ? "&" : "",
                (int)(access - start), start);
        done = hit + n;
    }
    if (done == text) {
        sb_free(&sb);
        return text;
    }
    sb_adds(&sb, done);
    return sb_take(&sb, a);
}

const char *target_rewrite(Arena *a, const Target *t, const char *text,
                           bool *uses_helpers)
{
    const char *original = text;
    *uses_helpers = false;
    if (!t->api_names.n || !*text)
        return text;
    text = crename_text(a, text, &t->api_names, NULL);
    for (size_t i = 0; i < t->nrewrites; i++)
        text = replace_all(a, text, t->rewrites[i].from, t->rewrites[i].to);
    for (size_t i = 0; i < t->nmembers; i++)
        text = rewrite_member(a, text, &t->members[i]);
    /* (a rename to public API, "wchar_t" for Py_UNICODE, needs none) */
    *uses_helpers = text != original && t->helper_prefix &&
                    strstr(text, t->helper_prefix);
    for (size_t i = 0; !*uses_helpers && t->header_supplies &&
                       t->header_supplies[i]; i++)
        *uses_helpers = strstr(text, t->header_supplies[i]) != NULL;
    return text;
}

/* Whether format unit unit is one of the space-separated list's. */
static bool unit_listed(const char *list, const char *unit)
{
    size_t n = strlen(unit);
    for (const char *p = list; *p; ) {
        size_t len = strcspn(p, " ");
        if (len == n && !strncmp(p, unit, n))
            return true;
        p += len;
        p += strspn(p, " ");
    }
    return false;
}

const char *target_limited_refusal(const Target *t, const Converter *conv)
{
    for (size_t i = 0; i < t->nlimited_refusals; i++) {
        const TargetRefusal *r = &t->limited_refusals[i];
        /* a converter a python block derives inherits the refusal */
        for (const ConverterClass *cls = conv->cls; cls; cls = cls->base) {
            if (strcmp(cls->name, r->converter))
                continue;
            if (!r->format_units ||
                (conv->format_unit && unit_listed(r->format_units,
                                                  conv->format_unit)))
                return r->reason;
        }
    }
    return NULL;
}

/* 3.13's LIMITED_CAPI_REGEX, r'# *define +Py_LIMITED_API', searched
   anywhere in the text (the 3.13 dialect's test too: driver.c). */
int target_limited_api_line(const char *text, size_t len)
{
    const char *end = text + len;
    for (const char *p = text; (p = memchr(p, '#', (size_t)(end - p)));
         p++) {
        const char *q = p + 1;
        while (q < end && *q == ' ')
            q++;
        if ((size_t)(end - q) < 6 || memcmp(q, "define", 6) != 0)
            continue;
        q += 6;
        if (q >= end || *q != ' ')
            continue;
        while (q < end && *q == ' ')
            q++;
        if ((size_t)(end - q) >= 14 &&
            memcmp(q, "Py_LIMITED_API", 14) == 0) {
            int line = 1;
            for (const char *r = text; (r = memchr(r, '\n',
                                                   (size_t)(p - r))); r++)
                line++;
            return line;
        }
    }
    return 0;
}
