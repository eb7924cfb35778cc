// Counts heap allocations by defining the malloc family in the executable, which glibc's
// symbol interposition makes every library (the Swift runtime included) call. Each
// definition counts and forwards to glibc's own implementation (__libc_*). The same
// technique as swift-nio's allocation counter tests; Linux with glibc only.
#include "allocation_counter.h"

#include <errno.h>  // defines __GLIBC__ on glibc systems

#if defined(__linux__) && defined(__GLIBC__)
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic long allocations = 0;

static inline void count_one(void) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) {
        return ENOMEM;
    }
    *out = pointer;
    return 0;
}

long gw_allocation_count(void) {
    return atomic_load_explicit(&allocations, memory_order_relaxed);
}
#else
long gw_allocation_count(void) {
    return -1;
}
#endif
