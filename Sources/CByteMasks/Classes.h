// What each byte is to the candidate search, and the tier this process runs: shared by the
// classifying pass (ByteMasks.c) and the base64 check (Base64Drops.h).
#ifndef KEYSHAPE_CLASSES_H
#define KEYSHAPE_CLASSES_H

#include "ByteMasks.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define KEYSHAPE_X86 1
#endif

/// Minimum length of a base64 run the finder looks at (`KEYSHAPE_LONG_RUN`). Two to five
/// doubling steps make windows of any length from 2 to 32 (`long_windows`), so only that
/// range is supported.
enum { LONG_RUN = KEYSHAPE_LONG_RUN };
_Static_assert(LONG_RUN >= 2 && LONG_RUN <= 32, "long_windows' steps");
/// The shortest run of hex digits the finder decodes as hex (`KEYSHAPE_HEX_RUN`).
enum { HEX_RUN = KEYSHAPE_HEX_RUN };

/// The class bits of one byte (`classOf`).
enum {
    C_RUN = 1,          // letters, digits, + / - _
    C_STRONG = 2,       // upper case, digits
    C_STOP = 4,         // backslash, %
    C_COLON = 8,
    C_LETTER_A = 16,    // a or A
    C_HEX = 32,         // 0-9 a-f A-F
    C_PLUS_SLASH = 64,
    C_DASH_UNDERSCORE = 128,
    C_LEAD = 256,       // I-Z a-f: as a base64 quantum's first character, a printable first byte
};

/// The classes the AVX-512 classifying pass reads (`keyshape_class_words`), one bit each: bit
/// `k` of a byte's entry becomes word `k` of the pass's bit transpose.
enum { W_RUN_BIT, W_STRONG_BIT, W_STOP_BIT, W_COLON_BIT, W_LETTER_A_BIT };

/// What a run character is to the AVX-512 lister (`keyshape_run_class`): `C_STRONG`, `C_HEX`,
/// `C_PLUS_SLASH` and `C_DASH_UNDERSCORE` as in `keyshape_class_of`, and in a bit a run
/// character's class has no use for, whether a base64 quantum it starts has a printable
/// first byte (`C_LEAD`).
enum { R_LEAD = C_STOP };

/// The AVX2 tier's classes come from two 16-entry byte shuffles (`pshufb`), of a byte's low
/// and of its high nibble, ANDed: bit k is set when the byte lies in rectangle k, a set of low
/// nibbles by a set of high nibbles (bytes from 0x80 lie in none). `keyshape_word_nibbles`
/// (low nibbles' entries, then high nibbles') has the classifying pass's rectangles: the three
/// stop characters alone in the low bits (`WN_*`), then bits 3 to 7, which cover the run
/// characters (`A-O a-o`, `P-Z p-z`, digits, `+ - /`, `_`): a byte is a run character when
/// its entry is `WN_FIRST_RUN` or more. `keyshape_run_nibbles` has the lister's, read for run characters
/// only (`N_*`).
extern uint8_t keyshape_word_nibbles[32], keyshape_run_nibbles[32];
enum { WN_BACKSLASH = 1, WN_PERCENT = 2, WN_COLON = 4, WN_FIRST_RUN = 8 };
enum {
    N_DIGIT = 1,
    N_A_TO_O = 2,
    N_HEX_LETTER = 4,               // A-F a-f
    N_PLUS_SLASH = 8,
    N_DASH_SLASH_UNDERSCORE = 16,   // a dash or underscore has it without N_PLUS_SLASH
    N_I_TO_O = 32,
    N_P_TO_Z = 64,
    N_LOWER_A_TO_F = 128,
    N_STRONG = N_DIGIT | N_A_TO_O | N_P_TO_Z,
    N_HEX = N_DIGIT | N_HEX_LETTER,
    // The lead characters' bits are the top three: a lead's entry is 0x20 or more.
    N_LEAD = N_I_TO_O | N_P_TO_Z | N_LOWER_A_TO_F,
};

/// Filled once (`keyshape_masks_tier` makes sure): each byte's class bits; for the ASCII ones,
/// their `W_*_BIT` classes and their run classes (`R_LEAD` above), for AVX-512's two-table
/// byte permutes in the classifying pass and the lister; the 6-bit
/// value of a base64 character of either alphabet (0 for anything else: the callers pass
/// run characters only); by a base64 character, whether a quantum it starts has a first byte
/// that is always bad (`alwaysBadFirst`: `A B E F G H + / - _`, bytes below 0x20 or from F8),
/// or that is bad as a text's first byte (`firstBad`: also `g` to `v`, continuation bytes).
extern uint16_t keyshape_class_of[256];
extern uint8_t keyshape_class_words[128], keyshape_run_class[128];
extern uint8_t keyshape_base64_value[256], keyshape_always_bad_first[256], keyshape_first_bad[256];

/// The tier to run for a tier asked for: no wider than the hardware's.
int keyshape_runnable_tier(int asked);

#endif
