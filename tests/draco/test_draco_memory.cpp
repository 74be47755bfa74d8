/* test_draco_memory.cpp — holds kiln_draco_decode to its memory limit: for meshes of both Draco
 * methods, finds the smallest memory_limit the decode passes with (the guards' estimate of what
 * the stream needs) and checks that the decode's real peak — libdraco's C++ allocations,
 * counted by replacing operator new here, plus kiln's output through a counting allocator —
 * stays within it. Prints the peak per face so the estimate can be re-measured.
 * Sanitizer builds skip (their run-time owns operator new). */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

extern "C" {
#include "draco_fixture.h"
#include "import/draco.h"
}

namespace
{

size_t g_current, g_peak;

void count_alloc(size_t n)
{
    g_current += n;
    if (g_current > g_peak) g_peak = g_current;
}

/* A 16-byte header keeps the size for delete; the process is single-threaded. */
void *counted_alloc(size_t n)
{
    void *p = malloc(n + 16);
    if (!p) return nullptr;
    *static_cast<size_t *>(p) = n;
    count_alloc(n);
    return static_cast<char *>(p) + 16;
}

void counted_free(void *q)
{
    if (!q) return;
    void *p = static_cast<char *>(q) - 16;
    g_current -= *static_cast<size_t *>(p);
    free(p);
}

void *hook_alloc(void *user, size_t size, size_t align)
{
    (void)user;
    (void)align; /* malloc + 16 keeps 16-byte alignment, all kiln asks of the shim */
    return counted_alloc(size);
}
void *hook_realloc(void *user, void *ptr, size_t old_size, size_t new_size)
{
    (void)user;
    void *n = counted_alloc(new_size);
    if (n && ptr) memcpy(n, ptr, old_size < new_size ? old_size : new_size);
    if (n) counted_free(ptr);
    return n;
}
void hook_free(void *user, void *ptr, size_t size)
{
    (void)user;
    (void)size;
    counted_free(ptr);
}

const kiln_allocator counting = {hook_alloc, hook_realloc, hook_free, nullptr};

struct result {
    bool ok;
    size_t peak;
    uint32_t faces, vertices;
};

result decode_at(const uint8_t *data, size_t size, size_t limit)
{
    kiln_draco_mesh m;
    kiln_error err;
    g_current = 0;
    g_peak = 0;
    kiln_result r = kiln_draco_decode(data, size, &counting, limit, &m, &err);
    result out = {r == KILN_OK, g_peak, m.index_count / 3, m.vertex_count};
    if (r != KILN_OK && r != KILN_E_LIMIT) {
        fprintf(stderr, "decode failed: %s\n", err.message);
        exit(1);
    }
    kiln_draco_mesh_free(&counting, &m);
    return out;
}

int check(const char *name, const kt_draco_opts *o, uint32_t n)
{
    size_t size = 0;
    uint8_t *data = kt_draco_encode_grid(o, n, &size);
    if (!data) return 1;
    /* The smallest limit that passes, to 1/64 of it. */
    size_t lo = 1, hi = (size_t)1 << 34;
    if (!decode_at(data, size, hi).ok) {
        fprintf(stderr, "%s: fails even at %zu\n", name, hi);
        return 1;
    }
    while (hi - lo > hi / 64) {
        size_t mid = lo + (hi - lo) / 2;
        if (decode_at(data, size, mid).ok) hi = mid;
        else lo = mid;
    }
    result r = decode_at(data, size, hi);
    free(data);
    printf("%-18s %6u faces %6u vertices  stream %7zu B  peak %9zu B (%5.1f B/face)  limit "
           "needed %9zu B  %s\n",
           name, r.faces, r.vertices, size, r.peak, (double)r.peak / r.faces, hi,
           r.peak <= hi ? "ok" : "PEAK ABOVE THE LIMIT");
    return r.ok && r.peak <= hi ? 0 : 1;
}

} // namespace

void *operator new(size_t n)
{
    void *p = counted_alloc(n);
    if (!p) throw std::bad_alloc();
    return p;
}
void *operator new[](size_t n) { return operator new(n); }
void *operator new(size_t n, const std::nothrow_t &) noexcept { return counted_alloc(n); }
void *operator new[](size_t n, const std::nothrow_t &) noexcept { return counted_alloc(n); }
void operator delete(void *p) noexcept { counted_free(p); }
void operator delete[](void *p) noexcept { counted_free(p); }
void operator delete(void *p, size_t) noexcept { counted_free(p); }
void operator delete[](void *p, size_t) noexcept { counted_free(p); }

int main()
{
    const char *san = getenv("KILN_TEST_SANITIZED");
    if (san && strcmp(san, "1") == 0) {
        printf("skipped: sanitizer builds replace operator new themselves\n");
        return 77;
    }
    int bad = 0;
    const kt_draco_opts eb = {1, 14, 5, 0}, eb0 = {1, 14, 0, 0}, eb10 = {1, 14, 10, 0},
                        seq = {0, 14, 5, 0}, seq_raw = {0, 0, 5, 0}, eb_raw = {1, 0, 5, 0},
                        eb_pos = {1, 14, 5, 1}, eb0_pos = {1, 14, 0, 1}, seq_pos = {0, 14, 5, 1};
    bad |= check("edgebreaker s5", &eb, 160);
    bad |= check("edgebreaker s0", &eb0, 160);
    bad |= check("edgebreaker s10", &eb10, 160);
    bad |= check("sequential s5", &seq, 160);
    bad |= check("sequential raw", &seq_raw, 160);
    bad |= check("edgebreaker raw", &eb_raw, 160);
    bad |= check("edgebreaker pos", &eb_pos, 160);
    bad |= check("edgebreaker s0 pos", &eb0_pos, 160);
    bad |= check("sequential pos", &seq_pos, 160);
    bad |= check("edgebreaker small", &eb, 4);
    bad |= check("sequential small", &seq, 2);
    printf("%s\n", bad ? "1 failed" : "0 failed");
    return bad;
}
