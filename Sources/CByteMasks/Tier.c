// Which implementation runs, chosen once per process, and the tables every tier reads.
#include "Classes.h"

#include <stdlib.h>
#include <string.h>

#if KEYSHAPE_X86
#include <cpuid.h>
#endif

uint16_t keyshape_class_of[256];
uint8_t keyshape_class_words[128], keyshape_run_class[128];
uint8_t keyshape_word_nibbles[32], keyshape_run_nibbles[32];
uint8_t keyshape_base64_value[256], keyshape_always_bad_first[256], keyshape_first_bad[256];

static uint16_t class_of(uint8_t b) {
    uint8_t lower = b | 0x20;
    int letter = lower >= 'a' && lower <= 'z';
    int digit = b >= '0' && b <= '9';
    int upper = letter && (b & 0x20) == 0;
    uint16_t c = 0;
    if (letter || digit || b == '+' || b == '/' || b == '-' || b == '_') c |= C_RUN;
    if (upper || digit) c |= C_STRONG;
    if (b == '\\' || b == '%') c |= C_STOP;
    if (b == ':') c |= C_COLON;
    if (lower == 'a') c |= C_LETTER_A;
    if (digit || (lower >= 'a' && lower <= 'f')) c |= C_HEX;
    if (b == '+' || b == '/') c |= C_PLUS_SLASH;
    if (b == '-' || b == '_') c |= C_DASH_UNDERSCORE;
    if ((b >= 'I' && b <= 'Z') || (b >= 'a' && b <= 'f')) c |= C_LEAD;
    return c;
}

/// The widest tier cpuid and the OS's saved register state (XCR0) allow.
static int hardware_tier(void) {
#if KEYSHAPE_X86
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return KEYSHAPE_MASKS_SSE2;
    int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, popcnt = (c >> 23) & 1;
    if (!osxsave || !avx || !popcnt) return KEYSHAPE_MASKS_SSE2;
    uint32_t xlo, xhi;
    __asm__ volatile("xgetbv" : "=a"(xlo), "=d"(xhi) : "c"(0));
    if ((xlo & 0x6) != 0x6) return KEYSHAPE_MASKS_SSE2;  // XMM and YMM state
    if (__get_cpuid_max(0, 0) < 7) return KEYSHAPE_MASKS_SSE2;
    __cpuid_count(7, 0, a, b, c, d);
    int bmi1 = (b >> 3) & 1, avx2 = (b >> 5) & 1, bmi2 = (b >> 8) & 1, avx512f = (b >> 16) & 1, avx512cd = (b >> 28) & 1,
        avx512bw = (b >> 30) & 1,
        vbmi = (c >> 1) & 1, gfni = (c >> 8) & 1;
    if (!avx2 || !bmi1) return KEYSHAPE_MASKS_SSE2;
    // GFNI for the classifying pass's bit transpose (every processor with VBMI has it but
    // Cannon Lake, which runs the AVX2 tier) and CD for the lister's leading-zero counts.
    if (avx512f && avx512cd && avx512bw && vbmi && gfni && bmi2 && (xlo & 0xE6) == 0xE6) return KEYSHAPE_MASKS_AVX512;  // opmask, ZMM state
    return KEYSHAPE_MASKS_AVX2;
#else
    return KEYSHAPE_MASKS_SCALAR;
#endif
}

/// A rectangle of `Classes.h`'s nibble tables: its bit, its low nibbles and its high
/// nibbles (bit k of each set: nibble k).
typedef struct {
    uint8_t bit;
    uint16_t lows, highs;
} rectangle;

#define NIBBLES(from, to) ((uint16_t)(((1u << ((to) + 1)) - 1) & ~((1u << (from)) - 1)))
#define NIBBLE(k) ((uint16_t)(1u << (k)))

static void fill_nibbles(uint8_t *table, const rectangle *r, int count) {
    for (int k = 0; k < count; k++) {
        for (int nibble = 0; nibble < 16; nibble++) {
            if ((r[k].lows >> nibble) & 1) table[nibble] |= r[k].bit;
            if ((r[k].highs >> nibble) & 1) table[16 + nibble] |= r[k].bit;
        }
    }
}

static void fill_nibble_tables(void) {
    const rectangle word[] = {
        {WN_BACKSLASH, NIBBLE(12), NIBBLE(5)},
        {WN_PERCENT, NIBBLE(5), NIBBLE(2)},
        {WN_COLON, NIBBLE(10), NIBBLE(3)},
        {WN_FIRST_RUN, NIBBLES(1, 15), NIBBLE(4) | NIBBLE(6)},        // A-O a-o
        {WN_FIRST_RUN << 1, NIBBLES(0, 10), NIBBLE(5) | NIBBLE(7)},   // P-Z p-z
        {WN_FIRST_RUN << 2, NIBBLES(0, 9), NIBBLE(3)},                // 0-9
        {WN_FIRST_RUN << 3, NIBBLE(11) | NIBBLE(13) | NIBBLE(15), NIBBLE(2)},  // + - /
        {WN_FIRST_RUN << 4, NIBBLE(15), NIBBLE(5)},                   // _
    };
    const rectangle run[] = {
        {N_DIGIT, NIBBLES(0, 9), NIBBLE(3)},
        {N_A_TO_O, NIBBLES(1, 15), NIBBLE(4)},
        {N_HEX_LETTER, NIBBLES(1, 6), NIBBLE(4) | NIBBLE(6)},
        {N_PLUS_SLASH, NIBBLE(11) | NIBBLE(15), NIBBLE(2)},
        // Also `]` (not a run character) and `/`, which N_PLUS_SLASH tells apart.
        {N_DASH_SLASH_UNDERSCORE, NIBBLE(13) | NIBBLE(15), NIBBLE(2) | NIBBLE(5)},
        {N_I_TO_O, NIBBLES(9, 15), NIBBLE(4)},
        {N_P_TO_Z, NIBBLES(0, 10), NIBBLE(5)},
        {N_LOWER_A_TO_F, NIBBLES(1, 6), NIBBLE(6)},
    };
    fill_nibbles(keyshape_word_nibbles, word, (int)(sizeof word / sizeof word[0]));
    fill_nibbles(keyshape_run_nibbles, run, (int)(sizeof run / sizeof run[0]));
}

/// Computed once; a race computes the same values twice.
static volatile int chosenTier = -1;
static volatile int hardwareTier = -1;

static void choose(void) {
    for (int b = 0; b < 256; b++) keyshape_class_of[b] = class_of((uint8_t)b);
    for (int b = 0; b < 128; b++) {
        uint16_t c = keyshape_class_of[b];
        keyshape_class_words[b] = (uint8_t)(((c & C_RUN) ? 1 << W_RUN_BIT : 0) | ((c & C_STRONG) ? 1 << W_STRONG_BIT : 0)
                                          | ((c & C_STOP) ? 1 << W_STOP_BIT : 0) | ((c & C_COLON) ? 1 << W_COLON_BIT : 0)
                                          | ((c & C_LETTER_A) ? 1 << W_LETTER_A_BIT : 0));
    }
    const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    for (int k = 0; k < 62; k++) keyshape_base64_value[(uint8_t)alphabet[k]] = (uint8_t)k;
    keyshape_base64_value['+'] = 62; keyshape_base64_value['-'] = 62;
    keyshape_base64_value['/'] = 63; keyshape_base64_value['_'] = 63;
    for (const char *c = "ABEFGH+/-_"; *c; c++) {
        keyshape_always_bad_first[(uint8_t)*c] = 1;
        keyshape_first_bad[(uint8_t)*c] = 1;
    }
    for (char c = 'g'; c <= 'v'; c++) keyshape_first_bad[(uint8_t)c] = 1;
    for (int b = 0; b < 128; b++) {
        uint16_t c = keyshape_class_of[b];
        keyshape_run_class[b] = (uint8_t)((c & (C_STRONG | C_HEX | C_PLUS_SLASH | C_DASH_UNDERSCORE)) | ((c & C_LEAD) ? R_LEAD : 0));
    }
    fill_nibble_tables();
    int hardware = hardware_tier();
    int tier = hardware;
    const char *asked = getenv("KEYSHAPE_SIMD");
    if (asked) {
        int want = !strcmp(asked, "scalar") ? KEYSHAPE_MASKS_SCALAR : !strcmp(asked, "sse2") ? KEYSHAPE_MASKS_SSE2
                 : !strcmp(asked, "avx2") ? KEYSHAPE_MASKS_AVX2 : tier;
        if (want < tier) tier = want;
    }
    __atomic_store_n(&hardwareTier, hardware, __ATOMIC_RELEASE);
    __atomic_store_n(&chosenTier, tier, __ATOMIC_RELEASE);
}

int keyshape_masks_tier(void) {
    if (__atomic_load_n(&chosenTier, __ATOMIC_ACQUIRE) < 0) choose();
    return __atomic_load_n(&chosenTier, __ATOMIC_ACQUIRE);
}

int keyshape_masks_hardware_tier(void) {
    if (__atomic_load_n(&chosenTier, __ATOMIC_ACQUIRE) < 0) choose();
    return __atomic_load_n(&hardwareTier, __ATOMIC_ACQUIRE);
}

int keyshape_runnable_tier(int asked) {
    int hardware = keyshape_masks_hardware_tier();
    return asked > hardware ? hardware : asked < 0 ? 0 : asked;
}

size_t keyshape_masks_words(size_t n) { return n / 64 + 1; }
