// Whether a base64 candidate is dropped from its first characters (`keyshape_base64_drops`),
// as inline functions: the run lister (ByteMasks.c) calls them for every long run.
#ifndef KEYSHAPE_BASE64_DROPS_H
#define KEYSHAPE_BASE64_DROPS_H

#include "Classes.h"

/// Bits of the decoded bytes' masks (bit k: decoded byte k of the first 12; the AVX-512
/// lister's four values at once: bit 16 j + k, byte k of value j).
typedef struct {
    uint64_t alwaysBad;     // a control byte other than tab, LF, CR; DEL; C0, C1; F5 to FF
    uint64_t continuation;  // 80 to BF
    uint64_t lead1, lead2, lead3;  // a UTF-8 lead byte wanting 1, 2, 3 continuation bytes
} utf8_masks;

#if KEYSHAPE_X86
/// `v` in `0...limit` as unsigned bytes: SSE2 has no unsigned compare, but `min(v, limit) == v`.
static inline __m128i at_most(__m128i v, uint8_t limit) {
    return _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8((char)limit)), v);
}
#endif

/// The masks of the first 12 bytes (`low` holds bytes 0 to 7, first lowest; `high` 8 to 11),
/// a byte at a time: the scalar and SSE2 tiers', and every processor's that is not x86-64
/// (so the tests on x86-64 run this code as the scalar tier).
static inline utf8_masks classify12_bytes(uint64_t low, uint64_t high) {
    utf8_masks m = {0, 0, 0, 0, 0};
    for (int k = 0; k < 12; k++) {
        uint8_t v = (uint8_t)(k < 8 ? low >> (8 * k) : high >> (8 * (k - 8)));
        uint32_t bit = (uint32_t)1 << k;
        if ((v < 0x20 && v != 9 && v != 10 && v != 13) || v == 0x7F || v == 0xC0 || v == 0xC1 || v >= 0xF5) m.alwaysBad |= bit;
        if ((v & 0xC0) == 0x80) m.continuation |= bit;
        if (v >= 0xC2 && v <= 0xDF) m.lead1 |= bit;
        if (v >= 0xE0 && v <= 0xEF) m.lead2 |= bit;
        if (v >= 0xF0 && v <= 0xF4) m.lead3 |= bit;
    }
    return m;
}

#if KEYSHAPE_X86
/// The same masks of a register's first 12 bytes, a compare each (the AVX2 and AVX-512 tiers').
static inline utf8_masks classify12_vector(__m128i x) {
    utf8_masks m;
    __m128i ctrl = _mm_andnot_si128(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(9)), _mm_cmpeq_epi8(x, _mm_set1_epi8(10))),
                                                 _mm_cmpeq_epi8(x, _mm_set1_epi8(13))),
                                    at_most(x, 0x1F));
    __m128i bad = _mm_or_si128(_mm_or_si128(ctrl, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7F))),
                               _mm_or_si128(at_most(_mm_sub_epi8(x, _mm_set1_epi8((char)0xC0)), 1),
                                            at_most(_mm_sub_epi8(x, _mm_set1_epi8((char)0xF5)), 0x0A)));
    m.alwaysBad = (uint32_t)_mm_movemask_epi8(bad);
    m.continuation = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(x, _mm_set1_epi8((char)0xC0)), _mm_set1_epi8((char)0x80)));
    m.lead1 = (uint32_t)_mm_movemask_epi8(at_most(_mm_sub_epi8(x, _mm_set1_epi8((char)0xC2)), 0xDF - 0xC2));
    m.lead2 = (uint32_t)_mm_movemask_epi8(at_most(_mm_sub_epi8(x, _mm_set1_epi8((char)0xE0)), 0x0F));
    m.lead3 = (uint32_t)_mm_movemask_epi8(at_most(_mm_sub_epi8(x, _mm_set1_epi8((char)0xF0)), 0x04));
    return m;
}
#endif

static const uint8_t bitCount6[64] = {
    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5,
    1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5, 2, 3, 3, 4, 3, 4, 4, 5, 3, 4, 4, 5, 4, 5, 5, 6,
};

/// The bad bytes among the first 12 decoded bytes that the 12 decide, as `TextCheck.isText`
/// counts them, as a mask: it walks the bytes, a continuation byte is good only in a lead's
/// sequence, and a lead only when its continuation bytes follow. Every byte that is not a
/// continuation is a step of the walk, so each lead is judged alone; a lead whose sequence
/// runs past the 12 is taken as good, with the continuation bytes after it. `all` holds the
/// 12 bits of each value (one value: 0xFFF; four in 16-bit lanes: 0x0FFF0FFF0FFF0FFF); the
/// bits between the values are zero bytes, which is all a shift across them moves in.
static inline uint64_t bad_bytes(utf8_masks m, uint64_t all) {
    uint64_t last = all & ~(all >> 1);  // each value's 12th byte
    uint64_t c = m.continuation & all;
    uint64_t valid1 = m.lead1 & (c >> 1), valid2 = m.lead2 & (c >> 1) & (c >> 2), valid3 = m.lead3 & (c >> 1) & (c >> 2) & (c >> 3);
    uint64_t open1 = m.lead1 & last, open2 = m.lead2 & (last | last >> 1), open3 = m.lead3 & (last | last >> 1 | last >> 2);
    uint64_t good1 = valid1 | open1, good2 = valid2 | open2, good3 = valid3 | open3;
    uint64_t taken = good1 << 1 | good2 << 1 | good2 << 2 | good3 << 1 | good3 << 2 | good3 << 3;
    uint64_t badLeads = (m.lead1 & ~good1) | (m.lead2 & ~good2) | (m.lead3 & ~good3);
    return (m.alwaysBad | badLeads | (c & ~taken)) & all;
}

/// How many bytes `bad_bytes` finds in one value. The three sets are apart (a lead is no
/// continuation, a byte always bad neither): one count, by table (x86-64 without POPCNT
/// counts bits in a dozen instructions).
static inline size_t bad_in_prefix(utf8_masks m) {
    uint64_t badBytes = bad_bytes(m, 0xFFF);
    return (size_t)bitCount6[badBytes & 63] + bitCount6[badBytes >> 6];
}

/// A first count from four characters alone: a quantum whose first character is one of
/// `A B E F G H + / - _` has a first byte that is always bad, and the text's first byte is
/// bad also when it is a continuation byte (`g` to `v`). These bytes are among those
/// `bad_in_prefix` counts, so when they are already too many its count is too. It settles
/// half the identifiers in source.
static inline size_t bad_by_first_characters(const uint8_t *p) {
    return (size_t)keyshape_first_bad[p[0]] + keyshape_always_bad_first[p[4]] + keyshape_always_bad_first[p[8]]
         + keyshape_always_bad_first[p[12]];
}

/// Whether `TextCheck.mayHoldEncoding` may find a printable run in the decode of the base64
/// characters `p[0..<count]`: ten printable bytes in a row hold two whole quanta in a row and
/// the first byte of the quantum after them, all printable (whatever the run's offset in its
/// first quantum). 0 when no such quanta can be there, 1 when the caller must look at the
/// whole quanta, 2 when it cannot tell (a value of more than 62 quanta: long values are few;
/// identifiers, the many, are short). First a look at the quanta's first characters, for
/// three quanta in a row with a printable first byte (`C_LEAD`): in source, a quarter of the
/// identifiers that are not text have one (upper-case ones), 1 in 150 the whole condition.
/// The vector listers read the leads of runs of up to 64 characters in their registers and
/// call this for longer ones only, so no tier keeps a bitmap of them (the AVX2 pass spent a
/// tenth of its time on one).
static inline int may_hold_run(const uint8_t *p, size_t count) {
    size_t wholeQuanta = count / 4;
    size_t quanta = wholeQuanta + (count % 4 >= 2);
    if (wholeQuanta < 2 || quanta < 3) return 0;
    size_t lastStreak = wholeQuanta - 2 < quanta - 3 ? wholeQuanta - 2 : quanta - 3;
    // Quanta `j - 2 ... j` with leads end a streak that starts at `lastStreak` at the latest.
    for (size_t j = 0, streak = 0; j <= lastStreak + 2; j++) {
        streak = (keyshape_class_of[p[4 * j]] & C_LEAD) ? streak + 1 : 0;
        if (streak == 3) return wholeQuanta > 62 ? 2 : 1;
    }
    return 0;
}

static inline int printable(uint32_t byte) { return byte - 0x20 < 0x5F; }

/// The last quantum's first byte, when it has one (two or three characters), at its bit.
static inline uint64_t partial_first(const uint8_t *p, size_t count) {
    if (count % 4 < 2) return 0;
    const uint8_t *c = p + count / 4 * 4;
    const uint8_t *v = keyshape_base64_value;
    return (uint64_t)printable(((uint32_t)v[c[0]] << 2 | v[c[1]] >> 4) & 0xFF) << (count / 4);
}

/// The length of the decode of `count` base64 characters (padding left out) that is not
/// 4k + 1 long.
static inline size_t decoded_length(size_t count) {
    size_t left = count & 3;
    return count / 4 * 3 + (left == 0 ? 0 : left - 1);
}

/// What `drops_scalar` and `drops_simd` settle before reading a character: a length no
/// base64 has (4k + 1 characters: the decode fails) is dropped; under 16 characters there is
/// no prefix to read (-1: read on). `decoded` is the decode's length.
static inline int settled_by_length(size_t count, size_t *decoded) {
    if ((count & 3) == 1) return 1;
    if (count < 16) return 0;
    *decoded = decoded_length(count);
    return -1;
}

/// `keyshape_base64_drops`, a quantum at a time.
__attribute__((always_inline)) static inline int drops_scalar(const uint8_t *buffer, size_t from, size_t count, int keepBinary) {
    const uint8_t *p = buffer + from;
    size_t decoded = 0;
    int settled = settled_by_length(count, &decoded);
    if (settled >= 0) return settled;
    const uint8_t *v = keyshape_base64_value;
    if (bad_by_first_characters(p) <= decoded / 16) {
        // The first 12 decoded bytes (16 characters), first byte lowest, built in registers:
        // bytes stored one by one and read back as a vector stall the load (no store forwarding).
        uint64_t le[4];
        for (int q = 0; q < 4; q++) {
            const uint8_t *c = p + 4 * q;
            uint32_t w = (uint32_t)v[c[0]] << 18 | (uint32_t)v[c[1]] << 12 | (uint32_t)v[c[2]] << 6 | v[c[3]];
            le[q] = __builtin_bswap32(w) >> 8;
        }
        uint64_t low = le[0] | le[1] << 24 | le[2] << 48, high = le[2] >> 16 | le[3] << 8;
        if (bad_in_prefix(classify12_bytes(low, high)) <= decoded / 16) return 0;
    }
    if (!keepBinary) return 1;
    int look = may_hold_run(p, count);
    if (look != 1) return look == 0;
    size_t wholeQuanta = count / 4;
    uint64_t whole = 0, first = 0;
    for (size_t j = 0; j < wholeQuanta; j++) {
        const uint8_t *c = p + 4 * j;
        uint32_t w = (uint32_t)v[c[0]] << 18 | (uint32_t)v[c[1]] << 12 | (uint32_t)v[c[2]] << 6 | v[c[3]];
        uint32_t b0 = w >> 16, b1 = (w >> 8) & 0xFF, b2 = w & 0xFF;
        whole |= (uint64_t)(printable(b0) & printable(b1) & printable(b2)) << j;
        first |= (uint64_t)printable(b0) << j;
    }
    first |= partial_first(p, count);
    return (whole & whole >> 1 & first >> 2) == 0;
}

#if KEYSHAPE_X86
#define SIMD_DROPS __attribute__((target("avx2,popcnt,bmi")))

/// Four quanta of base64 (16 characters of either alphabet, run characters only) decoded
/// in one register, each quantum's 24-bit value in a 32-bit lane, first character highest:
/// each character's value is itself plus an offset chosen by its high nibble, mended for
/// `+ - _`, and `pmaddubsw`/`pmaddwd` join four 6-bit values into each lane.
SIMD_DROPS static inline __m128i quanta16(const uint8_t *p) {
    __m128i x = _mm_loadu_si128((const __m128i *)p);
    __m128i high = _mm_and_si128(_mm_srli_epi32(x, 4), _mm_set1_epi8(0x0F));
    __m128i offsets = _mm_setr_epi8(0, 0, 16, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
    __m128i v = _mm_add_epi8(x, _mm_shuffle_epi8(offsets, high));
    v = _mm_add_epi8(v, _mm_and_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('+')), _mm_set1_epi8(3)));
    v = _mm_add_epi8(v, _mm_and_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('-')), _mm_set1_epi8(1)));
    v = _mm_add_epi8(v, _mm_and_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('_')), _mm_set1_epi8(33)));
    __m128i pairs = _mm_maddubs_epi16(v, _mm_set1_epi32(0x01400140));
    return _mm_madd_epi16(pairs, _mm_set1_epi32(0x00011000));
}

/// Printable bytes (0x20 to 0x7E) as 0xFF.
SIMD_DROPS static inline __m128i printable16(__m128i x) {
    __m128i fromSpace = _mm_sub_epi8(x, _mm_set1_epi8(0x20));
    return _mm_cmpeq_epi8(_mm_min_epu8(fromSpace, _mm_set1_epi8(0x5E)), fromSpace);
}

/// The rest of `drops_simd` for a value whose first characters say it is not text (the
/// characters from `p`): whether no printable run can be among its bytes (`may_hold_run`,
/// then the whole quanta). The vector run listers call it for values of more than 64
/// characters.
SIMD_DROPS static inline int binary_drops(const uint8_t *p, size_t count) {
    int look = may_hold_run(p, count);
    if (look != 1) return look == 0;
    size_t wholeQuanta = count / 4;
    uint64_t whole = 0, first = 0;
    // Four quanta a step; the last step ends at the last whole quantum (it may go over
    // quanta already seen).
    for (size_t q = 0; q < wholeQuanta; q += 4) {
        size_t at = q + 4 <= wholeQuanta ? q : wholeQuanta - 4;
        __m128i pr = printable16(quanta16(p + 4 * at));
        // Lane bytes: third, second, first byte of the quantum, then the top byte (always 0,
        // not printable: set so that a lane of three printable bytes is all ones).
        __m128i wholeLanes = _mm_cmpeq_epi32(_mm_or_si128(pr, _mm_set1_epi32((int)0xFF000000)), _mm_set1_epi32(-1));
        __m128i firstLanes = _mm_cmpeq_epi32(_mm_and_si128(pr, _mm_set1_epi32(0x00FF0000)), _mm_set1_epi32(0x00FF0000));
        whole |= (uint64_t)(uint32_t)_mm_movemask_ps(_mm_castsi128_ps(wholeLanes)) << at;
        first |= (uint64_t)(uint32_t)_mm_movemask_ps(_mm_castsi128_ps(firstLanes)) << at;
    }
    first |= partial_first(p, count);
    return (whole & whole >> 1 & first >> 2) == 0;
}

/// `drops_scalar` with the decoding done four quanta to a register (SSSE3 shuffles, which
/// every processor of the AVX2 tier has).
SIMD_DROPS __attribute__((always_inline)) static inline int drops_simd(const uint8_t *buffer, size_t from, size_t count, int keepBinary) {
    const uint8_t *p = buffer + from;
    size_t decoded = 0;
    int settled = settled_by_length(count, &decoded);
    if (settled >= 0) return settled;
    if (bad_by_first_characters(p) <= decoded / 16) {
        // The 12 bytes in order, then four zero bytes (masked out).
        __m128i bytes = _mm_shuffle_epi8(quanta16(p), _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1));
        if (bad_in_prefix(classify12_vector(bytes)) <= decoded / 16) return 0;
    }
    if (!keepBinary) return 1;
    return binary_drops(p, count);
}
#endif

#endif
