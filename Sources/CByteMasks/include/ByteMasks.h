#ifndef KEYSHAPE_BYTE_MASKS_H
#define KEYSHAPE_BYTE_MASKS_H

#include <stddef.h>
#include <stdint.h>

/// The decoders' candidate search in C: one classifying pass over a buffer into bitmaps (bit
/// `i & 63` of word `i >> 6` is byte `i`), the list of long runs worth decoding, and the
/// check that drops a base64 candidate from its first characters. As wide as the processor
/// allows (`keyshape_masks_tier`); every tier gives the same results.

/// The shortest run of base64 characters the finder decodes (`SpanFinder.minimumBase64Length`,
/// where the choice is explained) and the shortest run of hex digits it decodes as hex
/// (`SpanFinder.minimumHexLength`): one definition for the C pass and the Swift walk.
enum {
    KEYSHAPE_LONG_RUN = 22,
    KEYSHAPE_HEX_RUN = 32,
};

/// One run of `KEYSHAPE_LONG_RUN` or more base64 characters (either alphabet), from its first byte:
/// `start..<end`, and what else it holds (`KEYSHAPE_RUN_*`).
typedef struct {
    uint64_t start;
    uint64_t end;
    uint32_t flags;
} keyshape_run_candidate;

enum {
    KEYSHAPE_RUN_NOT_HEX = 1,        // a character that is not a hex digit
    KEYSHAPE_RUN_STANDARD_ONLY = 2,  // `+` or `/`
    KEYSHAPE_RUN_URL_ONLY = 4,       // `-` or `_`
    KEYSHAPE_RUN_STRONG = 8,         // an upper-case letter or a digit
};

/// Words in each bitmap of a buffer of `n` bytes: one more than `n` needs, so bit `n` exists.
size_t keyshape_masks_words(size_t n);

/// Fills two bitmaps of `keyshape_masks_words(n)` words each:
///   `run`:     a base64 run character of either alphabet (letters, digits, `+ / - _`);
///   `stops`:   where the byte walk must stop outside a run: every backslash (it eats the
///              byte after it), every `%`, a `:` after `a` or `A` (a superset of `data:`);
/// (bits past `n` are zero) and writes to `out` (room for `n / 16 + 1`), in order, every run
/// of `KEYSHAPE_LONG_RUN` or more run characters that does not continue a run (`run[q] && !run[q - 1]`), holds
/// a strong byte and is not one the finder drops unread (a run it reads as base64 from its
/// first byte, for which `keyshape_base64_drops` says so with this `keepBinary`; hex digits
/// alone, shorter than 32 or of odd length, with no `=` after them); returns how many. `scratch` holds `2 * keyshape_masks_words(n)` words.
size_t keyshape_find_runs(const uint8_t *p, size_t n, int keepBinary, uint64_t *run, uint64_t *stops, uint64_t *scratch,
                          keyshape_run_candidate *out);

/// The words of a `stops` bitmap of `words` words (from `keyshape_find_runs`) that hold a
/// stop, in order, as word indices (room for `words`; a buffer's words fit 32 bits, as
/// buffers stay far below 256 GiB); returns how many. The walk goes from stop to stop through
/// this list rather than testing every word: in source 5.8% of the words hold one (231 MB of
/// the benchmark tree).
size_t keyshape_stop_words(const uint64_t *stops, size_t words, uint32_t *out);

/// Whether the base64 characters `buffer[from..<from + count]` (either alphabet, padding left
/// out) certainly decode to bytes the finder drops (`SpanFinder`'s `keep`): a length no base64
/// has (4k + 1); or, of 16 characters or more, the first 12 decoded bytes already hold more
/// bytes that `TextCheck.isText` counts as bad than the decode's length / 16, and, when
/// `keepBinary`, no 10 printable bytes in a row can be among the decoded bytes
/// (`TextCheck.mayHoldEncoding`). 0 when it cannot tell: the caller decodes.
int keyshape_base64_drops(const uint8_t *buffer, size_t from, size_t count, int keepBinary);

/// Words the AVX-512 run lister has read backwards on this thread, searching for the start
/// of runs that cover whole words: at most one read per word of such a run, for the tests
/// to check that the search stays linear in the buffer.
uint64_t keyshape_masks_backward_words(void);

/// The implementations, widest last.
enum {
    KEYSHAPE_MASKS_SCALAR = 0,   // a byte loop: the reference the others are tested against
    KEYSHAPE_MASKS_SSE2 = 1,     // 16 bytes a step (every x86-64)
    KEYSHAPE_MASKS_AVX2 = 2,     // 32 bytes a step; base64 decoded four quanta to a register
    KEYSHAPE_MASKS_AVX512 = 3,   // 64 bytes a step, one table lookup (AVX-512 BW, VBMI, CD and GFNI)
};

/// The widest implementation this processor and OS run; the environment variable
/// `KEYSHAPE_SIMD` (`scalar`, `sse2`, `avx2`) may lower it, to measure the others.
int keyshape_masks_tier(void);

/// The widest tier the processor runs, whatever `KEYSHAPE_SIMD` says.
int keyshape_masks_hardware_tier(void);

/// `keyshape_find_runs`, `keyshape_stop_words` and `keyshape_base64_drops` with one
/// implementation; a tier the processor does not run falls back to the widest one it does.
size_t keyshape_find_runs_with(int tier, const uint8_t *p, size_t n, int keepBinary, uint64_t *run, uint64_t *stops,
                               uint64_t *scratch, keyshape_run_candidate *out);
size_t keyshape_stop_words_with(int tier, const uint64_t *stops, size_t words, uint32_t *out);
int keyshape_base64_drops_with(int tier, const uint8_t *buffer, size_t from, size_t count, int keepBinary);

#endif
