/*
 * target.h — what the generated code is written for.  The default target
 * ("3.11") is CPython 3.11's own build: clinic writes what clinic.py
 * writes, byte for byte.  A target is data: "portable" is the same code
 * with CPython's private helpers renamed to those of a header clinic
 * writes beside it (lib/model/portable/clinic_portable.h), a line including that
 * header, and the converters the Limited API cannot express.  The
 * generator and the output stage apply it (gen.c, output.c); nothing
 * else asks which target is in force.
 */
#ifndef CLINIC_TARGET_H
#define CLINIC_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "model/crename.h"
#include "model/model.h"

/* A rewrite of a fixed piece of generated text (for what is more than a
   renamed identifier: 3.11 reaches into a tuple's items). */
typedef struct TargetRewrite {
    const char *from;
    const char *to;
} TargetRewrite;

/* A struct member read through a macro instead: "E->member" and
   "V.member" become "macro(E)" and "macro(&V)" (where E is a name or a
   call such as Py_TYPE(self)), for what the Limited API hides. */
typedef struct TargetMember {
    const char *member;
    const char *macro;
} TargetMember;

/* A converter the target cannot express under the Limited API: refused at
   clinic time, naming the converter and why. */
typedef struct TargetRefusal {
    const char *converter;     /* a converter class name ("Py_buffer") */
    const char *format_units;  /* or: the format units refused, space-
                                  separated ("s# y"); NULL: any */
    const char *reason;
} TargetRefusal;

typedef struct Target {
    const char *name;          /* "3.11", "portable" */
    const char *summary;       /* one line, for --help and --version */
    CRenameTable api_names;    /* identifiers renamed in generated code */
    const TargetRewrite *rewrites;
    size_t nrewrites;
    const TargetMember *members;
    size_t nmembers;
    const char *preamble;      /* written once before a destination's
                                  first text that calls a helper, a
                                  printf format given the dialect's major
                                  and minor version (the helpers answer as
                                  that CPython does); NULL: none */
    const char *helper_prefix; /* the helpers' names start so ("Clinic") */
    const char *const *header_supplies; /* public names of newer CPythons
                                  the header defines for the older ones
                                  (Py_BEGIN_CRITICAL_SECTION before 3.13):
                                  code naming one includes it; NULL-ended */
    const char *keyword_given; /* the function f(keywords, "name") that
                                  says whether a deprecated keyword was
                                  passed (1, 0, or -1 with an exception),
                                  where CPython's core looks the name's
                                  interned str up in kwnames or kwargs;
                                  NULL: the core's way */
    bool outside_core;         /* built outside CPython's core, never with
                                  Py_BUILD_CORE: no internal header is
                                  #included, the keyword parser has the
                                  dialect's Limited API keyword tuple
                                  (none), and a deprecation stops no build
                                  (no #error from the release it names) */
    const char *header_name;   /* the file written beside it; NULL: none */
    const char *header_text;
    const char *header_mark;   /* how every version of header_text has
                                  begun, and must go on beginning: a file
                                  of that name that begins otherwise is
                                  the user's, replaced only with -f */
    const TargetRefusal *limited_refusals;
    size_t nlimited_refusals;
} Target;

/* NULL-terminated, the default first. */
extern const Target *const targets[];

const Target *target_default(void);
const Target *target_find(const char *name);

/* The generated text for the target (text itself when nothing changes);
   *uses_helpers says whether it calls a helper of the target's header. */
const char *target_rewrite(Arena *a, const Target *t, const char *text,
                           bool *uses_helpers);

/* Why the target cannot express converter conv under the Limited API, or
   NULL when it can. */
const char *target_limited_refusal(const Target *t, const Converter *conv);

/* The line (1-based) where text first defines Py_LIMITED_API, as 3.13's
   clinic.py sees it ("#define Py_LIMITED_API", spaces only, anywhere on
   a line), or 0. */
int target_limited_api_line(const char *text, size_t len);

#endif
