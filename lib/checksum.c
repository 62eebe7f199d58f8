/*
 * checksum.c — clinic.py's compute_checksum(): the SHA-1 hex digest of
 * the text, cut to the first n digits.  The end marker of every block
 * carries two of these (output and input), so tampering is detected.
 */
#include "checksum.h"

#include <stdint.h>
#include <sha1.h>

void checksum_compute(const char *text, size_t len, int n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    uint8_t digest[SHA1_DIGEST_LENGTH];
    SHA1_CTX ctx;

    SHA1Init(&ctx);
    if (len)
        SHA1Update(&ctx, (const uint8_t *)text, len);
    SHA1Final(digest, &ctx);

    /* s[:n] of a 40-digit string: never more than 40 digits.  (Python's
       compute_checksum(s, 0) means "all 40"; the caller decides that.) */
    if (n < 0)
        n = 0;
    if (n > 2 * SHA1_DIGEST_LENGTH)
        n = 2 * SHA1_DIGEST_LENGTH;
    for (int i = 0; i < n; i++) {
        uint8_t byte = digest[i / 2];
        out[i] = hex[i % 2 ? byte & 0xf : byte >> 4];
    }
    out[n] = '\0';
}
