#ifndef GW_ALLOCATION_COUNTER_H
#define GW_ALLOCATION_COUNTER_H

/// The number of malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign
/// calls since the process started, or -1 where counting is not supported.
long gw_allocation_count(void);

#endif
