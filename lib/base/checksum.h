/*
 * checksum.h — clinic.py's compute_checksum: the first N hex digits of
 * the SHA-1 of the UTF-8 text.  The SHA-1 comes from OpenSSL's libcrypto.
 */
#ifndef CLINIC_CHECKSUM_H
#define CLINIC_CHECKSUM_H

#include <stddef.h>

/* A SHA-1 in hex digits, and the part of it an end marker shows
   (output=... and input=...). */
#define CHECKSUM_HEX_LEN 40
#define CHECKSUM_MARKER_LEN 16

/* Writes n (<= CHECKSUM_HEX_LEN) hex digits and a NUL to out (n + 1
   bytes). */
void checksum_compute(const char *text, size_t len, int n, char *out);

#endif
