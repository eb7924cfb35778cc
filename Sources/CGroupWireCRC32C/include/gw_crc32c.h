#ifndef GW_CRC32C_H
#define GW_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/// Continues a CRC32C (Castagnoli) computation. `crc` is the running value in its
/// finalized form (0 for an empty input); the return value is finalized too, so
/// gw_crc32c_update(0, p, n) is the CRC32C of the n bytes at p.
uint32_t gw_crc32c_update(uint32_t crc, const void *bytes, size_t count);

/// The table-driven path alone, so tests can compare it with the hardware path.
uint32_t gw_crc32c_update_portable(uint32_t crc, const void *bytes, size_t count);

/// 1 when the hardware instruction path is in use on this machine, 0 for the table path.
int gw_crc32c_uses_hardware(void);

#endif
