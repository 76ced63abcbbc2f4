#ifndef KEYSHAPE_CCRYPTO_SHIM_H
#define KEYSHAPE_CCRYPTO_SHIM_H
// Only the digests keyshape needs: SHA-256, HMAC and PBKDF2 for secret hashes and fingerprints.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#endif
