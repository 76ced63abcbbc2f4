#ifndef KEYSHAPE_BYTE_MASKS_H
#define KEYSHAPE_BYTE_MASKS_H

#include <stddef.h>
#include <stdint.h>

/// The decoders' candidate search, phase 1: one pass over `p[0..<n]`, 64 bytes a step, into
/// three bitmaps of `(n + 63) / 64` words each (bit `i & 63` of word `i >> 6` is byte `i`;
/// bits past `n` are zero):
///   `run`:    a base64 run character of either alphabet (letters, digits, `+ / - _`);
///   `strong`: an upper-case letter or a digit;
///   `events`: where the byte walk does something other than pass over a byte or a short
///             run: every backslash (it eats the byte after it), every `%`, a `:` after `a`
///             or `A` (a superset of `data:`), and the first byte of a run of 16 or more run
///             characters that does not continue a run (`run[q] && !run[q - 1]`).
/// SSE2 where the compiler has it (x86-64 always does), a byte loop elsewhere.
void keyshape_byte_masks(const uint8_t *p, size_t n, uint64_t *run, uint64_t *strong, uint64_t *events);

#endif
