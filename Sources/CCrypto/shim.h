#ifndef KEYSHAPE_CCRYPTO_SHIM_H
#define KEYSHAPE_CCRYPTO_SHIM_H
// Only the digests keyshape needs: SHA-256, HMAC and PBKDF2 for secret hashes and fingerprints.
// The block-level SHA-256 calls are deprecated in OpenSSL 3 but kept for exactly this use:
// they are what makes the PBKDF2 in pbkdf2.h cheap.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <string.h>

#include "pbkdf2.h"
#endif
