/*
 * message.c — formatting the dialects' messages: "%s" puts an argument
 * as it is, "%r" as Python's repr() shows it, "%2$s" names the argument
 * to use, "%%" is '%'.  A message that asks for an argument it was not
 * given gets "?" there (a mismatch between a table and a call site).
 */
#include "model/message.h"

#include <string.h>

#include "python/pyexpr.h"

const char *message_format(Clinic *c, DialectMessage id,
                           const char *const *args)
{
    const char *fmt = dialect_message(c->dialect, id);
    size_t nargs = 0, next = 0;
    while (args && args[nargs])
        nargs++;

    StrBuf sb = STRBUF_INIT;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') {
            sb_addc(&sb, *p);
            continue;
        }
        p++;
        if (*p == '%') {
            sb_addc(&sb, '%');
            continue;
        }
        size_t index = next++;
        if (p[0] >= '1' && p[0] <= '9' && p[1] == '$') {
            index = (size_t)(p[0] - '1');
            p += 2;
        }
        const char *arg = index < nargs ? args[index] : "?";
        if (*p == 'r')
            sb_adds(&sb, py_repr_str(c->arena, arg, strlen(arg)));
        else
            sb_adds(&sb, arg);
    }
    return sb_take(&sb, c->arena);
}

void clinic_failm(Clinic *c, int line, DialectMessage id,
                  const char *const *args)
{
    clinic_fail(c, line, "%s", message_format(c, id, args));
}

void clinic_warnm(Clinic *c, int line, DialectMessage id,
                  const char *const *args)
{
    clinic_warn(c, line, "%s", message_format(c, id, args));
}

void clinic_failm_note(Clinic *c, int line, const char *note,
                       DialectMessage id, const char *const *args)
{
    clinic_fail_note(c, line, note, "%s", message_format(c, id, args));
}
