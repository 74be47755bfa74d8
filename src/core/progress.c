/* progress.c — the terminal progress bar (see progress.h, docs/core.md "Progress").
 *
 * The count is an atomic so workers can advance it without a lock; drawing is throttled by an
 * atomic deadline on the monotonic clock, and the writes themselves are serialized by a mutex
 * (tried, not waited for, on ordinary redraws so that workers never queue behind the terminal).
 * Each draw reads the count afresh under the mutex, so the number shown never goes backwards. */
#include "core/progress.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"

#define BAR_CELLS 30
#define REDRAW_NS UINT64_C(100000000) /* at most ~10 redraws a second */

struct kiln_progress {
    kiln_allocator alloc;
    FILE *f;
    bool drawing; /* fixed at create */
    size_t total;
    char label[KILN_PROGRESS_WIDTH + 1];
    _Atomic(const char *) item; /* what is being worked on (borrowed), NULL = nothing named */
    atomic_size_t count;
    atomic_uint_least64_t next_draw_ns;
    pthread_mutex_t mutex; /* guards the writes, finished and drawn_len */
    bool finished;
    size_t drawn_len; /* columns of the last line drawn, to clear it */
};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec;
}

/* Called with the mutex held. */
static void draw_locked(kiln_progress *p)
{
    if (p->finished) return;
    size_t done = atomic_load_explicit(&p->count, memory_order_relaxed);
    if (done > p->total) done = p->total;
    size_t filled =
        p->total == 0 ? BAR_CELLS : (size_t)((double)done / (double)p->total * BAR_CELLS);
    if (filled > BAR_CELLS) filled = BAR_CELLS;

    char line[KILN_PROGRESS_WIDTH * 2 + 8];
    size_t len = 0;
    line[len++] = '\r';
    line[len++] = '[';
    for (size_t i = 0; i < BAR_CELLS; i++) line[len++] = i < filled ? '#' : ' ';
    int n = snprintf(line + len, sizeof line - len, "] %zu/%zu ", done, p->total);
    if (n > 0) len += (size_t)n < sizeof line - len ? (size_t)n : sizeof line - len - 1;
    size_t cols = len - 1; /* the '\r' takes no column */
    size_t room = cols < KILN_PROGRESS_WIDTH ? KILN_PROGRESS_WIDTH - cols : 0;
    /* "importing textures/wall.png": the label, then the item being worked on. */
    char text[KILN_PROGRESS_WIDTH + 1];
    const char *item = atomic_load_explicit(&p->item, memory_order_acquire);
    size_t label_len = strlen(p->label);
    memcpy(text, p->label, label_len);
    if (item && label_len && label_len < KILN_PROGRESS_WIDTH) text[label_len++] = ' ';
    for (; item && *item && label_len < KILN_PROGRESS_WIDTH; item++) text[label_len++] = *item;
    if (label_len > room) {
        label_len = room;
        /* Do not cut a UTF-8 sequence in half. */
        while (label_len > 0 && ((unsigned char)text[label_len] & 0xC0) == 0x80) label_len--;
    }
    memcpy(line + len, text, label_len);
    len += label_len;
    cols += label_len;
    /* The line only grows as numbers do, but pad over a longer previous line anyway. */
    while (cols < p->drawn_len && len < sizeof line) {
        line[len++] = ' ';
        cols++;
    }
    fwrite(line, 1, len, p->f);
    fflush(p->f);
    p->drawn_len = cols;
}

kiln_result kiln_progress_create(size_t total, const char *label, FILE *f, bool enabled,
                                 const kiln_allocator *alloc, kiln_progress **out, kiln_error *err)
{
    if (!out) return kiln_error_set(err, KILN_E_USAGE, "kiln_progress_create: out is NULL");
    *out = NULL;
    kiln_allocator a = {0};
    if (alloc) a = *alloc;
    kiln_progress *p = kiln_alloc(&a, sizeof *p);
    if (!p) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory (progress bar)");
    memset(p, 0, sizeof *p);
    p->alloc = a;
    p->f = f;
    p->total = total;
    if (label) {
        size_t n = strlen(label);
        if (n > KILN_PROGRESS_WIDTH) n = KILN_PROGRESS_WIDTH;
        memcpy(p->label, label, n);
        p->label[n] = '\0';
    }
    atomic_init(&p->count, 0);
    atomic_init(&p->item, NULL);
    atomic_init(&p->next_draw_ns, 0);
    if (pthread_mutex_init(&p->mutex, NULL) != 0) {
        kiln_free(&a, p, sizeof *p);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "cannot create progress bar lock");
    }
    /* fileno of a stream without a descriptor is -1, and isatty(-1) is 0. */
    p->drawing = enabled && f && isatty(fileno(f));
    if (p->drawing) {
        atomic_store_explicit(&p->next_draw_ns, now_ns() + REDRAW_NS, memory_order_relaxed);
        pthread_mutex_lock(&p->mutex);
        draw_locked(p);
        pthread_mutex_unlock(&p->mutex);
    }
    *out = p;
    return KILN_OK;
}

void kiln_progress_advance(kiln_progress *p, size_t n)
{
    if (!p) return;
    size_t before = atomic_fetch_add_explicit(&p->count, n, memory_order_relaxed);
    if (!p->drawing) return;
    if (before < p->total && n >= p->total - before) {
        /* The end is always shown, so wait for the lock rather than skip. */
        pthread_mutex_lock(&p->mutex);
        draw_locked(p);
        pthread_mutex_unlock(&p->mutex);
        return;
    }
    uint64_t t = now_ns();
    uint_least64_t due = atomic_load_explicit(&p->next_draw_ns, memory_order_relaxed);
    if (t < due) return;
    /* Only the thread that moves the deadline draws; the others skip this round. */
    if (!atomic_compare_exchange_strong_explicit(&p->next_draw_ns, &due, t + REDRAW_NS,
                                                 memory_order_relaxed, memory_order_relaxed))
        return;
    if (pthread_mutex_trylock(&p->mutex) != 0) return;
    draw_locked(p);
    pthread_mutex_unlock(&p->mutex);
}

void kiln_progress_set_item(kiln_progress *p, const char *name)
{
    if (p) atomic_store_explicit(&p->item, name, memory_order_release);
}

void kiln_progress_finish(kiln_progress *p)
{
    if (!p || !p->drawing) return;
    pthread_mutex_lock(&p->mutex);
    if (!p->finished) {
        p->finished = true;
        char line[KILN_PROGRESS_WIDTH * 2 + 4];
        size_t len = 0;
        line[len++] = '\r';
        for (size_t i = 0; i < p->drawn_len && len < sizeof line - 1; i++) line[len++] = ' ';
        line[len++] = '\r';
        fwrite(line, 1, len, p->f);
        fflush(p->f);
    }
    pthread_mutex_unlock(&p->mutex);
}

void kiln_progress_destroy(kiln_progress *p)
{
    if (!p) return;
    kiln_progress_finish(p);
    pthread_mutex_destroy(&p->mutex);
    kiln_allocator a = p->alloc;
    kiln_free(&a, p, sizeof *p);
}

bool kiln_progress_drawing(const kiln_progress *p) { return p && p->drawing; }

size_t kiln_progress_count(const kiln_progress *p)
{
    return p ? atomic_load_explicit(&p->count, memory_order_relaxed) : 0;
}
