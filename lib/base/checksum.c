/*
 * checksum.c — clinic.py's compute_checksum(): the SHA-1 hex digest of
 * the text, cut to the first n digits.  The end marker of every block
 * carries two of these (output and input), so tampering is detected.
 *
 * The SHA-1 is OpenSSL's libcrypto, linked statically (the Makefile says
 * why).  Its low-level SHA1_* calls are used, not EVP: EVP looks the
 * digest up in a provider for every context, which costs more than
 * hashing a typical block, and would pull all of libcrypto into the
 * binary.  OpenSSL 3 marks these calls deprecated in favour of EVP;
 * should a release drop them, this file is the one place to change.
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "base/checksum.h"

#include <openssl/sha.h>

void checksum_compute(const char *text, size_t len, int n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    unsigned char digest[SHA_DIGEST_LENGTH];
    SHA_CTX ctx;

    /* libcrypto picks its compression function by the CPU's features
       (the SHA extensions, else AVX2, AVX or SSSE3) when the program
       starts: nothing to set up here */
    SHA1_Init(&ctx);
    if (len)
        SHA1_Update(&ctx, text, len);
    SHA1_Final(digest, &ctx);

    /* s[:n] of a 40-digit string: never more than 40 digits.  (Python's
       compute_checksum(s, 0) means "all 40"; the caller decides that.) */
    if (n < 0)
        n = 0;
    if (n > 2 * SHA_DIGEST_LENGTH)
        n = 2 * SHA_DIGEST_LENGTH;
    for (int i = 0; i < n; i++) {
        unsigned char byte = digest[i / 2];
        out[i] = hex[i % 2 ? byte & 0xf : byte >> 4];
    }
    out[n] = '\0';
}
