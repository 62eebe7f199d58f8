/*
 * text_c_literal.c — Python bytes and str values as C string literals,
 * escaped as 3.14's Argument Clinic writes its C defaults (formatting.py's
 * c_bytes_repr and c_str_repr): octal escapes, because a "\x" escape in C
 * runs on over every hexadecimal digit that follows it.
 */
#include <string.h>

#include "base/strbuf.h"
#include "base/text.h"

/* One byte below 0x80 (or any byte of bytes) as c_repr writes it. */
static void add_c_char(StrBuf *sb, unsigned char ch)
{
    static const char escapes[] = "\"\\\a\b\f\n\r\t\v";
    static const char letters[] = "\"\\abfnrtv";
    const char *e = ch ? strchr(escapes, ch) : NULL;
    if (e) {
        sb_addc(sb, '\\');
        sb_addc(sb, letters[e - escapes]);
    } else if (ch >= 32 && ch < 127) {
        sb_addc(sb, (char)ch);
    } else {
        sb_addf(sb, "\\%03o", ch);
    }
}

/* _break_trigraphs(): no "??" (a trigraph's start) and nothing a C
   comment could take for its start or end. */
static char *break_trigraphs(Arena *a, StrBuf *sb)
{
    char *s = sb_take(sb, a);
    if (strstr(s, "??"))
        s = text_replace(a, text_replace(a, s, "??", "?\\?"), "\\??",
                         "\\?\\?");
    if (strstr(s, "/*"))
        s = text_replace(a, s, "/*", "/\\*");
    if (strstr(s, "*/"))
        s = text_replace(a, s, "*/", "*\\/");
    return s;
}

char *text_c_bytes_chars(Arena *a, const char *s, size_t n)
{
    StrBuf sb = STRBUF_INIT;
    for (size_t i = 0; i < n; i++)
        add_c_char(&sb, (unsigned char)s[i]);
    return break_trigraphs(a, &sb);
}

char *text_c_bytes_repr(Arena *a, const char *s, size_t n)
{
    return arena_printf(a, "\"%s\"", text_c_bytes_chars(a, s, n));
}

char *text_c_str_repr(Arena *a, const char *s, size_t n)
{
    StrBuf sb = STRBUF_INIT;
    sb_addc(&sb, '"');
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        unsigned long cp = p[i];
        int more = cp < 0x80 ? 0 : cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : 1;
        if (more) {
            cp &= 0x3Fu >> more;
            for (int k = 1; k <= more && i + (size_t)k < n; k++)
                cp = (cp << 6) | (p[i + (size_t)k] & 0x3F);
        }
        i += (size_t)more + 1;
        if (cp < 0x80)
            add_c_char(&sb, (unsigned char)cp);
        else if (cp < 0x10000)
            sb_addf(&sb, "\\u%04lx", cp);
        else
            sb_addf(&sb, "\\U%08lx", cp);
    }
    sb_addc(&sb, '"');
    return break_trigraphs(a, &sb);
}
