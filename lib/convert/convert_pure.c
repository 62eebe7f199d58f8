/*
 * convert_pure.c — code before a parse call that has no effect, so that it
 * may stay in the _impl where it was written and run after the parsing:
 * an expression that assigns nothing and calls only what reads module
 * state (CPython's getters, or a function of the file whose body is
 * proved to do no more), and "assert(EXPR);" of such an expression.
 * The helper is judged by its body, never by its name.
 */
#include <string.h>

#include "convert/convert_int.h"

/* CPython's calls that read a module's state or a type, and change
   nothing a later statement could see. */
static const char *const state_getters[] = {
    "PyType_GetModuleState", "_PyType_GetModuleState", "PyModule_GetState",
    "_PyModule_GetState", "PyType_GetModule", "PyType_GetModuleByDef",
    "Py_TYPE", "sizeof", NULL
};

/* How deep helpers calling helpers are followed. */
#define MAX_HELPER_DEPTH 4

static bool pure_tokens(const Conv *cv, int from, int to, int depth);

/* The file defines name as a function whose body only declares
   variables with effect-free initialisers, asserts, and returns an
   effect-free expression. */
static bool pure_helper(const Conv *cv, const char *name, int depth)
{
    if (depth >= MAX_HELPER_DEPTH)
        return false;
    int open = -1;
    for (int i = 0; i + 1 < cv->ntoks; i++)
        if (cv->toks[i].depth == 0 && ctok_ident(cv, i, name) &&
            ctok_is(cv, i + 1, "(") && cv->toks[i + 1].match > 0 &&
            ctok_is(cv, cv->toks[i + 1].match + 1, "{")) {
            if (open >= 0)
                return false;   /* defined twice (#if branches): unread */
            open = cv->toks[i + 1].match + 1;
        }
    if (open < 0)
        return false;
    int close = cv->toks[open].match;
    bool returned = false;
    for (int i = open + 1; i < close;) {
        if (cv->toks[i].kind == TK_PP || returned)
            return false;
        int semi = find_semicolon(cv, i, close);
        if (semi < 0)
            return false;
        if (ctok_ident(cv, i, "return")) {
            if (!pure_tokens(cv, i + 1, semi, depth + 1))
                return false;
            returned = true;
        } else if (!conv_pure_statement(cv, i, semi + 1, depth + 1)) {
            /* a declaration "TYPE *name = EXPR;" */
            int eq = i;
            while (eq < semi && !ctok_is(cv, eq, "="))
                eq++;
            for (int k = i; k < eq; k++)
                if (cv->toks[k].kind != TK_IDENT && !ctok_is(cv, k, "*"))
                    return false;
            if (eq - i < 2 || eq == semi ||
                !pure_tokens(cv, eq + 1, semi, depth + 1))
                return false;
        }
        i = semi + 1;
    }
    return returned;
}

/* Tokens [from, to) of an expression: no assignment, no increment, no
   call but to a state getter or a pure helper. */
static bool pure_tokens(const Conv *cv, int from, int to, int depth)
{
    for (int i = from; i < to; i++) {
        const Tok *t = &cv->toks[i];
        if (t->kind == TK_PP)
            return false;
        if (t->kind == TK_PUNCT &&
            (ctok_is(cv, i, "=") || ctok_is(cv, i, "++") || ctok_is(cv, i, "--") ||
             (t->len >= 2 && cv->text[t->start + t->len - 1] == '=' &&
              !ctok_is(cv, i, "==") && !ctok_is(cv, i, "!=") &&
              !ctok_is(cv, i, "<=") && !ctok_is(cv, i, ">="))))
            return false;
        if (t->kind == TK_IDENT && ctok_is(cv, i + 1, "(") && i + 1 < to) {
            const char *name = ctok_str(cv, i);
            if (!in_list(state_getters, name) && !pure_helper(cv, name, depth))
                return false;
        }
    }
    return true;
}

bool conv_pure_expression(const Conv *cv, int from, int to)
{
    return from < to && pure_tokens(cv, from, to, 0);
}

bool conv_pure_statement(const Conv *cv, int from, int to, int depth)
{
    /* assert ( EXPR ) ; */
    return to - from >= 5 && ctok_ident(cv, from, "assert") &&
           ctok_is(cv, from + 1, "(") && cv->toks[from + 1].match == to - 2 &&
           ctok_is(cv, to - 1, ";") &&
           pure_tokens(cv, from + 2, to - 2, depth);
}
