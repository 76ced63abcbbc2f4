// The classifying pass (`keyshape_find_runs`): bitmaps of a buffer and its list of long runs.
#include "Base64Drops.h"

#include <string.h>

/// One 64-byte word's lanes: bit k of each is byte k of the word.
typedef struct {
    uint64_t run, stop, colon, letterA;
} lanes;

/// The bitmaps the pass writes: the walk's (`run`, `stops`) and its own, in `scratch`:
/// `longStarts` (where runs of LONG_RUN or more start; the AVX-512 tier writes where they end
/// instead; the AVX2 lister finds them a block at a time, in its own arrays), and `strong`
/// (upper-case letters and digits: only the AVX-512 lister reads it; the other tiers'
/// passes leave it but for the byte loop's last words).
typedef struct {
    uint64_t *run, *stops, *longStarts, *strong;
} bitmaps;

/// `carryA`: whether the byte before the word is `a` or `A` (bit 0).
static inline void store_word(const bitmaps *b, size_t w, lanes l, uint64_t *carryA) {
    b->run[w] = l.run;
    b->stops[w] = l.stop | (l.colon & ((l.letterA << 1) | *carryA));
    *carryA = l.letterA >> 63;
}

/// Words from `from` (a multiple of 64) to the last one, a byte at a time; bytes at `n` and
/// after are zero in every lane.
static void words_tail(const uint8_t *p, size_t from, size_t n, size_t words, const bitmaps *b, uint64_t *carryA) {
    for (size_t w = from / 64; w < words; w++) {
        lanes l = {0};
        uint64_t strong = 0;
        for (size_t k = 0; k < 64 && w * 64 + k < n; k++) {
            uint16_t cl = keyshape_class_of[p[w * 64 + k]];
            uint64_t bit = (uint64_t)1 << k;
            if (cl & C_RUN) l.run |= bit;
            if (cl & C_STOP) l.stop |= bit;
            if (cl & C_COLON) l.colon |= bit;
            if (cl & C_LETTER_A) l.letterA |= bit;
            if (cl & C_STRONG) strong |= bit;
        }
        store_word(b, w, l, carryA);
        b->strong[w] = strong;
    }
}

/// What a run holds (`KEYSHAPE_RUN_*`), a byte at a time.
static inline uint32_t run_flags_scalar(const uint8_t *p, size_t start, size_t end) {
    uint32_t any = 0, all = C_HEX;
    for (size_t i = start; i < end; i++) {
        uint16_t c = keyshape_class_of[p[i]];
        any |= c;
        all &= c;
    }
    return ((all & C_HEX) ? 0 : KEYSHAPE_RUN_NOT_HEX) | ((any & C_PLUS_SLASH) ? KEYSHAPE_RUN_STANDARD_ONLY : 0)
         | ((any & C_DASH_UNDERSCORE) ? KEYSHAPE_RUN_URL_ONLY : 0) | ((any & C_STRONG) ? KEYSHAPE_RUN_STRONG : 0);
}

#if KEYSHAPE_X86
/// `v` in `0...limit` as unsigned bytes.
static inline __m128i within(__m128i v, uint8_t limit) {
    return _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8((char)limit)), v);
}

/// 16 bytes' lanes, shifted to their place in the word.
static inline void classify16(const uint8_t *p, int shift, lanes *l) {
    __m128i x = _mm_loadu_si128((const __m128i *)p);
    __m128i lower = _mm_or_si128(x, _mm_set1_epi8(0x20));
    __m128i letter = within(_mm_sub_epi8(lower, _mm_set1_epi8('a')), 25);
    __m128i digit = within(_mm_sub_epi8(x, _mm_set1_epi8('0')), 9);
    __m128i sign = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('+')), _mm_cmpeq_epi8(x, _mm_set1_epi8('/'))),
                                _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('-')), _mm_cmpeq_epi8(x, _mm_set1_epi8('_'))));
    l->run |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(letter, digit), sign)) << shift;
    l->stop |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')),
                                                                  _mm_cmpeq_epi8(x, _mm_set1_epi8('%')))) << shift;
    l->colon |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(':'))) << shift;
    l->letterA |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lower, _mm_set1_epi8('a'))) << shift;
}

/// Each tier's pass works on local copies of the pointers and the carry: stores through the
/// bitmaps could otherwise alias them, and the compiler reloaded them on every word.
static size_t words_sse2(const uint8_t *p, size_t n, const bitmaps *in, uint64_t *carryInOut) {
    const bitmaps local = *in;
    uint64_t carryA = *carryInOut;
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        lanes l = {0};
        for (int k = 0; k < 4; k++) classify16(p + i + 16 * k, 16 * k, &l);
        store_word(&local, i / 64, l, &carryA);
    }
    *carryInOut = carryA;
    return i;
}

#define AVX2 __attribute__((target("avx2,popcnt,bmi")))

AVX2 static inline __m256i within32(__m256i v, uint8_t limit) {
    return _mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8((char)limit)), v);
}

/// The classes of 32 bytes as two nibble lookups ANDed (`Classes.h`).
AVX2 static inline __m256i nibble_classes32(__m256i x, __m256i low, __m256i high) {
    __m256i highNibbles = _mm256_and_si256(_mm256_srli_epi16(x, 4), _mm256_set1_epi8(0x0F));
    // A byte from 0x80 shuffles to 0 from the low table: in no class.
    return _mm256_and_si256(_mm256_shuffle_epi8(low, x), _mm256_shuffle_epi8(high, highNibbles));
}

/// 32 bytes' run and stop lanes, from the bytes `x` and the bytes before each of them
/// (`before`: whether a colon follows an `a`), all from one nibble lookup
/// (`keyshape_word_nibbles`). Run characters' entries are 8 or more: a saturating add carries
/// them into the top bit for `movemask`. A stop's entry (`WN_*`) picks its byte from a shuffle
/// of the entries: 0x80 for a backslash or `%`, 0x7F for a colon, which the byte before it
/// being `a` (a compare's -1, subtracted) carries to 0x80; entries 0 and 8 (a run character's
/// low nibble) and those from 0x80 pick 0. With a compare for each stop character and an
/// `and` for the colon's `a` (16 instructions for 32 bytes, now 12), the words took 1.04 to
/// 1.16 times as long (one AVX2 processor, 100 MB of the benchmark tree, profile samples over
/// 20 rounds, three series).
AVX2 static inline void classify32(__m256i x, __m256i before, __m256i low, __m256i high, __m256i stopBytes,
                                   uint32_t *run, uint32_t *stop) {
    __m256i c = nibble_classes32(x, low, high);
    *run = (uint32_t)_mm256_movemask_epi8(_mm256_adds_epu8(c, _mm256_set1_epi8(0x80 - WN_FIRST_RUN)));
    __m256i afterA = _mm256_cmpeq_epi8(_mm256_or_si256(before, _mm256_set1_epi8(0x20)), _mm256_set1_epi8('a'));
    *stop = (uint32_t)_mm256_movemask_epi8(_mm256_sub_epi8(_mm256_shuffle_epi8(stopBytes, c), afterA));
}

/// 64 bytes a step. The bytes before each are read as a second load one byte back; the
/// buffer's first 32 bytes have none, so theirs are the bytes shifted across the register's
/// halves with a zero first. On 100 MB of the benchmark tree in 100 KB buffers (one AVX2
/// processor, profile samples over 10 rounds), a range or compare per class took 0.016 s, the
/// nibble lookups 0.009 s.
AVX2 static size_t words_avx2(const uint8_t *p, size_t n, const bitmaps *in, uint64_t *carryInOut) {
    const bitmaps local = *in;
    const __m256i low = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)keyshape_word_nibbles));
    const __m256i high = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(keyshape_word_nibbles + 16)));
    // Entry k of the shuffle is the byte a class of k picks.
    _Static_assert(WN_BACKSLASH == 1 && WN_PERCENT == 2 && WN_COLON == 4, "stopBytes' entries 1, 2 and 4");
    const __m256i stopBytes = _mm256_setr_epi8(0, (char)0x80, (char)0x80, 0, 0x7F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                               0, (char)0x80, (char)0x80, 0, 0x7F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m256i x0 = _mm256_loadu_si256((const __m256i *)(p + i)), x1 = _mm256_loadu_si256((const __m256i *)(p + i + 32));
        __m256i before0 = i > 0 ? _mm256_loadu_si256((const __m256i *)(p + i - 1))
                                : _mm256_alignr_epi8(x0, _mm256_permute2x128_si256(x0, x0, 0x08), 15);
        __m256i before1 = _mm256_loadu_si256((const __m256i *)(p + i + 31));
        uint32_t run0, stop0, run1, stop1;
        classify32(x0, before0, low, high, stopBytes, &run0, &stop0);
        classify32(x1, before1, low, high, stopBytes, &run1, &stop1);
        size_t w = i / 64;
        local.run[w] = (uint64_t)run1 << 32 | run0;
        local.stops[w] = (uint64_t)stop1 << 32 | stop0;
    }
    // The byte loop after this word reads whether the word's last byte is `a` or `A`.
    if (i > 0) *carryInOut = (p[i - 1] | 0x20) == 'a';
    return i;
}

/// What a run holds, 32 bytes a step while a whole step lies inside the buffer.
AVX2 static inline uint32_t run_flags_avx2(const uint8_t *p, size_t n, size_t start, size_t end) {
    uint32_t strong = 0, notHex = 0, plusSlash = 0, dashUnderscore = 0;
    size_t i = start;
    for (; i < end && i + 32 <= n; i += 32) {
        uint32_t inRun = end - i >= 32 ? ~(uint32_t)0 : ((uint32_t)1 << (end - i)) - 1;
        __m256i x = _mm256_loadu_si256((const __m256i *)(p + i));
        __m256i lower = _mm256_or_si256(x, _mm256_set1_epi8(0x20));
        __m256i digit = within32(_mm256_sub_epi8(x, _mm256_set1_epi8('0')), 9);
        __m256i upper = within32(_mm256_sub_epi8(x, _mm256_set1_epi8('A')), 25);
        __m256i hexLetter = within32(_mm256_sub_epi8(lower, _mm256_set1_epi8('a')), 5);
        strong |= (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(upper, digit)) & inRun;
        notHex |= ~(uint32_t)_mm256_movemask_epi8(_mm256_or_si256(hexLetter, digit)) & inRun;
        plusSlash |= (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('+')),
                                                                    _mm256_cmpeq_epi8(x, _mm256_set1_epi8('/')))) & inRun;
        dashUnderscore |= (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('-')),
                                                                         _mm256_cmpeq_epi8(x, _mm256_set1_epi8('_')))) & inRun;
    }
    uint32_t flags = (notHex ? KEYSHAPE_RUN_NOT_HEX : 0) | (plusSlash ? KEYSHAPE_RUN_STANDARD_ONLY : 0)
                   | (dashUnderscore ? KEYSHAPE_RUN_URL_ONLY : 0) | (strong ? KEYSHAPE_RUN_STRONG : 0);
    return i < end ? flags | run_flags_scalar(p, i, end) : flags;
}

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi,gfni,bmi,bmi2,popcnt,avx2")))

/// 64 bytes a step: one two-table byte permute gives every ASCII byte its six word classes
/// (`keyshape_class_words`; bytes from 0x80 are masked to class 0), and the 64 x 8 bit
/// matrix they make is turned into eight 64-bit words, one per class, by a bit transpose:
/// within each 8-byte lane, an affine transform with the lane as its matrix (GFNI) gathers
/// class bit `k` of the lane's eight bytes into its byte `k` (in reverse order, which a
/// second transform with a constant matrix undoes), and one byte permute gathers each
/// class's bytes from the eight lanes into one word. Testing each class bit into a mask
/// register instead (two permutes and six tests a step, all on the shuffle unit) took
/// 0.018 s for 231 MB of the benchmark tree in 100 KB buffers, the transpose 0.009 s to
/// 0.011 s (best of 10 rounds each, three series).
AVX512 static size_t words_avx512(const uint8_t *p, size_t n, const bitmaps *in, uint64_t *carryInOut) {
    const bitmaps local = *in;
    uint64_t carryA = *carryInOut;
    const __m512i low = _mm512_loadu_si512((const void *)keyshape_class_words);
    const __m512i high = _mm512_loadu_si512((const void *)(keyshape_class_words + 64));
    // One constant, two uses: as the operand transformed, its byte j picks class bit j; as
    // a matrix (whose rows GFNI numbers from the lane's last byte), it reverses a byte's bits.
    const __m512i bitsOneByOne = _mm512_set1_epi64((long long)0x8040201008040201ULL);
    // Word k of the result is byte k of lanes 0 to 7.
    const __m512i gather = _mm512_set_epi8(63, 55, 47, 39, 31, 23, 15, 7, 62, 54, 46, 38, 30, 22, 14, 6,
                                           61, 53, 45, 37, 29, 21, 13, 5, 60, 52, 44, 36, 28, 20, 12, 4,
                                           59, 51, 43, 35, 27, 19, 11, 3, 58, 50, 42, 34, 26, 18, 10, 2,
                                           57, 49, 41, 33, 25, 17, 9, 1, 56, 48, 40, 32, 24, 16, 8, 0);
    uint64_t classes[8] __attribute__((aligned(64)));
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512i x = _mm512_loadu_si512((const void *)(p + i));
        __m512i c = _mm512_maskz_permutex2var_epi8(~_mm512_movepi8_mask(x), low, x, high);
        __m512i t = _mm512_gf2p8affine_epi64_epi8(_mm512_gf2p8affine_epi64_epi8(bitsOneByOne, c, 0), bitsOneByOne, 0);
        _mm512_store_si512((void *)classes, _mm512_permutexvar_epi8(gather, t));
        lanes l = {classes[W_RUN_BIT], classes[W_STOP_BIT], classes[W_COLON_BIT], classes[W_LETTER_A_BIT]};
        store_word(&local, i / 64, l, &carryA);
        local.strong[i / 64] = classes[W_STRONG_BIT];
    }
    *carryInOut = carryA;
    return i;
}

/// What up to 64 run bytes hold (`KEYSHAPE_RUN_*`), from their classes `c` (zero outside
/// `inRun`).
AVX512 static inline uint32_t class_flags_avx512(__m512i c, __mmask64 inRun) {
    return ((inRun & ~_mm512_test_epi8_mask(c, _mm512_set1_epi8(C_HEX))) ? KEYSHAPE_RUN_NOT_HEX : 0)
         | (_mm512_test_epi8_mask(c, _mm512_set1_epi8(C_PLUS_SLASH)) ? KEYSHAPE_RUN_STANDARD_ONLY : 0)
         | (_mm512_test_epi8_mask(c, _mm512_set1_epi8((char)C_DASH_UNDERSCORE)) ? KEYSHAPE_RUN_URL_ONLY : 0)
         | (_mm512_test_epi8_mask(c, _mm512_set1_epi8(C_STRONG)) ? KEYSHAPE_RUN_STRONG : 0);
}

/// What a run holds, 64 bytes a step: a masked load reads no byte past the run. `low` and
/// `high` are the class table's halves, loaded once by the caller (loaded here, they were
/// the function's most expensive instruction).
AVX512 static inline uint32_t run_flags_avx512(const uint8_t *p, __m512i low, __m512i high, size_t start, size_t end) {
    uint32_t flags = 0;
    for (size_t i = start; i < end; i += 64) {
        __mmask64 inRun = _bzhi_u64(~(uint64_t)0, (unsigned)(end - i < 64 ? end - i : 64));
        __m512i x = _mm512_maskz_loadu_epi8(inRun, p + i);
        // Run bytes only, all ASCII.
        flags |= class_flags_avx512(_mm512_maskz_permutex2var_epi8(inRun, low, x, high), inRun);
    }
    return flags;
}
#endif

/// Where LONG_RUN run characters in a row start (`run[q] & run[q + 1] & ... & run[q + 21]`),
/// for one word and the one after it: doubling steps over the word alone (1, 2, 4 and 8 make
/// windows of 16, a step of 6 makes 22), with ones shifted in above it, then the windows that
/// reach into the next word (from bit 65 - LONG_RUN on) kept only as far as its run of
/// trailing ones goes (`hi & ~(hi + 1)`, shifted up to that bit). Doubling
/// over both words, as before, took half as many instructions again: 0.96 of the pass's time
/// on one AVX2 processor (100 MB of the benchmark tree, best of 5 rounds, 8 pairs).
static inline uint64_t long_windows(uint64_t lo, uint64_t hi) {
    int have = 1;
    for (; 2 * have <= LONG_RUN; have *= 2) lo &= (lo >> have) | (~(uint64_t)0 << (64 - have));
    if (have < LONG_RUN) lo &= (lo >> (LONG_RUN - have)) | (~(uint64_t)0 << (64 - (LONG_RUN - have)));
    uint64_t trailingOnes = hi & ~(hi + 1);
    return lo & ((trailingOnes << (64 - LONG_RUN + 1)) | (~(uint64_t)0 >> (LONG_RUN - 1)));
}

/// Where runs of LONG_RUN start, for one word (`lo`, between `previous` and `hi`): a window
/// of LONG_RUN (`long_windows`) at a run's first byte (`run[q] && !run[q - 1]`).
static inline uint64_t long_starts(uint64_t previous, uint64_t lo, uint64_t hi) {
    return long_windows(lo, hi) & ~((lo << 1) | (previous >> 63));
}

/// Every word's long-run starts: no word depends on another's result, so the
/// compiler runs the inner words several to a vector (the loop is compiled once per tier's
/// instruction set). One word at a time, the long-run starts took as much CPU as the
/// classification (AVX-512, 200 KB buffers: 0.019 s against 0.033 s for 211 MB).
#define WORD_PAIRS(NAME, ATTRIBUTES)                                                                     \
    ATTRIBUTES static void NAME(size_t words, const bitmaps *b) {                                       \
        const uint64_t *run = b->run;                                                                    \
        uint64_t *out = b->longStarts;                                                                   \
        if (words == 1) {                                                                                \
            out[0] = long_starts(0, run[0], 0);                                                          \
            return;                                                                                      \
        }                                                                                                \
        out[0] = long_starts(0, run[0], run[1]);                                                         \
        for (size_t w = 1; w + 1 < words; w++) out[w] = long_starts(run[w - 1], run[w], run[w + 1]);     \
        out[words - 1] = long_starts(run[words - 2], run[words - 1], 0);                                 \
    }

WORD_PAIRS(word_pairs_plain, )

/// Where runs of LONG_RUN end, for one word (`hi`) after the one before it (`lo`): the byte
/// after a run's last (`!run[q]`) with `run[q - 1] & ... & run[q - LONG_RUN]`, in the
/// doubling steps of `long_windows` over both words, looking back.
static inline uint64_t long_ends(uint64_t lo, uint64_t hi) {
    uint64_t yh = (hi << 1) | (lo >> 63), yl = lo << 1;
    int have = 1;
    for (; 2 * have <= LONG_RUN; have *= 2) {
        yh &= (yh << have) | (yl >> (64 - have));
        yl &= yl << have;
    }
    if (have < LONG_RUN) {
        int d = LONG_RUN - have;
        yh &= (yh << d) | (yl >> (64 - d));
        yl &= yl << d;
    }
    return yh & ~hi;
}

#if KEYSHAPE_X86
/// `WORD_PAIRS` for the AVX-512 lister: long-run ends (in `longStarts`).
AVX512 static void word_ends_avx512(size_t words, const bitmaps *b) {
    const uint64_t *run = b->run;
    uint64_t *out = b->longStarts;
    out[0] = long_ends(0, run[0]);
    for (size_t w = 1; w < words; w++) out[w] = long_ends(run[w - 1], run[w]);
}
#endif

/// `r + x + carry`, the carry out kept: for `x` inside `r`, the sum's bits outside `r` are
/// the bytes just past each run that holds a bit of `x` (the carry from its first such bit
/// runs through the rest of the run and stops on the byte after it), however long the run
/// and across words.
static inline uint64_t ends_holding(uint64_t r, uint64_t x, unsigned char *carry) {
    unsigned long long sum;
#if KEYSHAPE_X86
    *carry = _addcarry_u64(*carry, r, x, &sum);
#else
    sum = r + x;
    unsigned char out = sum < r;
    uint64_t withCarry = sum + *carry;
    out |= withCarry < sum;
    sum = withCarry;
    *carry = out;
#endif
    return sum & ~r;
}

/// The lowest set bit's index of a nonzero word, as one instruction: the compiler's own
/// count, four in a row, was turned into a vector popcount emulation three times slower.
static inline size_t lowest_bit(uint64_t m) {
#if KEYSHAPE_X86
    uint64_t index;
    __asm__("tzcnt %1, %0" : "=r"(index) : "r"(m) : "cc");  // `bsf` on processors without BMI: the same for m != 0
    return (size_t)index;
#else
    return (size_t)__builtin_ctzll(m);
#endif
}

/// Up to four set bits of `m` (a word holds at most four starts, or four ends, of runs of
/// LONG_RUN or more: they lie LONG_RUN + 1 bytes apart at least) as positions, written
/// whether or not they are there; returns how many are.
static inline size_t flatten4(uint64_t m, size_t base, size_t *out) {
    const uint64_t top = (uint64_t)1 << 63;
    size_t count = (size_t)__builtin_popcountll(m);
    out[0] = base + lowest_bit(m | top);
    m &= m - 1;
    out[1] = base + lowest_bit(m | top);
    m &= m - 1;
    out[2] = base + lowest_bit(m | top);
    m &= m - 1;
    out[3] = base + lowest_bit(m | top);
    return count;
}

/// `flatten4` for words that mostly hold one or two bits: two positions written, and the
/// other two only for a word that has them (2% of the words with a long run's start or end
/// in source: the branch is rarely taken).
static inline size_t flatten2(uint64_t m, size_t base, size_t *out) {
    const uint64_t top = (uint64_t)1 << 63;
    size_t count = (size_t)__builtin_popcountll(m);
    out[0] = base + lowest_bit(m | top);
    uint64_t rest = m & (m - 1);
    out[1] = base + lowest_bit(rest | top);
    if (__builtin_expect(count > 2, 0)) flatten4(rest & (rest - 1), base, out + 2);
    return count;
}

/// Whether the finder passes over a run without reading it because it is hex digits alone
/// (`flags` without `KEYSHAPE_RUN_NOT_HEX`) too short for a hex value (`HEX_RUN`) or of odd
/// length, and no `=` after it makes it base64: in source, three in four of the strong runs
/// that the first quanta keep (numbers and 64-bit constants of 16 digits).
static inline int passes_over_hex(uint32_t flags, const uint8_t *p, size_t n, size_t start, size_t end) {
    size_t length = end - start;
    uint8_t after = end < n ? p[end] : 0;
    return ((flags & KEYSHAPE_RUN_NOT_HEX) == 0) & ((length < HEX_RUN) | (length & 1)) & (after != '=');
}

/// Words a block of `list_runs` lists at a time: its position lists stay in L1.
enum { BLOCK_WORDS = 256 };

/// Pairs each long run's start with its end (the byte after it: bit `n` at the latest, never
/// a run byte), found as the carry of `run + longStarts` (`ends_holding`) rather than by a
/// search per run (no branch per word: half the words in source hold no long run, and each
/// cost a mispredicted branch), reads what the run holds, and keeps those with a strong byte
/// that the finder would not drop unread: a run read as base64 from its first byte (not hex
/// alone, not `0x` and hex, not both alphabets, which the finder reads from after the last
/// `-` or `_`) is dropped when its first characters say so, and hex alone when the finder
/// passes over it (`passes_over_hex`).
#define LIST_RUNS(NAME, ATTRIBUTES, SETUP, RUN_FLAGS, DROPS)                                               \
    ATTRIBUTES static size_t NAME(const uint8_t *p, size_t n, size_t words, int keepBinary, const bitmaps *b, \
                                  keyshape_run_candidate *out) {                                          \
        SETUP                                                                                              \
        size_t starts[4 * BLOCK_WORDS + 8], ends[4 * BLOCK_WORDS + 4];                                     \
        const uint32_t both = KEYSHAPE_RUN_STANDARD_ONLY | KEYSHAPE_RUN_URL_ONLY;                          \
        size_t pending = 0, count = 0;                                                                     \
        unsigned char carry = 0;                                                                           \
        for (size_t w0 = 0; w0 < words; w0 += BLOCK_WORDS) {                                               \
            size_t w1 = w0 + BLOCK_WORDS < words ? w0 + BLOCK_WORDS : words;                               \
            size_t startCount = pending, endCount = 0;                                                     \
            for (size_t w = w0; w < w1; w++) {                                                             \
                uint64_t longStarts = b->longStarts[w];                                                    \
                startCount += flatten4(longStarts, w * 64, starts + startCount);                           \
                endCount += flatten4(ends_holding(b->run[w], longStarts, &carry), w * 64, ends + endCount); \
            }                                                                                              \
            for (size_t k = 0; k < endCount; k++) {                                                        \
                size_t start = starts[k], end = ends[k];                                                   \
                uint32_t flags = RUN_FLAGS(p, n, start, end);                                              \
                if (!(flags & KEYSHAPE_RUN_STRONG)) continue;                                              \
                out[count].start = start;                                                                  \
                out[count].end = end;                                                                      \
                out[count].flags = flags & ~(uint32_t)KEYSHAPE_RUN_STRONG;                                 \
                int keep = 1;                                                                              \
                if ((flags & KEYSHAPE_RUN_NOT_HEX) && (flags & both) != both                               \
                    && !(p[start] == '0' && (p[start + 1] | 0x20) == 'x')) {                               \
                    keep = !DROPS(p, start, end - start, keepBinary);                          \
                }                                                                                          \
                count += (size_t)(keep & !passes_over_hex(flags, p, n, start, end));                      \
            }                                                                                              \
            /* A run that goes on into the next block: its start waits for its end. */                    \
            pending = startCount - endCount;                                                               \
            for (size_t k = 0; k < pending; k++) starts[k] = starts[endCount + k];                         \
        }                                                                                                  \
        return count;                                                                                      \
    }

#define RUN_FLAGS_SCALAR(p, n, start, end) run_flags_scalar(p, start, end)
LIST_RUNS(list_runs_plain, , , RUN_FLAGS_SCALAR, drops_scalar)
#if KEYSHAPE_X86

/// Base64 values of 32 run characters (or zero bytes, whose value is 0), each quantum's 24
/// bits in a 32-bit lane, first character highest (`quanta16` twice as wide).
AVX2 static inline __m256i quanta32(__m256i x) {
    __m256i high = _mm256_and_si256(_mm256_srli_epi32(x, 4), _mm256_set1_epi8(0x0F));
    __m256i offsets = _mm256_setr_epi8(0, 0, 16, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0,
                                       0, 0, 16, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0);
    __m256i v = _mm256_add_epi8(x, _mm256_shuffle_epi8(offsets, high));
    v = _mm256_add_epi8(v, _mm256_and_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('+')), _mm256_set1_epi8(3)));
    v = _mm256_add_epi8(v, _mm256_and_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('-')), _mm256_set1_epi8(1)));
    v = _mm256_add_epi8(v, _mm256_and_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('_')), _mm256_set1_epi8(33)));
    return _mm256_madd_epi16(_mm256_maddubs_epi16(v, _mm256_set1_epi32(0x01400140)), _mm256_set1_epi32(0x00011000));
}

/// The OR of a register's two halves.
AVX2 static inline __m128i fold_halves(__m256i x) {
    return _mm_or_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256(x, 1));
}

/// Printable bytes (0x20 to 0x7E) as 0xFF.
AVX2 static inline __m256i printable32(__m256i x) {
    __m256i fromSpace = _mm256_sub_epi8(x, _mm256_set1_epi8(0x20));
    return _mm256_cmpeq_epi8(_mm256_min_epu8(fromSpace, _mm256_set1_epi8(0x5E)), fromSpace);
}

/// A run's bytes from its first, `start`, for 64 bytes: in the buffer, or, within 64 bytes
/// of its end, copied to `copy` (no load reads past the buffer).
static inline const uint8_t *run_bytes(const uint8_t *p, size_t n, size_t start, uint8_t copy[64]) {
    if (__builtin_expect(start + 64 <= n, 1)) return p + start;
    memset(copy, 0, 64);
    memcpy(copy, p + start, n - start);
    return copy;
}

/// 32 bytes of 0xFF, then 32 of 0: `bytes_in_run`'s sliding window.
static const uint8_t firstOnes[64] = {
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
};

/// 0xFF in the first `length` bytes of 32 (all of them from 32 on): a load from a sliding
/// window, where a compare with a broadcast length took three instructions.
AVX2 static inline __m256i bytes_in_run(size_t length) {
    return _mm256_loadu_si256((const __m256i *)(firstOnes + 32 - (length < 32 ? length : 32)));
}

/// The AVX2 lister's long-run starts and ends for the words `w0..<w1` of a block (`starts[k]`
/// and `ends[k]` for word `w0 + k`), both from where LONG_RUN run characters in a row start
/// (`long_windows`): a run's first byte, and the byte LONG_RUN after the last such window's start,
/// past the run. The doubling steps run once for both, where `long_starts` and `long_ends`
/// each took them; and a block at a time, into the lister's own arrays in cache: as three
/// whole-buffer bitmaps they took the same time in the harness, but wrote 0.37 times the
/// buffer's size more into memory that the matcher shares the cache with.
/// `*windowsBefore` carries the last word's windows to the next block.
AVX2 static void block_pairs_avx2(const uint64_t *run, size_t words, size_t w0, size_t w1, uint64_t *windowsBefore,
                                  uint64_t *starts, uint64_t *ends) {
    uint64_t windows[BLOCK_WORDS];
    size_t last = w1 < words ? w1 : words - 1;
    for (size_t w = w0; w < last; w++) windows[w - w0] = long_windows(run[w], run[w + 1]);
    if (last < w1) windows[last - w0] = long_windows(run[last], 0);
    starts[0] = windows[0] & ~((run[w0] << 1) | (w0 > 0 ? run[w0 - 1] >> 63 : 0));
    ends[0] = ((windows[0] << LONG_RUN) | (*windowsBefore >> (64 - LONG_RUN))) & ~run[w0];
    for (size_t w = w0 + 1; w < w1; w++) {
        starts[w - w0] = windows[w - w0] & ~((run[w] << 1) | (run[w - 1] >> 63));
        ends[w - w0] = ((windows[w - w0] << LONG_RUN) | (windows[w - w0 - 1] >> (64 - LONG_RUN))) & ~run[w];
    }
    *windowsBefore = windows[w1 - 1 - w0];
}

// The AVX2 lister's leads are the run classes' top three bits: a lead's entry is 0x20 or
// more, and adding 0x60 (saturating) sets its top bit.
_Static_assert(N_LEAD == 0xE0 && N_I_TO_O == 0x20, "the lead classes are the top three bits");

/// The vector listers' step 2 keeps whether a run is read as base64 from its first byte in
/// its flags' top bit, and step 4 clears it.
enum { CHECKED_BIT = 0x80 };

/// The vector listers' step 2 for one long run, from what it holds (`KEYSHAPE_RUN_*`, the
/// strong bit left out), whether it starts with `0x`, the bad bytes its four quanta's first
/// characters give (`bad_by_first_characters`) and its leads (bit k: byte k, a lead
/// character; the first 64 bytes): whether the finder reads it as base64 from its first byte
/// (`*checked`), and whether that drops it unread, by a length no base64 has or by its first
/// characters (for binary spans kept, only with no three quanta in a row whose first bytes
/// may be printable; a run over 64 is left to step 3).
static inline int drops_by_first_quanta(uint32_t flags, int zeroX, size_t badFirst, uint64_t lead, size_t length,
                                        int keepBinary, int *checked) {
    const uint32_t both = KEYSHAPE_RUN_STANDARD_ONLY | KEYSHAPE_RUN_URL_ONLY;
    const uint64_t quantumLanes = 0x1111111111111111ULL;
    *checked = ((flags & KEYSHAPE_RUN_NOT_HEX) != 0) & ((flags & both) != both) & !zeroX;
    int textNever = badFirst > decoded_length(length) / 16;
    int runNever = ((lead & (lead >> 4) & (lead >> 8) & quantumLanes) == 0) & (length <= 64);
    return *checked & (((length & 3) == 1) | (textNever & ((keepBinary == 0) | runNever)));
}

/// The vector listers' step 3: whether two printable whole quanta and a printable first
/// byte follow each other in a run's decode, from which of its decoded bytes are printable
/// (bit 4 j + k: byte k of quantum j's 32-bit lane, third, second, first byte, then 0; the
/// first 16 quanta: exact for runs of 64 characters and fewer).
static inline int holds_printable_run(uint64_t printable, size_t length) {
    const uint64_t quantumLanes = 0x1111111111111111ULL;
    size_t wholeQuanta = length / 4, quantaCount = wholeQuanta + ((length & 3) >= 2);
    uint64_t whole = printable & (printable >> 1) & (printable >> 2) & quantumLanes
                   & (wholeQuanta < 16 ? ((uint64_t)1 << (4 * wholeQuanta)) - 1 : ~(uint64_t)0);
    uint64_t firsts = (printable >> 2) & quantumLanes & (quantaCount < 16 ? ((uint64_t)1 << (4 * quantaCount)) - 1 : ~(uint64_t)0);
    return (whole & (whole >> 4) & (firsts >> 8)) != 0;
}

/// The vector listers' step 4 for the survivors `first..<first + group`, whose decoded
/// prefixes' bad bytes are `bad` (bit 16 j + k: byte k of survivor `first + j`): each written
/// to `out[count]`, counted when kept (and not hex the finder passes over); returns the new
/// count. The hex test is here, on the few survivors, not in step 2 with the runs' other
/// tests: there, on every long run, the C pass took 1.05 times as long (AVX2 harness, 100 MB
/// of the benchmark tree, 8 alternating pairs); here it takes no time that shows.
static inline size_t list_survivors(const uint8_t *p, size_t n, uint64_t bad, size_t first, size_t group, const size_t *starts, const size_t *ends,
                                    const uint8_t *flagsOf, const uint8_t *keepIfText, keyshape_run_candidate *out,
                                    size_t count) {
    for (size_t j = 0; j < group; j++) {
        size_t i = first + j;
        int text = (size_t)__builtin_popcountll((bad >> (16 * j)) & 0xFFFF) <= decoded_length(ends[i] - starts[i]) / 16;
        out[count].start = starts[i];
        out[count].end = ends[i];
        out[count].flags = flagsOf[i] & (uint8_t)~CHECKED_BIT;
        count += (size_t)((!keepIfText[i] | text) & !passes_over_hex(flagsOf[i], p, n, starts[i], ends[i]));
    }
    return count;
}

/// For each set of four words (bit k: word k), the indices of its members, in order: the
/// lister's step 1 lists the words that hold a long run's start or end four at a time.
static const uint32_t setLanes[16][4] = {
    {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
    {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0}, {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3},
};

/// The indices of the words `w` in `from..<to` where `a[w] | b[w]` is not zero, in order,
/// four words a test; returns how many. Each test writes four indices, but the count never
/// passes the words read: `out` needs room for `to - from` only. The lister's step 1 (the
/// words holding a long run's start or end) and the stop words (`a` and `b` the same) of
/// the AVX2 tier.
AVX2 static size_t nonzero_words_avx2(const uint64_t *a, const uint64_t *b, size_t from, size_t to, uint32_t *out) {
    size_t count = 0, w = from;
    for (; w + 4 <= to; w += 4) {
        __m256i either = _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(a + w)), _mm256_loadu_si256((const __m256i *)(b + w)));
        unsigned has = ~(unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(either, _mm256_setzero_si256()))) & 15;
        _mm_storeu_si128((__m128i *)(out + count), _mm_add_epi32(_mm_set1_epi32((int)w), _mm_loadu_si128((const __m128i *)setLanes[has])));
        count += (size_t)__builtin_popcount(has);
    }
    for (; w < to; w++) {
        out[count] = (uint32_t)w;
        count += (a[w] | b[w]) != 0;
    }
    return count;
}

/// `bad_bytes` of two values at once: each 16-byte half of `y` holds one value's first 12
/// decoded bytes, then four zero bytes; bit `16 j + k` of the result is byte `k` of value `j`.
AVX2 static inline uint64_t bad_in_prefixes2(__m256i y) {
    __m256i tabLfCr = _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(y, _mm256_set1_epi8(9)), _mm256_cmpeq_epi8(y, _mm256_set1_epi8(10))),
                                      _mm256_cmpeq_epi8(y, _mm256_set1_epi8(13)));
    __m256i bad = _mm256_or_si256(_mm256_or_si256(_mm256_andnot_si256(tabLfCr, within32(y, 0x1F)), _mm256_cmpeq_epi8(y, _mm256_set1_epi8(0x7F))),
                                  _mm256_or_si256(within32(_mm256_sub_epi8(y, _mm256_set1_epi8((char)0xC0)), 1),
                                                  within32(_mm256_sub_epi8(y, _mm256_set1_epi8((char)0xF5)), 0x0A)));
    utf8_masks m = {
        (uint32_t)_mm256_movemask_epi8(bad),
        (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(y, _mm256_set1_epi8((char)0xC0)), _mm256_set1_epi8((char)0x80))),
        (uint32_t)_mm256_movemask_epi8(within32(_mm256_sub_epi8(y, _mm256_set1_epi8((char)0xC2)), 0xDF - 0xC2)),
        (uint32_t)_mm256_movemask_epi8(within32(_mm256_sub_epi8(y, _mm256_set1_epi8((char)0xE0)), 0x0F)),
        (uint32_t)_mm256_movemask_epi8(within32(_mm256_sub_epi8(y, _mm256_set1_epi8((char)0xF0)), 0x04)),
    };
    return bad_bytes(m, 0x0FFF0FFFULL);
}

/// The AVX2 run lister: the same list as `LIST_RUNS`, in the AVX-512 lister's steps, with
/// no branch on what a run holds (a long run in source is kept or dropped about as
/// unpredictably as a coin, and `LIST_RUNS` branched on it at every check):
///   1. each long run's start and end, from the word lists of `LIST_RUNS`;
///   2. a run at a time, up to 64 of its bytes in two registers and their classes from one
///      nibble lookup (`keyshape_run_nibbles`): whether it holds a strong byte, what else it
///      holds, and whether its length or the first characters of its first four quanta
///      already drop it, as the AVX-512 lister's step 2; the runs that survive are kept in
///      order;
///   3. a survivor at a time, its first 12 decoded bytes' bad bytes and, when binary spans are
///      kept, whether two printable whole quanta and a printable first byte follow each other
///      in its decode (exact for 16 quanta and fewer), as the AVX-512 lister's steps 3 and 4.
/// On 100 MB of the benchmark tree in 100 KB buffers already in cache, the pass and list took
/// 0.037 s, against 0.053 s with the compares of `classify32` before and `LIST_RUNS` (fastest
/// of five rounds, the two interleaved buffer by buffer, on one AVX2 processor); per round,
/// 0.70 to 0.74 of the time.
AVX2 static size_t list_runs_avx2(const uint8_t *p, size_t n, size_t words, int keepBinary, const bitmaps *b,
                                  keyshape_run_candidate *out) {
    const __m256i low = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)keyshape_run_nibbles));
    const __m256i high = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(keyshape_run_nibbles + 16)));
    const __m128i prefixOrder = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    size_t starts[4 * BLOCK_WORDS + 8], ends[4 * BLOCK_WORDS + 4];
    uint8_t flagsOf[4 * BLOCK_WORDS + 8];
    uint32_t wordsWithEnds[BLOCK_WORDS];
    uint8_t keepIfText[4 * BLOCK_WORDS + 8];
    uint8_t prefixes[16 * (4 * BLOCK_WORDS + 8)] __attribute__((aligned(32)));
    uint8_t copy[64];
    uint64_t startWords[BLOCK_WORDS], endWords[BLOCK_WORDS], windowsBefore = 0;
    size_t pending = 0, count = 0;
    for (size_t w0 = 0; w0 < words; w0 += BLOCK_WORDS) {
        size_t w1 = w0 + BLOCK_WORDS < words ? w0 + BLOCK_WORDS : words;
        // 1. The words that hold a long run's start or end (a third of the words in source),
        // listed without a branch, then their starts and ends. Flattening every word, as
        // `LIST_RUNS` does, took 43% of the lister's time.
        block_pairs_avx2(b->run, words, w0, w1, &windowsBefore, startWords, endWords);
        size_t holding = nonzero_words_avx2(startWords, endWords, 0, w1 - w0, wordsWithEnds);
        size_t startCount = pending, endCount = 0;
        for (size_t j = 0; j < holding; j++) {
            size_t k = wordsWithEnds[j];
            startCount += flatten2(startWords[k], (w0 + k) * 64, starts + startCount);
            endCount += flatten2(endWords[k], (w0 + k) * 64, ends + endCount);
        }
        // 2. `&` rather than `&&`, and the drop kept in a register (`asm`), as in the AVX-512
        // lister: one branch, on what is rarely true.
        size_t survivors = 0;
        for (size_t k = 0; k < endCount; k++) {
            size_t start = starts[k], end = ends[k], length = end - start;
            const uint8_t *q = run_bytes(p, n, start, copy);
            // The first 32 bytes; the next 32 only for the runs that have them (11% of the
            // long runs in source: the branch costs less than the work it saves).
            __m256i in = bytes_in_run(length), c = nibble_classes32(_mm256_and_si256(_mm256_loadu_si256((const __m256i *)q), in), low, high);
            __m256i any = c;
            // A dash or underscore: N_DASH_SLASH_UNDERSCORE without N_PLUS_SLASH (the bit
            // below it, shifted up).
            __m256i dashUnderscore = _mm256_andnot_si256(_mm256_slli_epi16(c, 1), c);
            __m256i notHex = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(c, _mm256_set1_epi8(N_HEX)), _mm256_setzero_si256()), in);
            // A lead's entry is 0x20 or more: the saturating add sets its top bit.
            uint64_t lead = (uint32_t)_mm256_movemask_epi8(_mm256_adds_epu8(c, _mm256_set1_epi8(0x80 - N_I_TO_O)));
            if (length > 32) {
                in = bytes_in_run(length - 32);
                c = nibble_classes32(_mm256_and_si256(_mm256_loadu_si256((const __m256i *)(q + 32)), in), low, high);
                any = _mm256_or_si256(any, c);
                dashUnderscore = _mm256_or_si256(dashUnderscore, _mm256_andnot_si256(_mm256_slli_epi16(c, 1), c));
                notHex = _mm256_or_si256(notHex, _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(c, _mm256_set1_epi8(N_HEX)), _mm256_setzero_si256()), in));
                lead |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_adds_epu8(c, _mm256_set1_epi8(0x80 - N_I_TO_O))) << 32;
            }
            // Each register's halves ORed first: four 128-bit tests cost less than four of 256.
            __m128i any128 = fold_halves(any), dashUnderscore128 = fold_halves(dashUnderscore), notHex128 = fold_halves(notHex);
            uint32_t flags = (_mm_testz_si128(notHex128, notHex128) ? 0 : KEYSHAPE_RUN_NOT_HEX)
                           | (_mm_testz_si128(any128, _mm_set1_epi8(N_PLUS_SLASH)) ? 0 : KEYSHAPE_RUN_STANDARD_ONLY)
                           | (_mm_testz_si128(dashUnderscore128, _mm_set1_epi8(N_DASH_SLASH_UNDERSCORE)) ? 0 : KEYSHAPE_RUN_URL_ONLY)
                           | (_mm_testz_si128(any128, _mm_set1_epi8(N_STRONG)) ? 0 : KEYSHAPE_RUN_STRONG);
            if (__builtin_expect(length > 64, 0)) flags |= run_flags_avx2(p, n, start + 64, end);
            int strong = (flags & KEYSHAPE_RUN_STRONG) != 0;
            flags &= ~(uint32_t)KEYSHAPE_RUN_STRONG;
            int checked;
            // The first characters read from memory: the compiler took them from the register
            // the run's bytes were loaded into, an extraction each, 1.03 times as long in all.
            const uint8_t *first = q;
            __asm__("" : "+r"(first));
            int drop = !strong | drops_by_first_quanta(flags, (first[0] == '0') & ((first[1] | 0x20) == 'x'), bad_by_first_characters(first), lead,
                                                       length, keepBinary, &checked);
            __asm__("" : "+r"(drop));
            starts[survivors] = start;
            ends[survivors] = end;
            flagsOf[survivors] = (uint8_t)(flags | (checked ? CHECKED_BIT : 0));
            survivors += !drop;
        }
        // 3. Each survivor's quanta: its first 12 decoded bytes kept for step 4 and, when
        // binary spans are kept, whether it holds a printable run (the second 32 bytes only
        // for the survivors that have them: the branch costs less than their work).
        for (size_t k = 0; k < survivors; k++) {
            size_t start = starts[k], length = ends[k] - start;
            const uint8_t *q = run_bytes(p, n, start, copy);
            __m256i x0 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)q), bytes_in_run(length));
            int checked = (flagsOf[k] & CHECKED_BIT) != 0;
            // Lane bytes: third, second, first decoded byte, then 0 (never printable).
            __m256i quanta0 = quanta32(x0);
            _mm_store_si128((__m128i *)(prefixes + 16 * k), _mm_shuffle_epi8(_mm256_castsi256_si128(quanta0), prefixOrder));
            int holdsRun = 0;
            if (keepBinary) {
                uint64_t printable = (uint32_t)_mm256_movemask_epi8(printable32(quanta0));
                if (length > 32) {
                    __m256i x1 = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(q + 32)), bytes_in_run(length - 32));
                    printable |= (uint64_t)(uint32_t)_mm256_movemask_epi8(printable32(quanta32(x1))) << 32;
                }
                holdsRun = holds_printable_run(printable, length);
                int longAndChecked = (length > 64) & checked;
                __asm__("" : "+r"(longAndChecked));
                if (__builtin_expect(longAndChecked, 0)) holdsRun = !binary_drops(p + start, length);
            }
            keepIfText[k] = (uint8_t)(checked & !((keepBinary != 0) & holdsRun));
        }
        // 4. Two survivors at a time, the bad bytes of their first 12 decoded bytes (one
        // value to each half of a register), and each run written out, counted when kept.
        // One at a time, the bad bytes took about as long as the rest of steps 3 and 4.
        for (size_t k = 0; k < survivors; k += 2) {
            uint64_t bad = bad_in_prefixes2(_mm256_load_si256((const __m256i *)(prefixes + 16 * k)));
            count = list_survivors(p, n, bad, k, survivors - k < 2 ? survivors - k : 2, starts, ends, flagsOf, keepIfText, out, count);
        }
        /* A run that goes on into the next block: its start waits for its end. */
        pending = startCount - endCount;
        for (size_t k = 0; k < pending; k++) starts[k] = starts[endCount + k];
    }
    return count;
}

/// Words `run_start` read, on this thread (`keyshape_masks_backward_words`).
static _Thread_local uint64_t backwardWords;

uint64_t keyshape_masks_backward_words(void) { return backwardWords; }

/// The first byte of the run that ends at `end` (the byte after it), a word at a time
/// backwards: the slow way, for a run that covers a whole word.
static size_t run_start(const uint64_t *run, size_t end) {
    size_t last = end - 1, w = last >> 6;
    uint64_t zeros = ~run[w] & (((uint64_t)1 << (last & 63)) - 1);
    while (!zeros) {
        if (w == 0) return 0;
        zeros = ~run[--w];
        backwardWords++;
    }
    return w * 64 + 64 - (size_t)__builtin_clzll(zeros);
}

/// Whether `strong` has a bit in `start..<end` (a run that covers whole words).
static uint64_t run_holds_strong(const uint64_t *strong, size_t start, size_t end) {
    for (size_t q = start; q < end; q = (q | 63) + 1) {
        uint64_t m = strong[q >> 6] >> (q & 63);
        if (end - q < 64 - (q & 63)) m &= ((uint64_t)1 << (end - q)) - 1;
        if (m) return 1;
    }
    return 0;
}

/// The indices of the nonzero words of `m[from..<to]`, in order, eight words a test; returns
/// how many. The compress writes all eight lanes: the count never passes the words read, so
/// `out` needs room for `to - from` only. Word indices fit 32 bits: buffers stay far below
/// 256 GiB. In source two words in three hold no long run's end and 94% no stop: the lister
/// and the walk read only the others.
__attribute__((target("avx512f,avx512vl,popcnt"))) static size_t nonzero_words_avx512(const uint64_t *m, size_t from, size_t to,
                                                                                      uint32_t *out) {
    const __m256i offsets = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    size_t count = 0, w = from;
    for (; w + 8 <= to; w += 8) {
        __m512i x = _mm512_loadu_si512((const void *)(m + w));
        __mmask8 has = _mm512_test_epi64_mask(x, x);
        __m256i index = _mm256_add_epi32(_mm256_set1_epi32((int)w), offsets);
        _mm256_storeu_si256((__m256i *)(out + count), _mm256_maskz_compress_epi32(has, index));
        count += (size_t)__builtin_popcount(has);
    }
    for (; w < to; w++) {
        out[count] = (uint32_t)w;
        count += m[w] != 0;
    }
    return count;
}

#define AVX512_LISTER __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512cd,gfni,bmi,bmi2,popcnt,avx2,lzcnt")))

/// `bad_bytes` of four values at once: each 16-byte lane of `y` holds one value's first 12
/// decoded bytes, then four zero bytes; bit `16 j + k` of the result is byte `k` of lane `j`.
AVX512_LISTER static inline uint64_t bad_in_prefixes4(__m512i y) {
    uint64_t tabLfCr = _mm512_cmpeq_epi8_mask(y, _mm512_set1_epi8(9)) | _mm512_cmpeq_epi8_mask(y, _mm512_set1_epi8(10))
                     | _mm512_cmpeq_epi8_mask(y, _mm512_set1_epi8(13));
    utf8_masks m = {
        (_mm512_cmple_epu8_mask(y, _mm512_set1_epi8(0x1F)) & ~tabLfCr) | _mm512_cmpeq_epi8_mask(y, _mm512_set1_epi8(0x7F))
            | _mm512_cmple_epu8_mask(_mm512_sub_epi8(y, _mm512_set1_epi8((char)0xC0)), _mm512_set1_epi8(1))
            | _mm512_cmpge_epu8_mask(y, _mm512_set1_epi8((char)0xF5)),
        _mm512_cmpeq_epi8_mask(_mm512_and_si512(y, _mm512_set1_epi8((char)0xC0)), _mm512_set1_epi8((char)0x80)),
        _mm512_cmple_epu8_mask(_mm512_sub_epi8(y, _mm512_set1_epi8((char)0xC2)), _mm512_set1_epi8(0xDF - 0xC2)),
        _mm512_cmple_epu8_mask(_mm512_sub_epi8(y, _mm512_set1_epi8((char)0xE0)), _mm512_set1_epi8(0x0F)),
        _mm512_cmple_epu8_mask(_mm512_sub_epi8(y, _mm512_set1_epi8((char)0xF0)), _mm512_set1_epi8(0x04)),
    };
    return bad_bytes(m, 0x0FFF0FFF0FFF0FFFULL);
}

/// The AVX-512 run lister: the same list as `LIST_RUNS`, found with fewer branches on the
/// data, which cost `LIST_RUNS` most of its time (a long run in source is kept or dropped
/// about as unpredictably as a coin). Four steps a block:
///   1. the words that hold a long run's end, eight at a time; their ends as one list
///      (`flatten4`); then each end's run, its start and whether it holds a strong byte,
///      from its word and the one before, eight ends to a register, with no branch but for
///      runs that cover a whole word (no run without a strong byte is read);
///   2. a run at a time, one masked load of up to 64 of its bytes and one permute of the run
///      class table: what it holds, and whether its length (4k + 1) or the first characters
///      of its first four quanta already drop it (`bad_by_first_characters`, and for binary
///      spans no three quanta in a row with a printable first byte, from the table's
///      `R_LEAD`): the runs that survive (less than half of them in source) are kept in order
///      for the next steps;
///   3. a survivor at a time, its base64 decode in one register: whether two printable whole
///      quanta and a printable first byte follow each other in it (`may_hold_run` and the
///      quanta `binary_drops` reads, exact for 16 quanta and fewer), and its first four quanta
///      kept for step 4;
///   4. four survivors at a time, the bad bytes of their first 12 decoded bytes
///      (`bad_in_prefix` of four lanes), and each run written out, counted when kept.
/// On 231 MB of the benchmark tree, 100 KB buffers already in cache (as after the matcher):
/// the pass and list 0.040 s (best of interleaved rounds on a shared host), against 0.044 s
/// when step 1 branched on each end (whether its run starts in the word before: as
/// unpredictable as the data) and every run was decoded; 0.053 s for `LIST_RUNS`.
AVX512_LISTER static size_t list_runs_avx512(const uint8_t *p, size_t n, size_t words, int keepBinary, const bitmaps *b,
                                             keyshape_run_candidate *out) {
    const __m512i classLow = _mm512_loadu_si512((const void *)keyshape_run_class);
    const __m512i classHigh = _mm512_loadu_si512((const void *)(keyshape_run_class + 64));
    const __m512i valueLow = _mm512_loadu_si512((const void *)keyshape_base64_value);
    const __m512i valueHigh = _mm512_loadu_si512((const void *)(keyshape_base64_value + 64));
    const __m512i prefixOrder = _mm512_broadcast_i32x4(_mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1));
    size_t starts[4 * BLOCK_WORDS + 8], ends[4 * BLOCK_WORDS + 8];
    uint8_t flagsOf[4 * BLOCK_WORDS + 8], keepIfText[4 * BLOCK_WORDS + 8];
    uint8_t prefixes[16 * (4 * BLOCK_WORDS + 8)] __attribute__((aligned(64)));
    uint32_t wordsWithEnds[BLOCK_WORDS];
    size_t count = 0;
    for (size_t w0 = 0; w0 < words; w0 += BLOCK_WORDS) {
        size_t w1 = w0 + BLOCK_WORDS < words ? w0 + BLOCK_WORDS : words;
        // 1. The words that hold a long run's end, eight words a step (a third of the words
        // in source: the rest cost no more than their test), and their ends (a word holds at
        // most four: long runs lie LONG_RUN + 1 bytes apart). Then each end's run: its start
        // and whether it holds a strong byte, read from the end's word and the one before (a
        // long run that ends in a word starts in it or the word before, but for runs
        // that cover a whole word: those search back). Which word it starts in is selected,
        // not branched on: as a branch it was mispredicted for a third of the runs, and a
        // loop over each word's ends for a quarter of the words (step 1 took 0.013 s of the
        // 231 MB's 0.044 s, now 0.010 s). Before, a carry chain through every word
        // (`ends_holding` of the strong bytes) found the strong runs: the C pass took a tenth
        // longer.
        size_t holding = nonzero_words_avx512(b->longStarts, w0, w1, wordsWithEnds);
        size_t endCount = 0;
        for (size_t j = 0; j < holding; j++) {
            size_t v = (size_t)wordsWithEnds[j];
            endCount += flatten4(b->longStarts[v], v * 64, ends + endCount);
        }
        // Eight ends at a time, a 64-bit lane each, the words they read gathered; a run that
        // covers a whole word (neither word has a zero before its end) is mended after, its
        // start searched back. One end at a time, the lister took 11% longer (its samples
        // over 6 interleaved harness runs of 10 rounds of 231 MB: 7,220 against 6,420).
        size_t listed = 0;
        for (size_t k = 0; k < endCount; k += 8) {
            __mmask8 valid = (__mmask8)_bzhi_u32(0xFF, (unsigned)(endCount - k < 8 ? endCount - k : 8));
            __m512i e = _mm512_maskz_loadu_epi64(valid, ends + k);
            __m512i v = _mm512_srli_epi64(e, 6), bit = _mm512_and_si512(e, _mm512_set1_epi64(63));
            __mmask8 notFirst = _mm512_test_epi64_mask(v, v);
            __m512i before = _mm512_mask_sub_epi64(v, notFirst, v, _mm512_set1_epi64(1));
            __m512i runV = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), valid, v, (const long long *)b->run, 8);
            __m512i runB = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), valid & notFirst, before, (const long long *)b->run, 8);
            __m512i strV = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), valid, v, (const long long *)b->strong, 8);
            __m512i strB = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), valid & notFirst, before, (const long long *)b->strong, 8);
            __m512i below = _mm512_sub_epi64(_mm512_sllv_epi64(_mm512_set1_epi64(1), bit), _mm512_set1_epi64(1));
            __m512i zeros = _mm512_andnot_si512(runV, below);
            __m512i zerosBefore = _mm512_ternarylogic_epi64(runB, runB, runB, 0x55);  // ~runB: all ones where v == 0
            __m512i strongHere = _mm512_and_si512(strV, below);
            __mmask8 here = _mm512_test_epi64_mask(zeros, zeros);
            __mmask8 slow = valid & ~here & ~_mm512_test_epi64_mask(zerosBefore, zerosBefore);
            __m512i sixtyFour = _mm512_set1_epi64(64);
            __m512i startHere = _mm512_sub_epi64(sixtyFour, _mm512_lzcnt_epi64(zeros));
            __m512i startBefore = _mm512_sub_epi64(sixtyFour, _mm512_lzcnt_epi64(zerosBefore));
            __m512i base = _mm512_slli_epi64(v, 6);
            __m512i start = _mm512_mask_blend_epi64(here, _mm512_add_epi64(_mm512_sub_epi64(base, sixtyFour), startBefore),
                                                    _mm512_add_epi64(base, startHere));
            // The strong bytes of the word before from the run's start (a shift by 64 gives 0).
            __m512i strongLow = _mm512_srlv_epi64(strB, startBefore);
            __m512i strongInRun = _mm512_mask_blend_epi64(here, _mm512_or_si512(strongHere, strongLow), _mm512_srlv_epi64(strongHere, startHere));
            if (__builtin_expect(slow != 0, 0)) {
                uint64_t s[8], st[8];
                _mm512_storeu_si512((void *)s, start);
                _mm512_storeu_si512((void *)st, strongInRun);
                for (unsigned j = 0; j < 8; j++) {
                    if (!((slow >> j) & 1)) continue;
                    s[j] = run_start(b->run, ends[k + j]);
                    st[j] = run_holds_strong(b->strong, s[j], ends[k + j]);
                }
                start = _mm512_loadu_si512((const void *)s);
                strongInRun = _mm512_loadu_si512((const void *)st);
            }
            __mmask8 keep = valid & _mm512_test_epi64_mask(strongInRun, strongInRun);
            _mm512_storeu_si512((void *)(starts + listed), _mm512_maskz_compress_epi64(keep, start));
            _mm512_storeu_si512((void *)(ends + listed), _mm512_maskz_compress_epi64(keep, e));
            listed += (size_t)__builtin_popcount(keep);
        }
        // 2. Long runs, masked bytes zero (class 0). The strong byte was settled in
        // step 1, so its bit is dropped. `&` rather than `&&` here and below: one branch, on
        // what is rarely true (as `&&`, the compiler branched on each part, `left == 1` as
        // unpredictable as the run). A run read from its first byte (`checked`) is dropped by
        // a length no base64 has, or by more bad bytes among the first 12 decoded than its
        // decode may hold (`bad_by_first_characters`, of the four quanta's first characters:
        // `step 4` counts these bytes too) unless binary spans are kept and three quanta in a
        // row may hold a printable run (a printable first byte wants a `C_LEAD` character;
        // runs over 64 are left to step 3, which reads them whole). 56% of the 1.25 million
        // strong runs in 231 MB of the benchmark tree are dropped here.
        size_t survivors = 0;
        for (size_t k = 0; k < listed; k++) {
            size_t start = starts[k], end = ends[k], length = end - start;
            __mmask64 inRun = _bzhi_u64(~(uint64_t)0, (unsigned)(length < 64 ? length : 64));
            __m512i x = _mm512_maskz_loadu_epi8(inRun, p + start);
            __m512i c = _mm512_maskz_permutex2var_epi8(inRun, classLow, x, classHigh);
            uint32_t flags = class_flags_avx512(c, inRun);
            if (__builtin_expect(length > 64, 0)) flags |= run_flags_avx512(p, classLow, classHigh, start + 64, end);
            flags &= ~(uint32_t)KEYSHAPE_RUN_STRONG;
            uint32_t firstTwo = (uint32_t)_mm_cvtsi128_si32(_mm512_castsi512_si128(x)) & 0xFFFF;
            uint64_t lead = _mm512_test_epi8_mask(c, _mm512_set1_epi8(R_LEAD));
            int checked;
            int drop = drops_by_first_quanta(flags, (firstTwo | 0x2000) == ('0' | 'x' << 8), bad_by_first_characters(p + start), lead,
                                             length, keepBinary, &checked);
            __asm__("" : "+r"(drop));
            starts[survivors] = start;
            ends[survivors] = end;
            flagsOf[survivors] = (uint8_t)(flags | (checked ? CHECKED_BIT : 0));
            survivors += !drop;
        }
        // 3. Each survivor's quanta: every masked-out byte is zero, whose base64 value is 0.
        for (size_t k = 0; k < survivors; k++) {
            size_t start = starts[k], length = ends[k] - start;
            __mmask64 inRun = _bzhi_u64(~(uint64_t)0, (unsigned)(length < 64 ? length : 64));
            __m512i x = _mm512_maskz_loadu_epi8(inRun, p + start);
            int checked = (flagsOf[k] & CHECKED_BIT) != 0;
            // Each quantum's 24-bit value in a 32-bit lane, first character highest (`quanta16`);
            // lane bytes: third, second, first decoded byte, then 0 (never printable).
            __m512i v = _mm512_permutex2var_epi8(valueLow, x, valueHigh);
            __m512i quanta = _mm512_madd_epi16(_mm512_maddubs_epi16(v, _mm512_set1_epi32(0x01400140)), _mm512_set1_epi32(0x00011000));
            _mm_store_si128((__m128i *)(prefixes + 16 * k), _mm512_castsi512_si128(quanta));
            uint64_t printable = _mm512_cmple_epu8_mask(_mm512_sub_epi8(quanta, _mm512_set1_epi8(0x20)), _mm512_set1_epi8(0x5E));
            int holdsRun = holds_printable_run(printable, length);
            // A survivor that is checked is not 4k + 1 long.
            int longAndBinary = (length > 64) & checked & (keepBinary != 0);
            __asm__("" : "+r"(longAndBinary));  // keeps the value whole: else LLVM splits it into branches again
            if (__builtin_expect(longAndBinary, 0)) {
                holdsRun = !binary_drops(p + start, length);
            }
            keepIfText[k] = (uint8_t)(checked & !((keepBinary != 0) & holdsRun));
        }
        // 4. The lanes past the last survivor hold stale bytes: their counts are not read.
        for (size_t k = 0; k < survivors; k += 4) {
            uint64_t bad = bad_in_prefixes4(_mm512_shuffle_epi8(_mm512_load_si512((const void *)(prefixes + 16 * k)), prefixOrder));
            count = list_survivors(p, n, bad, k, survivors - k < 4 ? survivors - k : 4, starts, ends, flagsOf, keepIfText, out, count);
        }
    }
    return count;
}
#endif

size_t keyshape_find_runs_with(int tier, const uint8_t *p, size_t n, int keepBinary, uint64_t *run, uint64_t *stops,
                               uint64_t *scratch, keyshape_run_candidate *out) {
    tier = keyshape_runnable_tier(tier);
    size_t words = keyshape_masks_words(n);
    bitmaps b = {run, stops, scratch, scratch + words};
    uint64_t carryA = 0;
    size_t done = 0;
#if KEYSHAPE_X86
    if (tier == KEYSHAPE_MASKS_AVX512) done = words_avx512(p, n, &b, &carryA);
    else if (tier == KEYSHAPE_MASKS_AVX2) done = words_avx2(p, n, &b, &carryA);
    else if (tier == KEYSHAPE_MASKS_SSE2) done = words_sse2(p, n, &b, &carryA);
#endif
    words_tail(p, done, n, words, &b, &carryA);
#if KEYSHAPE_X86
    if (tier == KEYSHAPE_MASKS_AVX512) {
        word_ends_avx512(words, &b);
        return list_runs_avx512(p, n, words, keepBinary, &b, out);
    }
    if (tier == KEYSHAPE_MASKS_AVX2) {
        return list_runs_avx2(p, n, words, keepBinary, &b, out);
    }
#endif
    word_pairs_plain(words, &b);
    return list_runs_plain(p, n, words, keepBinary, &b, out);
}

size_t keyshape_stop_words_with(int tier, const uint64_t *stops, size_t words, uint32_t *out) {
    tier = keyshape_runnable_tier(tier);
#if KEYSHAPE_X86
    if (tier == KEYSHAPE_MASKS_AVX512) return nonzero_words_avx512(stops, 0, words, out);
    if (tier == KEYSHAPE_MASKS_AVX2) return nonzero_words_avx2(stops, stops, 0, words, out);
#endif
    size_t count = 0;
    for (size_t w = 0; w < words; w++) {
        out[count] = (uint32_t)w;
        count += stops[w] != 0;
    }
    return count;
}

size_t keyshape_stop_words(const uint64_t *stops, size_t words, uint32_t *out) {
    return keyshape_stop_words_with(keyshape_masks_tier(), stops, words, out);
}

size_t keyshape_find_runs(const uint8_t *p, size_t n, int keepBinary, uint64_t *run, uint64_t *stops, uint64_t *scratch,
                          keyshape_run_candidate *out) {
    return keyshape_find_runs_with(keyshape_masks_tier(), p, n, keepBinary, run, stops, scratch, out);
}
