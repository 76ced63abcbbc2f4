#ifndef KEYSHAPE_CPCRE2_SHIM_H
#define KEYSHAPE_CPCRE2_SHIM_H
// 8-bit code units: rules match raw bytes, never UTF-16 or UTF-32.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
