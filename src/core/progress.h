/* progress.h — a one-line terminal progress bar for the kiln command (cook side only).
 *
 * It draws only when asked to AND the stream is a terminal, so --json output, pipes and log
 * files never see it: when not drawing, nothing at all is written. */
#ifndef KILN_CORE_PROGRESS_H
#define KILN_CORE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kiln/kiln_format.h"

typedef struct kiln_progress kiln_progress;

/* Widest line drawn, in columns; one less than 80 so no terminal wraps it. */
#define KILN_PROGRESS_WIDTH 79

/* Creates a bar counting to total, "[#####     ] 12/40 label". label is copied (cut to fit the
 * line); f is borrowed until destroy (stderr in practice). Draws only if enabled and
 * isatty(fileno(f)); then the empty bar is drawn at once. alloc may be NULL.
 * Errors: KILN_E_USAGE (out NULL), KILN_E_OUT_OF_MEMORY. */
kiln_result kiln_progress_create(size_t total, const char *label, FILE *f, bool enabled,
                                 const kiln_allocator *alloc, kiln_progress **out, kiln_error *err);

/* Adds n to the count. Thread-safe. Redraws at most every 100 ms (monotonic clock), and always
 * when the count reaches total. NULL is a no-op. */
void kiln_progress_advance(kiln_progress *p, size_t n);

/* Names what is being worked on after the label ("importing textures/wall.png"): the latest
 * name set is drawn at the next redraw. name is borrowed: it must stay valid until the next
 * call or destroy (NULL: the label alone). Thread-safe, lock-free. NULL p is a no-op. */
void kiln_progress_set_item(kiln_progress *p, const char *name);

/* Clears the line (once; later advances draw nothing). Thread-safe. NULL is a no-op. */
void kiln_progress_finish(kiln_progress *p);

/* Finishes if not yet finished, and frees. NULL is a no-op. */
void kiln_progress_destroy(kiln_progress *p);

/* Whether this bar draws at all (enabled and a terminal). */
bool kiln_progress_drawing(const kiln_progress *p);

/* The count so far. */
size_t kiln_progress_count(const kiln_progress *p);

#endif
