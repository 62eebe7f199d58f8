/*
 * checksum.c — clinic.py's compute_checksum(): the SHA-1 hex digest of
 * the text, cut to the first n digits.  The end marker of every block
 * carries two of these (output and input), so tampering is detected.
 */
#include "checksum.h"

#include <stdint.h>
#include <nettle/sha1.h>

void checksum_compute(const char *text, size_t len, int n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    uint8_t digest[SHA1_DIGEST_SIZE];
    struct sha1_ctx ctx;

    /* nettle picks its SHA-1 compression function once, by the CPU's
       features (the SHA extensions where present): nothing to set up */
    sha1_init(&ctx);
    if (len)
        sha1_update(&ctx, len, (const uint8_t *)text);
    sha1_digest(&ctx, SHA1_DIGEST_SIZE, digest);

    /* s[:n] of a 40-digit string: never more than 40 digits.  (Python's
       compute_checksum(s, 0) means "all 40"; the caller decides that.) */
    if (n < 0)
        n = 0;
    if (n > 2 * SHA1_DIGEST_SIZE)
        n = 2 * SHA1_DIGEST_SIZE;
    for (int i = 0; i < n; i++) {
        uint8_t byte = digest[i / 2];
        out[i] = hex[i % 2 ? byte & 0xf : byte >> 4];
    }
    out[n] = '\0';
}
