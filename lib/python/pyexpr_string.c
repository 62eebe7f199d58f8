/*
 * pyexpr_string.c — string, bytes and f-string literals.
 *
 * Decodes escapes as Python's unicode_escape / escape_decode do (\x, \u,
 * \U, octal, the single-letter escapes; unknown escapes kept), joins
 * adjacent literals, refuses to mix bytes with str, and splits f-strings
 * into the JoinedStr / FormattedValue nodes ast.parse builds, parsing
 * each replacement field's expression with a sub-parser.
 */
#include "python/pyexpr.h"
#include "python/pyexpr_int.h"
#include "python/pyexpr_parse_int.h"

#include <string.h>

static PyExpr *parse_fstring(Parser *p, const char *s, size_t n, size_t start_tok);

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decodes a string body's escapes into sb (Python's unicode_escape or
   escape_decode); returns NULL or the SyntaxError message. */
static const char *decode_escapes(Parser *p, StrBuf *sb, const char *s,
                                  size_t n, bool bytes)
{
    const char *codec = bytes ? "(value error)" : "(unicode error) 'unicodeescape' codec";
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        if (c != '\\') {
            sb_addc(sb, (char)c);
            i++;
            continue;
        }
        if (i + 1 >= n) {
            /* cannot happen: the tokenizer skips the escaped character */
            return arena_printf(p->a, "%s can't decode bytes: \\ at end of string", codec);
        }
        char e = s[i + 1];
        i += 2;
        switch (e) {
        case '\n': break;
        case '\\': sb_addc(sb, '\\'); break;
        case '\'': sb_addc(sb, '\''); break;
        case '"': sb_addc(sb, '"'); break;
        case 'a': sb_addc(sb, '\a'); break;
        case 'b': sb_addc(sb, '\b'); break;
        case 'f': sb_addc(sb, '\f'); break;
        case 'n': sb_addc(sb, '\n'); break;
        case 'r': sb_addc(sb, '\r'); break;
        case 't': sb_addc(sb, '\t'); break;
        case 'v': sb_addc(sb, '\v'); break;
        case '0': case '1': case '2': case '3':
        case '4': case '5': case '6': case '7': {
            unsigned v = (unsigned)(e - '0');
            for (int k = 0; k < 2 && i < n && s[i] >= '0' && s[i] <= '7'; k++)
                v = v * 8 + (unsigned)(s[i++] - '0');
            if (bytes)
                sb_addc(sb, (char)(v & 0xFF));
            else
                utf8_encode(sb, v);
            break;
        }
        case 'x': case 'u': case 'U': {
            int digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
            if (bytes && e != 'x') {
                sb_addc(sb, '\\');
                sb_addc(sb, e);
                break;
            }
            uint32_t v = 0;
            for (int k = 0; k < digits; k++) {
                int h = i + (size_t)k < n ? hexval((unsigned char)s[i + (size_t)k]) : -1;
                if (h < 0) {
                    if (bytes)
                        return arena_printf(p->a, "(value error) invalid \\x escape at position %zu", i - 2);
                    return arena_printf(p->a, "%s can't decode bytes in position %zu-%zu: truncated \\%c%s escape",
                                        codec, i - 2, i - 1 + (size_t)k, e,
                                        e == 'x' ? "XX" : e == 'u' ? "XXXX" : "XXXXXXXX");
                }
                v = v * 16 + (uint32_t)h;
            }
            i += (size_t)digits;
            if (v > 0x10FFFF)
                return arena_printf(p->a, "%s can't decode bytes in position %zu-%zu: illegal Unicode character",
                                    codec, i - 2 - (size_t)digits, i - 1);
            if (bytes)
                sb_addc(sb, (char)v);
            else
                utf8_encode(sb, v);
            break;
        }
        case 'N':
            if (!bytes) {
                /* Needs the Unicode name database, which we do not carry. */
                return arena_printf(p->a, "%s can't decode bytes: \\N{...} escapes are not supported by clinic", codec);
            }
            /* fall through */
        default:
            /* unknown escapes stay as they are */
            sb_addc(sb, '\\');
            i--;
            break;
        }
    }
    return NULL;
}

/* One or more adjacent string literals. */
PyExpr *px_string_literals(Parser *p)
{
    size_t start_tok = p->pos;
    bool bytes = px_tok(p)->bytes, any_f = false, mixed = false;
    StrBuf sb = STRBUF_INIT;
    const char *err = NULL;
    while (px_tok(p)->kind == T_STRING) {
        const Token *t = px_tok(p);
        if (t->bytes != bytes)
            mixed = true;
        if (t->fstring)
            any_f = true;
        p->pos++;
    }
    if (mixed) {
        p->pos = start_tok;
        px_syntax_error(p, "cannot mix bytes and nonbytes literals");
    }
    if (any_f) {
        /* JoinedStr: the f-strings' parts with the plain strings merged */
        ExprList parts = { 0 };
        for (size_t k = start_tok; k < p->pos; k++) {
            const Token *t = &p->lx.toks[k];
            const char *body = p->lx.src + t->body_start;
            size_t blen = t->body_end - t->body_start;
            if (t->fstring) {
                PyExpr *js = parse_fstring(p, body, blen, k);
                for (size_t i = 0; i < js->nitems; i++)
                    px_list_push(p, &parts, js->items[i]);
            } else {
                StrBuf piece = STRBUF_INIT;
                if (t->raw)
                    sb_add(&piece, body, blen);
                else if ((err = decode_escapes(p, &piece, body, blen, false))) {
                    sb_free(&piece);
                    p->pos = start_tok;
                    px_syntax_error(p, err);
                }
                PyExpr *c = px_node(p, PX_CONST, k);
                c->value = py_make_str(NULL, 0);
                c->value.len = piece.len;
                c->value.s = pysb_take(&piece, p->a);
                px_list_push(p, &parts, c);
            }
        }
        /* adjacent constants merge; empty ones vanish */
        ExprList merged = { 0 };
        for (size_t i = 0; i < parts.n; i++) {
            PyExpr *e = parts.items[i];
            if (e->kind == PX_CONST) {
                if (e->value.len == 0)
                    continue;
                if (merged.n && merged.items[merged.n - 1]->kind == PX_CONST) {
                    PyExpr *prev = merged.items[merged.n - 1];
                    PyExpr *c = px_node(p, PX_CONST, start_tok);
                    char *s = arena_alloc(p->a, prev->value.len + e->value.len + 1);
                    memcpy(s, prev->value.s, prev->value.len);
                    memcpy(s + prev->value.len, e->value.s, e->value.len);
                    c->value = py_make_str(s, prev->value.len + e->value.len);
                    merged.items[merged.n - 1] = c;
                    continue;
                }
            }
            px_list_push(p, &merged, e);
        }
        /* a leading u'' marks every constant part */
        if (p->lx.toks[start_tok].u && p->lx.src[p->lx.toks[start_tok].start] == 'u')
            for (size_t i = 0; i < merged.n; i++)
                if (merged.items[i]->kind == PX_CONST)
                    merged.items[i]->const_kind = "u";
        PyExpr *js = px_node(p, PX_JOINEDSTR, start_tok);
        js->items = merged.items;
        js->nitems = merged.n;
        return px_finish(p, js, start_tok);
    }
    for (size_t k = start_tok; k < p->pos && !err; k++) {
        const Token *t = &p->lx.toks[k];
        const char *body = p->lx.src + t->body_start;
        size_t blen = t->body_end - t->body_start;
        if (bytes) {
            for (size_t i = 0; i < blen; i++)
                if ((unsigned char)body[i] >= 0x80) {
                    sb_free(&sb);
                    p->pos = k;
                    px_syntax_error(p, "bytes can only contain ASCII literal characters");
                }
        }
        if (t->raw)
            sb_add(&sb, body, blen);
        else
            err = decode_escapes(p, &sb, body, blen, bytes);
    }
    if (err) {
        sb_free(&sb);
        p->pos = start_tok;
        px_syntax_error(p, err);
    }
    PyExpr *e = px_node(p, PX_CONST, start_tok);
    e->value.kind = bytes ? PY_BYTES : PY_STR;
    e->value.len = sb.len;
    e->value.s = pysb_take(&sb, p->a);
    if (p->lx.toks[start_tok].u && p->lx.src[p->lx.toks[start_tok].start] == 'u')
        e->const_kind = "u";
    return px_finish(p, e, start_tok);
}

/* ---- f-strings ------------------------------------------------------ */

/* Parses src[0..n) as a standalone expression with its own tokens. */
static PyExpr *parse_sub_expression(Parser *p, const char *s, size_t n)
{
    Parser *sub = arena_new_of(p->a, Parser);
    sub->a = p->a;
    char *text = arena_strndup(p->a, s, n);
    if (!pylex(p->a, text, &sub->lx))
        px_syntax_error(p, "f-string: invalid expression");
    if (setjmp(sub->fail)) {
        px_release_held(sub);
        px_syntax_error(p, arena_printf(p->a, "f-string: %s", sub->msg));
    }
    if (sub->lx.toks[0].kind == T_END)
        px_syntax_error(p, "f-string: empty expression not allowed");
    PyExpr *e = px_parse_star_expressions(sub);
    if (px_tok(sub)->kind != T_END)
        px_syntax_error(p, "f-string: invalid syntax");
    return e;
}

static PyExpr *parse_fstring(Parser *p, const char *s, size_t n, size_t start_tok)
{
    const Token *t = &p->lx.toks[start_tok];
    ExprList parts = { 0 };
    StrBuf lit = STRBUF_INIT;
    size_t i = 0;
    if (p->nheld == (int)(sizeof p->held / sizeof p->held[0]))
        px_syntax_error(p, "f-string: expressions nested too deeply");
    p->held[p->nheld++] = &lit;
    while (i < n) {
        char c = s[i];
        if (c == '{' && i + 1 < n && s[i + 1] == '{') {
            sb_addc(&lit, '{');
            i += 2;
            continue;
        }
        if (c == '}' && i + 1 < n && s[i + 1] == '}') {
            sb_addc(&lit, '}');
            i += 2;
            continue;
        }
        if (c == '}')
            px_syntax_error(p, "f-string: single '}' is not allowed");
        if (c != '{') {
            size_t j = i;
            while (j < n && s[j] != '{' && s[j] != '}')
                j++;
            if (t->raw) {
                sb_add(&lit, s + i, j - i);
            } else {
                const char *err = decode_escapes(p, &lit, s + i, j - i, false);
                if (err)
                    px_syntax_error(p, err);
            }
            i = j;
            continue;
        }
        /* a replacement field: find its end, its '!' and its ':' */
        size_t j = i + 1, bang = 0, colon = 0;
        int depth = 0;
        char quote = 0;
        for (; j < n; j++) {
            char d = s[j];
            if (quote) {
                if (d == quote)
                    quote = 0;
                continue;
            }
            if (d == '\'' || d == '"')
                quote = d;
            else if (d == '(' || d == '[' || d == '{')
                depth++;
            else if ((d == ')' || d == ']' || d == '}') && depth > 0)
                depth--;
            else if (d == '}' && depth == 0)
                break;
            else if (depth == 0 && d == '!' && j + 1 < n && s[j + 1] != '=' && !bang && !colon)
                bang = j;
            else if (depth == 0 && d == ':' && !colon)
                colon = j;
            if (colon)
                break;
        }
        if (colon) {
            /* the spec runs to the matching '}' */
            int sd = 0;
            for (j = colon + 1; j < n; j++) {
                if (s[j] == '{')
                    sd++;
                else if (s[j] == '}' && sd-- == 0)
                    break;
            }
        }
        if (j >= n)
            px_syntax_error(p, "f-string: expecting '}'");
        size_t expr_end = bang ? bang : colon ? colon : j;
        /* "{x=}": the expression text itself, then its repr by default */
        bool debug = false;
        size_t e_end = expr_end;
        while (e_end > i + 1 && s[e_end - 1] == ' ')
            e_end--;
        if (e_end > i + 1 && s[e_end - 1] == '=' &&
            !(e_end > i + 2 && strchr("=!<>", s[e_end - 2]))) {
            debug = true;
            sb_add(&lit, s + i + 1, expr_end - i - 1);
            e_end--;
        } else {
            e_end = expr_end;
        }
        if (lit.len) {
            PyExpr *cst = px_node(p, PX_CONST, start_tok);
            cst->value.kind = PY_STR;
            cst->value.len = lit.len;
            cst->value.s = pysb_take(&lit, p->a);
            px_list_push(p, &parts, cst);
        }
        /* Python 3.11's f-string rules for the expression's text: no
           backslash anywhere, no '#' outside its strings */
        char in_quote = 0;
        for (size_t k = i + 1; k < expr_end; k++) {
            if (s[k] == '\\')
                px_syntax_error(p, "f-string expression part cannot include "
                                   "a backslash");
            if (in_quote) {
                if (s[k] == in_quote)
                    in_quote = 0;
            } else if (s[k] == '\'' || s[k] == '"') {
                in_quote = s[k];
            } else if (s[k] == '#') {
                px_syntax_error(p, "f-string expression part cannot include "
                                   "'#'");
            }
        }
        PyExpr *fv = px_node(p, PX_FORMATTEDVALUE, start_tok);
        fv->left = parse_sub_expression(p, s + i + 1, e_end - i - 1);
        fv->conversion = debug && !colon ? 'r' : -1;
        if (bang) {
            char conv = bang + 1 < n ? s[bang + 1] : 0;
            if (!strchr("sra", conv) || conv == 0)
                px_syntax_error(p, "f-string: invalid conversion character: expected 's', 'r', or 'a'");
            fv->conversion = conv;
        }
        if (colon) {
            PyExpr *spec = parse_fstring(p, s + colon + 1, j - colon - 1, start_tok);
            fv->test = spec;
        }
        px_list_push(p, &parts, fv);
        i = j + 1;
    }
    if (lit.len) {
        PyExpr *cst = px_node(p, PX_CONST, start_tok);
        cst->value.kind = PY_STR;
        cst->value.len = lit.len;
        cst->value.s = pysb_take(&lit, p->a);
        px_list_push(p, &parts, cst);
    }
    p->nheld--;
    sb_free(&lit);
    PyExpr *js = px_node(p, PX_JOINEDSTR, start_tok);
    js->items = parts.items;
    js->nitems = parts.n;
    return js;
}
