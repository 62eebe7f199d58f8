/*
 * message.h — errors and warnings in the file's dialect's wording: the
 * messages whose text differs between the Argument Clinic versions
 * (dialect.h's DialectMessage) are raised through here, with their
 * arguments, so each dialect words them its own way.
 */
#ifndef CLINIC_MESSAGE_H
#define CLINIC_MESSAGE_H

#include "base/context.h"

/* The arguments of a message: strings, NULL-terminated. */
#define MSG_ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The message in c's dialect, formatted (see DialectMessage). */
const char *message_format(Clinic *c, DialectMessage id,
                           const char *const *args);

/* clinic_fail() and clinic_warn() with that message. */
CLINIC_NORETURN void clinic_failm(Clinic *c, int line, DialectMessage id,
                                  const char *const *args);
void clinic_warnm(Clinic *c, int line, DialectMessage id,
                  const char *const *args);
/* clinic_fail_note() with that message: the note (or NULL) after it. */
CLINIC_NORETURN void clinic_failm_note(Clinic *c, int line, const char *note,
                                       DialectMessage id,
                                       const char *const *args);

#endif
