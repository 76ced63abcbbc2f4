/* keyshape binary fixtures: FAKE secrets planted in the sections a compiler really uses.
 * None of these is a credential; Fixtures/ is allowlisted in .keyshape.toml.
 * Each literal is referenced from an exported function so no optimiser drops it. */
#include <stddef.h>

typedef unsigned short utf16_unit;   /* char16_t without needing <uchar.h> on every target */

/* The field case: a `static let apiKey = "..."`-style 55-character key. The literal lands in
 * __TEXT,__cstring (Mach-O) / .rodata (ELF); `strings -a` shows it. Shaped like a Stripe live
 * secret key (sk_live_ + 47 alphanumerics) so keyshape's builtin rules fire on it. */
static const char *apiKey = "sk_live_pIYTBKgIfuxO2goJjwcRKVpUYL7L6puCR1TfE7TtqPNWhR7";

/* Writable data: __DATA,__data / .data. */
char dataCanary[] = "TEST_SECRET_MUST_NEVER_LEAK_InDataSection";

/* Read-only array (not a literal): __TEXT,__const / .rodata. */
const char constCanary[] = "TEST_SECRET_MUST_NEVER_LEAK_InConstSection";

/* UTF-16LE text, as CFString/NSString and Windows toolchains store it: __TEXT,__const / .rodata. */
const utf16_unit utf16Canary[] = u"TEST_SECRET_MUST_NEVER_LEAK_Utf16Literal";

const char *keyshape_fixture_api_key(void) { return apiKey; }
char *keyshape_fixture_data(void) { return dataCanary; }
const char *keyshape_fixture_const(void) { return constCanary; }
const utf16_unit *keyshape_fixture_utf16(void) { return utf16Canary; }

/* Entry point for the freestanding ELF executables linked with ld.lld (no libc). */
void keyshape_fixture_start(void) {}
