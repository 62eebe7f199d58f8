/*
 * unit.h — what the unit suites (tests/unit/check_*.c) share: a context
 * for one file as the command makes it, and the suite runner whose
 * counts tests/unit/run_unit.sh adds up.
 */
#ifndef CLINIC_UNIT_H
#define CLINIC_UNIT_H

#include <check.h>
#include <stdlib.h>

#include "drive/clinic.h"

/* A context for a file named filename in dialect (NULL: the default),
   with the default target and options; free it with clinic_free(). */
static inline Clinic *unit_clinic(const char *filename, const Dialect *dialect)
{
    ClinicOptions o = {0};
    o.dialect = dialect;
    return clinic_new(filename, &o);
}

/* Runs the suite and frees it; the exit status of a suite's main(). */
static inline int unit_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
