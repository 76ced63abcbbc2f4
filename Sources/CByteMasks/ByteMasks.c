#include "ByteMasks.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Minimum length of a base64 run the finder looks at (`SpanFinder.minimumBase64Length`).
enum { LONG_RUN = 16 };

static inline void classify_byte(uint8_t b, uint8_t before, uint64_t bit,
                                 uint64_t *run, uint64_t *strong, uint64_t *stop) {
    uint8_t lower = b | 0x20;
    int letter = lower >= 'a' && lower <= 'z';
    int digit = b >= '0' && b <= '9';
    int upper = letter && (b & 0x20) == 0;
    if (letter || digit || b == '+' || b == '/' || b == '-' || b == '_') *run |= bit;
    if (upper || digit) *strong |= bit;
    if (b == '\\' || b == '%' || (b == ':' && (before | 0x20) == 'a')) *stop |= bit;
}

#if defined(__SSE2__)
/// `v` in `0...limit` as unsigned bytes: SSE2 has no unsigned compare, but `min(v, limit) == v`.
static inline __m128i at_most(__m128i v, uint8_t limit) {
    return _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8((char)limit)), v);
}

/// The three masks of 16 bytes, as 16-bit lane masks.
static inline void classify16(const uint8_t *p, uint32_t *run, uint32_t *strong, uint32_t *backslashOrPercent,
                              uint32_t *colon, uint32_t *letterA) {
    __m128i x = _mm_loadu_si128((const __m128i *)p);
    __m128i lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
    __m128i letter = at_most(_mm_sub_epi8(lower, _mm_set1_epi8('a')), 25);
    __m128i digit = at_most(_mm_sub_epi8(x, _mm_set1_epi8('0')), 9);
    __m128i upper = _mm_andnot_si128(_mm_cmpeq_epi8(_mm_and_si128(x, _mm_set1_epi8(0x20)), _mm_set1_epi8(0x20)), letter);
    __m128i sign = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('+')), _mm_cmpeq_epi8(x, _mm_set1_epi8('/'))),
                                _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('-')), _mm_cmpeq_epi8(x, _mm_set1_epi8('_'))));
    *run = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), sign));
    *strong = (uint32_t)_mm_movemask_epi8(_mm_or_si128(upper, digit));
    *backslashOrPercent = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')),
                                                                   _mm_cmpeq_epi8(x, _mm_set1_epi8('%'))));
    *colon = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(':')));
    *letterA = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lower, _mm_set1_epi8('a')));
}
#endif

void keyshape_byte_masks(const uint8_t *p, size_t n, uint64_t *run, uint64_t *strong, uint64_t *events) {
    size_t words = (n + 63) / 64;
    size_t i = 0;
    // Bit 63 of the word before: whether the byte before this word is `a` or `A`.
    uint64_t carryA = 0;
#if defined(__SSE2__)
    for (; i + 64 <= n; i += 64) {
        uint64_t r = 0, s = 0, bp = 0, c = 0, a = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t r16, s16, bp16, c16, a16;
            classify16(p + i + 16 * k, &r16, &s16, &bp16, &c16, &a16);
            r |= (uint64_t)r16 << (16 * k);
            s |= (uint64_t)s16 << (16 * k);
            bp |= (uint64_t)bp16 << (16 * k);
            c |= (uint64_t)c16 << (16 * k);
            a |= (uint64_t)a16 << (16 * k);
        }
        size_t w = i / 64;
        run[w] = r;
        strong[w] = s;
        events[w] = bp | (c & ((a << 1) | carryA));
        carryA = a >> 63;
    }
#endif
    for (size_t w = i / 64; w < words; w++) { run[w] = 0; strong[w] = 0; events[w] = 0; }
    for (; i < n; i++) {
        uint64_t bit = (uint64_t)1 << (i & 63);
        size_t w = i / 64;
        classify_byte(p[i], i > 0 ? p[i - 1] : 0, bit, &run[w], &strong[w], &events[w]);
    }
    // Where runs of LONG_RUN start: `run[q] & run[q + 1] & ... & run[q + 15]`, in four
    // doubling steps over the word and the one after it (only the low 15 bits of the next
    // word matter, and each step's wrong top bits stay above them).
    uint64_t previous = 0;
    for (size_t w = 0; w < words; w++) {
        uint64_t lo = run[w], hi = w + 1 < words ? run[w + 1] : 0;
        uint64_t starts = lo & ~((lo << 1) | (previous >> 63));
        previous = lo;
        for (int d = 1; d < LONG_RUN; d *= 2) {
            lo &= (lo >> d) | (hi << (64 - d));
            hi &= hi >> d;
        }
        events[w] |= lo & starts;
    }
}
