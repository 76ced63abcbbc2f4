#include "Base64Drops.h"

#if KEYSHAPE_X86
SIMD_DROPS static int drops_simd_alone(const uint8_t *buffer, size_t from, size_t count, int keepBinary) {
    return drops_simd(buffer, from, count, keepBinary);
}
#endif

int keyshape_base64_drops(const uint8_t *buffer, size_t from, size_t count, int keepBinary) {
    return keyshape_base64_drops_with(keyshape_masks_tier(), buffer, from, count, keepBinary);
}

int keyshape_base64_drops_with(int tier, const uint8_t *buffer, size_t from, size_t count, int keepBinary) {
    tier = keyshape_runnable_tier(tier);
#if KEYSHAPE_X86
    if (tier >= KEYSHAPE_MASKS_AVX2) return drops_simd_alone(buffer, from, count, keepBinary);
#endif
    return drops_scalar(buffer, from, count, keepBinary);
}
