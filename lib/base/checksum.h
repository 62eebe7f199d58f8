/*
 * checksum.h — clinic.py's compute_checksum: the first N hex digits of
 * the SHA-1 of the UTF-8 text.  The SHA-1 comes from OpenSSL's libcrypto.
 */
#ifndef CLINIC_CHECKSUM_H
#define CLINIC_CHECKSUM_H

#include <stddef.h>

/* Writes n (<= 40) hex digits and a NUL to out (n + 1 bytes). */
void checksum_compute(const char *text, size_t len, int n, char *out);

#endif
