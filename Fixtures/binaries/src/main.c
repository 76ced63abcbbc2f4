/* Host executable wrapper for keys.c: uses every planted literal so the linker keeps them. */
#include <string.h>

typedef unsigned short utf16_unit;
const char *keyshape_fixture_api_key(void);
char *keyshape_fixture_data(void);
const char *keyshape_fixture_const(void);
const utf16_unit *keyshape_fixture_utf16(void);

int main(void) {
    return (int)(strlen(keyshape_fixture_api_key()) + strlen(keyshape_fixture_data())
                 + strlen(keyshape_fixture_const()) + keyshape_fixture_utf16()[0]) & 1;
}
