// CRC32C (Castagnoli, reflected polynomial 0x82F63B78). The checksum covers every
// GroupWire frame, so it sits on the hot path of fragmentation and decoding: x86-64
// machines with SSE4.2 use the crc32 instruction over three interleaved streams, others a
// slicing-by-8 table. Both paths are checked against each other by the unit tests.

#include "gw_crc32c.h"

#include <string.h>

static uint32_t gw_table[8][256];
static int gw_table_ready = 0;

static void gw_build_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) {
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : (c >> 1);
        }
        gw_table[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = gw_table[0][n];
        for (int t = 1; t < 8; t++) {
            c = gw_table[0][c & 0xFF] ^ (c >> 8);
            gw_table[t][n] = c;
        }
    }
    __atomic_store_n(&gw_table_ready, 1, __ATOMIC_RELEASE);
}

static uint32_t gw_crc32c_table(uint32_t crc, const unsigned char *p, size_t n) {
    if (!__atomic_load_n(&gw_table_ready, __ATOMIC_ACQUIRE)) {
        gw_build_table(); // idempotent: racing builders write identical values
    }
    crc = ~crc;
    while (n >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        word ^= crc; // little-endian hosts only (all supported Swift targets)
        crc = gw_table[7][word & 0xFF] ^ gw_table[6][(word >> 8) & 0xFF] ^
              gw_table[5][(word >> 16) & 0xFF] ^ gw_table[4][(word >> 24) & 0xFF] ^
              gw_table[3][(word >> 32) & 0xFF] ^ gw_table[2][(word >> 40) & 0xFF] ^
              gw_table[1][(word >> 48) & 0xFF] ^ gw_table[0][word >> 56];
        p += 8;
        n -= 8;
    }
    while (n--) {
        crc = gw_table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    }
    return ~crc;
}

#if defined(__x86_64__)
#include <nmmintrin.h>

// Appending zero bytes to a raw (non-inverted) CRC register is linear over GF(2), so
// it is a 32x32 bit matrix: column i is the register 1 << i after `len` zero bytes.
// Three streams computed independently are joined with it.
static uint32_t gw_gf2_times(const uint32_t *mat, uint32_t vec) {
    uint32_t sum = 0;
    while (vec) {
        if (vec & 1) sum ^= *mat;
        vec >>= 1;
        mat++;
    }
    return sum;
}

static void gw_zeros_operator(uint32_t *columns, size_t len) {
    if (!__atomic_load_n(&gw_table_ready, __ATOMIC_ACQUIRE)) {
        gw_build_table();
    }
    for (int i = 0; i < 32; i++) {
        uint32_t r = 1u << i;
        for (size_t k = 0; k < len; k++) {
            r = gw_table[0][r & 0xFF] ^ (r >> 8);
        }
        columns[i] = r;
    }
}

#define GW_STRIDE 4096
static uint32_t gw_shift_stride[32];
static int gw_shift_ready = 0;

static uint32_t gw_shift(uint32_t crc) { return gw_gf2_times(gw_shift_stride, crc); }

__attribute__((target("sse4.2")))
static uint32_t gw_crc32c_hw(uint32_t crc, const unsigned char *p, size_t n) {
    uint64_t c0 = ~crc;
    // Most frames are a few dozen bytes: they go straight to the 8-byte loop (x86-64 loads
    // unaligned words at full speed) and a 4-, 2- and 1-byte tail. Only a run long enough
    // for the three streams is aligned first.
    if (n >= 3 * GW_STRIDE + 7 && __atomic_load_n(&gw_shift_ready, __ATOMIC_ACQUIRE)) {
        while ((uintptr_t)p & 7) {
            c0 = _mm_crc32_u8((uint32_t)c0, *p++);
            n--;
        }
        // Three independent streams of GW_STRIDE bytes hide the instruction's latency.
        while (n >= 3 * GW_STRIDE) {
            uint64_t c1 = 0, c2 = 0;
            const unsigned char *end = p + GW_STRIDE;
            do {
                uint64_t w0, w1, w2;
                memcpy(&w0, p, 8);
                memcpy(&w1, p + GW_STRIDE, 8);
                memcpy(&w2, p + 2 * GW_STRIDE, 8);
                c0 = _mm_crc32_u64(c0, w0);
                c1 = _mm_crc32_u64(c1, w1);
                c2 = _mm_crc32_u64(c2, w2);
                p += 8;
            } while (p < end);
            c0 = gw_shift((uint32_t)c0) ^ c1;
            c0 = gw_shift((uint32_t)c0) ^ c2;
            p += 2 * GW_STRIDE;
            n -= 3 * GW_STRIDE;
        }
    }
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        c0 = _mm_crc32_u64(c0, w);
        p += 8;
        n -= 8;
    }
    if (n >= 4) {
        uint32_t w;
        memcpy(&w, p, 4);
        c0 = _mm_crc32_u32((uint32_t)c0, w);
        p += 4;
        n -= 4;
    }
    if (n >= 2) {
        uint16_t w;
        memcpy(&w, p, 2);
        c0 = _mm_crc32_u16((uint32_t)c0, w);
        p += 2;
        n -= 2;
    }
    if (n) {
        c0 = _mm_crc32_u8((uint32_t)c0, *p);
    }
    return ~(uint32_t)c0;
}

static int gw_has_sse42(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}

static void gw_prepare_shift(void) {
    uint32_t op[32];
    gw_zeros_operator(op, GW_STRIDE);
    memcpy(gw_shift_stride, op, sizeof(op));
    __atomic_store_n(&gw_shift_ready, 1, __ATOMIC_RELEASE);
}
#endif

uint32_t gw_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *p = (const unsigned char *)bytes;
#if defined(__x86_64__)
    static int mode = -1; // -1 unknown, 0 table, 1 hardware; benign race: same result
    int m = __atomic_load_n(&mode, __ATOMIC_ACQUIRE);
    if (m < 0) {
        m = gw_has_sse42() ? 1 : 0;
        if (m) gw_prepare_shift();
        __atomic_store_n(&mode, m, __ATOMIC_RELEASE);
    }
    if (m == 1) return gw_crc32c_hw(crc, p, count);
#endif
    return gw_crc32c_table(crc, p, count);
}

int gw_crc32c_uses_hardware(void) {
#if defined(__x86_64__)
    return gw_has_sse42();
#else
    return 0;
#endif
}

uint32_t gw_crc32c_update_portable(uint32_t crc, const void *bytes, size_t count) {
    return gw_crc32c_table(crc, (const unsigned char *)bytes, count);
}
