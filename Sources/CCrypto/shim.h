#ifndef KEYSHAPE_CCRYPTO_SHIM_H
#define KEYSHAPE_CCRYPTO_SHIM_H
// Only the digests keyshape needs: SHA-256, HMAC and PBKDF2 for secret hashes and fingerprints.
// The block-level SHA-256 calls are deprecated in OpenSSL 3 but kept for exactly this use:
// they are what makes the PBKDF2 below cheap.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <string.h>

/// The 32-byte digest held in a context's state words (big-endian).
static inline void keyshape_sha256_digest(const SHA256_CTX *ctx, unsigned char *out) {
    for (int w = 0; w < 8; w++) {
        out[4 * w] = (unsigned char)(ctx->h[w] >> 24);
        out[4 * w + 1] = (unsigned char)(ctx->h[w] >> 16);
        out[4 * w + 2] = (unsigned char)(ctx->h[w] >> 8);
        out[4 * w + 3] = (unsigned char)ctx->h[w];
    }
}

/// PBKDF2-HMAC-SHA256, first output block only (out_len <= 32), byte for byte what
/// PKCS5_PBKDF2_HMAC(..., EVP_sha256(), ...) gives. OpenSSL's generic version copies HMAC
/// contexts (allocations, cleansing, provider lookups) on every iteration; here the
/// key's inner and outer pad blocks are compressed once and each iteration is exactly two
/// SHA-256 block transforms on a pre-padded block, about ten times faster.
static inline int keyshape_pbkdf2_sha256(const unsigned char *password, size_t password_len,
                                         const unsigned char *salt, size_t salt_len,
                                         unsigned int iterations, unsigned char *out, size_t out_len) {
    if (out_len > 32 || iterations == 0) return 0;
    unsigned char key[64];
    memset(key, 0, sizeof key);
    if (password_len > 64) {
        SHA256(password, password_len, key);
    } else if (password_len > 0) {
        memcpy(key, password, password_len);
    }
    unsigned char pad[64];
    SHA256_CTX inner, outer, ctx;
    for (int i = 0; i < 64; i++) pad[i] = key[i] ^ 0x36;
    SHA256_Init(&inner);
    SHA256_Update(&inner, pad, 64);
    for (int i = 0; i < 64; i++) pad[i] = key[i] ^ 0x5c;
    SHA256_Init(&outer);
    SHA256_Update(&outer, pad, 64);

    // U1 = HMAC(password, salt || INT(1))
    unsigned char u[32], t[32];
    static const unsigned char one[4] = {0, 0, 0, 1};
    ctx = inner;
    SHA256_Update(&ctx, salt, salt_len);
    SHA256_Update(&ctx, one, 4);
    SHA256_Final(u, &ctx);
    ctx = outer;
    SHA256_Update(&ctx, u, 32);
    SHA256_Final(u, &ctx);
    memcpy(t, u, 32);

    // Later rounds hash 32 bytes after one 64-byte pad block: a single padded block whose
    // length field is (64 + 32) * 8 = 768 bits.
    unsigned char block[64];
    memset(block, 0, sizeof block);
    block[32] = 0x80;
    block[62] = 0x03;
    block[63] = 0x00;
    for (unsigned int it = 1; it < iterations; it++) {
        memcpy(block, u, 32);
        ctx = inner;
        SHA256_Transform(&ctx, block);
        keyshape_sha256_digest(&ctx, block);
        ctx = outer;
        SHA256_Transform(&ctx, block);
        keyshape_sha256_digest(&ctx, u);
        for (int i = 0; i < 32; i++) t[i] ^= u[i];
    }
    memcpy(out, t, out_len);
    OPENSSL_cleanse(key, sizeof key);
    OPENSSL_cleanse(pad, sizeof pad);
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(&inner, sizeof inner);
    OPENSSL_cleanse(&outer, sizeof outer);
    OPENSSL_cleanse(&ctx, sizeof ctx);
    return 1;
}
#endif
