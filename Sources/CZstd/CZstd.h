// CZstd: the system libzstd (Debian package libzstd-dev, found through pkg-config libzstd).
// Only the stable API is used: no ZSTD_STATIC_LINKING_ONLY, so any libzstd >= 1.5.0 works.
#ifndef CZSTD_H
#define CZSTD_H

#include <zstd.h>
#include <zstd_errors.h>
#include <zdict.h>

// ZSTD_CONTENTSIZE_UNKNOWN / _ERROR are written as `(0ULL - 1)` expressions, which Swift
// does not import; these return the same values.
static inline unsigned long long czstd_contentsize_unknown(void) { return ZSTD_CONTENTSIZE_UNKNOWN; }
static inline unsigned long long czstd_contentsize_error(void) { return ZSTD_CONTENTSIZE_ERROR; }

#endif
