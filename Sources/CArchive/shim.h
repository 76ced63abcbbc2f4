#ifndef KEYSHAPE_CARCHIVE_SHIM_H
#define KEYSHAPE_CARCHIVE_SHIM_H
// Read side only: keyshape opens archives from memory or a descriptor through callbacks and
// never uses libarchive's disk reader or extractor (nothing in an archive is written anywhere).
#include <archive.h>
#include <archive_entry.h>
#endif
