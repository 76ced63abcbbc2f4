// Which implementation runs, chosen once per process, and the tables every tier reads.
#include "Classes.h"

#include <stdlib.h>
#include <string.h>

#if KEYSHAPE_X86
#include <cpuid.h>
#endif

uint16_t keyshape_class_of[256];
uint8_t keyshape_class_words[128], keyshape_run_class[128];
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

/// Computed once; a race computes the same values twice.
static volatile int chosenTier = -1;
static volatile int hardwareTier = -1;

static void choose(void) {
    for (int b = 0; b < 256; b++) keyshape_class_of[b] = class_of((uint8_t)b);
    for (int b = 0; b < 128; b++) {
        uint16_t c = keyshape_class_of[b];
        keyshape_class_words[b] = (uint8_t)(((c & C_RUN) ? 1 << W_RUN_BIT : 0) | ((c & C_STRONG) ? 1 << W_STRONG_BIT : 0)
                                          | ((c & C_STOP) ? 1 << W_STOP_BIT : 0) | ((c & C_COLON) ? 1 << W_COLON_BIT : 0)
                                          | ((c & C_LETTER_A) ? 1 << W_LETTER_A_BIT : 0) | ((c & C_LEAD) ? 1 << W_LEAD_BIT : 0));
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
