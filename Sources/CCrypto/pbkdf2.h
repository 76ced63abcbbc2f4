#ifndef KEYSHAPE_CCRYPTO_PBKDF2_H
#define KEYSHAPE_CCRYPTO_PBKDF2_H
// PBKDF2-HMAC-SHA256 for secret hashes, first output block only (out_len <= 32), byte for
// byte what PKCS5_PBKDF2_HMAC(..., EVP_sha256(), ...) gives.
//
// OpenSSL's generic version copies HMAC contexts (allocations, cleansing, provider
// lookups) on every iteration. Here the key's inner and outer pad blocks are compressed
// once, and each iteration is exactly two SHA-256 block transforms on a pre-padded block.
//
// On x86-64 with the SHA extensions, several passwords go through the iterations side by
// side: one chain is bound by the latency of the SHA round instruction, and independent
// chains fill the gaps (measured on the 2-core build machine: 1.23 ms per password alone
// through OpenSSL's block transform, about 0.95 ms alone and 0.5 ms each four at a time here).
#include <openssl/crypto.h>
#include <openssl/sha.h>
#include <stdint.h>
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

/// The key's inner and outer pad blocks compressed, and U1 = HMAC(password, salt || INT(1)).
static inline void keyshape_pbkdf2_setup(const unsigned char *password, size_t password_len,
                                         const unsigned char *salt, size_t salt_len,
                                         SHA256_CTX *inner, SHA256_CTX *outer, unsigned char u[32]) {
    unsigned char key[64];
    memset(key, 0, sizeof key);
    if (password_len > 64) {
        SHA256(password, password_len, key);
    } else if (password_len > 0) {
        memcpy(key, password, password_len);
    }
    unsigned char pad[64];
    for (int i = 0; i < 64; i++) pad[i] = key[i] ^ 0x36;
    SHA256_Init(inner);
    SHA256_Update(inner, pad, 64);
    for (int i = 0; i < 64; i++) pad[i] = key[i] ^ 0x5c;
    SHA256_Init(outer);
    SHA256_Update(outer, pad, 64);
    static const unsigned char one[4] = {0, 0, 0, 1};
    SHA256_CTX ctx = *inner;
    SHA256_Update(&ctx, salt, salt_len);
    SHA256_Update(&ctx, one, 4);
    SHA256_Final(u, &ctx);
    ctx = *outer;
    SHA256_Update(&ctx, u, 32);
    SHA256_Final(u, &ctx);
    OPENSSL_cleanse(key, sizeof key);
    OPENSSL_cleanse(pad, sizeof pad);
    OPENSSL_cleanse(&ctx, sizeof ctx);
}

/// One password, OpenSSL's block transform (any CPU).
static inline int keyshape_pbkdf2_sha256(const unsigned char *password, size_t password_len,
                                         const unsigned char *salt, size_t salt_len,
                                         unsigned int iterations, unsigned char *out, size_t out_len) {
    if (out_len > 32 || iterations == 0) return 0;
    SHA256_CTX inner, outer, ctx;
    unsigned char u[32], t[32];
    keyshape_pbkdf2_setup(password, password_len, salt, salt_len, &inner, &outer, u);
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
    OPENSSL_cleanse(u, sizeof u);
    OPENSSL_cleanse(t, sizeof t);
    OPENSSL_cleanse(block, sizeof block);
    OPENSSL_cleanse(&inner, sizeof inner);
    OPENSSL_cleanse(&outer, sizeof outer);
    OPENSSL_cleanse(&ctx, sizeof ctx);
    return 1;
}

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

static inline int keyshape_cpu_has_sha_extensions(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!(c & bit_SSSE3) || !(c & bit_SSE4_1)) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b >> 29) & 1;
}

/// Whether this CPU has the SHA extensions (and the SSSE3/SSE4.1 the code around them uses).
/// Asked once: cpuid traps to the hypervisor in a virtual machine.
static inline int keyshape_sha_extensions_available(void) {
    static int known = -1;
    int value = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (value < 0) {
        value = keyshape_cpu_has_sha_extensions();
        __atomic_store_n(&known, value, __ATOMIC_RELAXED);
    }
    return value;
}

#define KEYSHAPE_SHA_TARGET __attribute__((target("sha,sse4.1,ssse3")))
#define KEYSHAPE_SHA_INLINE KEYSHAPE_SHA_TARGET __attribute__((always_inline)) static inline
// Lane loops written out (see keyshape_ni_compress).
#define KEYSHAPE_EACH_LANE(n, ...) do { \
        if (0 < (n)) { const int l = 0; __VA_ARGS__ } \
        if (1 < (n)) { const int l = 1; __VA_ARGS__ } \
        if (2 < (n)) { const int l = 2; __VA_ARGS__ } \
        if (3 < (n)) { const int l = 3; __VA_ARGS__ } \
    } while (0)

static const uint32_t keyshape_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

/// State words a..h into the (ABEF, CDGH) pair the round instruction works on.
KEYSHAPE_SHA_INLINE void keyshape_ni_pack(const uint32_t s[8], __m128i *abef, __m128i *cdgh) {
    __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&s[0]), 0xB1);
    __m128i h = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&s[4]), 0x1B);
    *abef = _mm_alignr_epi8(t, h, 8);
    *cdgh = _mm_blend_epi16(h, t, 0xF0);
}

/// (ABEF, CDGH) back to words a..d and e..h: the digest, which is also the next block's
/// first eight message words (the block holds the digest's bytes big-endian).
KEYSHAPE_SHA_INLINE void keyshape_ni_words(__m128i abef, __m128i cdgh, __m128i *w0, __m128i *w1) {
    __m128i t = _mm_shuffle_epi32(abef, 0x1B);
    __m128i h = _mm_shuffle_epi32(cdgh, 0xB1);
    *w0 = _mm_blend_epi16(t, h, 0xF0);
    *w1 = _mm_alignr_epi8(h, t, 8);
}

/// Rounds 4g..4g+3 of each lane's block transform (message words for them scheduled first).
KEYSHAPE_SHA_INLINE void keyshape_ni_rounds(const int n, const int g, __m128i a0[4], __m128i a1[4], __m128i w[4][16]) {
    const __m128i k = _mm_loadu_si128((const __m128i *)&keyshape_sha256_k[4 * g]);
    __m128i m[4];
    if (g >= 4) {
        KEYSHAPE_EACH_LANE(n, w[l][g] = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(w[l][g - 4], w[l][g - 3]),
                                                                             _mm_alignr_epi8(w[l][g - 1], w[l][g - 2], 4)),
                                                               w[l][g - 1]); );
    }
    KEYSHAPE_EACH_LANE(n, m[l] = _mm_add_epi32(w[l][g], k); a1[l] = _mm_sha256rnds2_epu32(a1[l], a0[l], m[l]); );
    KEYSHAPE_EACH_LANE(n, a0[l] = _mm_sha256rnds2_epu32(a0[l], a1[l], _mm_shuffle_epi32(m[l], 0x0E)); );
}

/// One block transform for each of `n` independent states, round by round side by side.
/// Written out in full: indices must be constants for the vectors to stay in registers, and
/// the optimiser that compiles this header does not unroll such loops on its own.
KEYSHAPE_SHA_INLINE void keyshape_ni_compress(const int n, __m128i s0[4], __m128i s1[4], __m128i w[4][16]) {
    __m128i a0[4], a1[4];
    KEYSHAPE_EACH_LANE(n, a0[l] = s0[l]; a1[l] = s1[l]; );
    keyshape_ni_rounds(n, 0, a0, a1, w);  keyshape_ni_rounds(n, 1, a0, a1, w);
    keyshape_ni_rounds(n, 2, a0, a1, w);  keyshape_ni_rounds(n, 3, a0, a1, w);
    keyshape_ni_rounds(n, 4, a0, a1, w);  keyshape_ni_rounds(n, 5, a0, a1, w);
    keyshape_ni_rounds(n, 6, a0, a1, w);  keyshape_ni_rounds(n, 7, a0, a1, w);
    keyshape_ni_rounds(n, 8, a0, a1, w);  keyshape_ni_rounds(n, 9, a0, a1, w);
    keyshape_ni_rounds(n, 10, a0, a1, w); keyshape_ni_rounds(n, 11, a0, a1, w);
    keyshape_ni_rounds(n, 12, a0, a1, w); keyshape_ni_rounds(n, 13, a0, a1, w);
    keyshape_ni_rounds(n, 14, a0, a1, w); keyshape_ni_rounds(n, 15, a0, a1, w);
    KEYSHAPE_EACH_LANE(n, s0[l] = _mm_add_epi32(s0[l], a0[l]); s1[l] = _mm_add_epi32(s1[l], a1[l]); );
}

/// Iterations 2... of `n` PBKDF2 chains side by side. `inner`/`outer` are the pad blocks'
/// state words, `t` holds U1 on entry and the XOR of all U on return.
KEYSHAPE_SHA_INLINE void keyshape_ni_iterate(const int n, const uint32_t inner[4][8], const uint32_t outer[4][8],
                                             unsigned int iterations, uint32_t t[4][8]) {
    __m128i i0[4], i1[4], o0[4], o1[4], t0[4], t1[4], w[4][16], s0[4], s1[4];
    const __m128i pad2 = _mm_set_epi32(0, 0, 0, (int)0x80000000), pad3 = _mm_set_epi32(768, 0, 0, 0);
    KEYSHAPE_EACH_LANE(n, keyshape_ni_pack(inner[l], &i0[l], &i1[l]);
        keyshape_ni_pack(outer[l], &o0[l], &o1[l]);
        t0[l] = w[l][0] = _mm_loadu_si128((const __m128i *)&t[l][0]);
        t1[l] = w[l][1] = _mm_loadu_si128((const __m128i *)&t[l][4]);
        w[l][2] = pad2;
        w[l][3] = pad3; );
    for (unsigned int it = 1; it < iterations; it++) {
        KEYSHAPE_EACH_LANE(n, s0[l] = i0[l]; s1[l] = i1[l]; );
        keyshape_ni_compress(n, s0, s1, w);
        KEYSHAPE_EACH_LANE(n, keyshape_ni_words(s0[l], s1[l], &w[l][0], &w[l][1]); );
        KEYSHAPE_EACH_LANE(n, s0[l] = o0[l]; s1[l] = o1[l]; );
        keyshape_ni_compress(n, s0, s1, w);
        KEYSHAPE_EACH_LANE(n, keyshape_ni_words(s0[l], s1[l], &w[l][0], &w[l][1]);
            t0[l] = _mm_xor_si128(t0[l], w[l][0]);
            t1[l] = _mm_xor_si128(t1[l], w[l][1]); );
    }
    KEYSHAPE_EACH_LANE(n, _mm_storeu_si128((__m128i *)&t[l][0], t0[l]);
        _mm_storeu_si128((__m128i *)&t[l][4], t1[l]); );
}

// One entry point per lane count, each compiled with its count constant.
KEYSHAPE_SHA_TARGET static void keyshape_ni_iterate1(const uint32_t i[4][8], const uint32_t o[4][8], unsigned int n, uint32_t t[4][8]) { keyshape_ni_iterate(1, i, o, n, t); }
KEYSHAPE_SHA_TARGET static void keyshape_ni_iterate2(const uint32_t i[4][8], const uint32_t o[4][8], unsigned int n, uint32_t t[4][8]) { keyshape_ni_iterate(2, i, o, n, t); }
KEYSHAPE_SHA_TARGET static void keyshape_ni_iterate3(const uint32_t i[4][8], const uint32_t o[4][8], unsigned int n, uint32_t t[4][8]) { keyshape_ni_iterate(3, i, o, n, t); }
KEYSHAPE_SHA_TARGET static void keyshape_ni_iterate4(const uint32_t i[4][8], const uint32_t o[4][8], unsigned int n, uint32_t t[4][8]) { keyshape_ni_iterate(4, i, o, n, t); }
#else
static inline int keyshape_sha_extensions_available(void) { return 0; }
#endif

/// PBKDF2 of `count` passwords with one salt: password k's `out_len` bytes go to
/// `out + k * out_len`. `use_extensions` = 0 forces the portable path (tests compare both).
static inline int keyshape_pbkdf2_sha256_many(size_t count, const unsigned char *const *passwords, const size_t *lengths,
                                              const unsigned char *salt, size_t salt_len, unsigned int iterations,
                                              unsigned char *out, size_t out_len, int use_extensions) {
    if (out_len > 32 || iterations == 0) return 0;
#if defined(__x86_64__)
    if (use_extensions && keyshape_sha_extensions_available()) {
        for (size_t first = 0; first < count; first += 4) {
            int n = (int)(count - first < 4 ? count - first : 4);
            uint32_t inner[4][8], outer[4][8], t[4][8];
            KEYSHAPE_EACH_LANE(n, SHA256_CTX ci, co;
                unsigned char u[32];
                keyshape_pbkdf2_setup(passwords[first + l], lengths[first + l], salt, salt_len, &ci, &co, u);
                memcpy(inner[l], ci.h, 32);
                memcpy(outer[l], co.h, 32);
                for (int w = 0; w < 8; w++) {
                    t[l][w] = ((uint32_t)u[4 * w] << 24) | ((uint32_t)u[4 * w + 1] << 16) | ((uint32_t)u[4 * w + 2] << 8) | u[4 * w + 3];
                }
                OPENSSL_cleanse(&ci, sizeof ci);
                OPENSSL_cleanse(&co, sizeof co);
                OPENSSL_cleanse(u, sizeof u); );
            switch (n) {
            case 1: keyshape_ni_iterate1(inner, outer, iterations, t); break;
            case 2: keyshape_ni_iterate2(inner, outer, iterations, t); break;
            case 3: keyshape_ni_iterate3(inner, outer, iterations, t); break;
            default: keyshape_ni_iterate4(inner, outer, iterations, t); break;
            }
            KEYSHAPE_EACH_LANE(n, unsigned char bytes[32];
                for (int w = 0; w < 8; w++) {
                    bytes[4 * w] = (unsigned char)(t[l][w] >> 24);
                    bytes[4 * w + 1] = (unsigned char)(t[l][w] >> 16);
                    bytes[4 * w + 2] = (unsigned char)(t[l][w] >> 8);
                    bytes[4 * w + 3] = (unsigned char)t[l][w];
                }
                memcpy(out + (first + (size_t)l) * out_len, bytes, out_len);
                OPENSSL_cleanse(bytes, sizeof bytes); );
            OPENSSL_cleanse(inner, sizeof inner);
            OPENSSL_cleanse(outer, sizeof outer);
            OPENSSL_cleanse(t, sizeof t);
        }
        return 1;
    }
#endif
    for (size_t k = 0; k < count; k++) {
        if (!keyshape_pbkdf2_sha256(passwords[k], lengths[k], salt, salt_len, iterations, out + k * out_len, out_len)) return 0;
    }
    return 1;
}
#endif
