/* child_run.h — what the benchmarks share: one measurement in a forked child, so that its peak
 * memory (ru_maxrss) belongs to that measurement alone. */
#ifndef KILN_BENCH_CHILD_RUN_H
#define KILN_BENCH_CHILD_RUN_H

#include <stddef.h>
#include <sys/resource.h>

/* Fills result (result_size bytes) in the child. */
typedef void (*bench_child_fn)(void *user, void *result);

/* Forks; the child runs fn and sends its result back through a pipe; the parent waits and
 * gives the child's resource usage in *ru. Returns 0 when the whole result came back from a
 * child that exited 0; 1 when the child failed or died (*status says how; result is
 * undefined); -1 when fork, pipe or wait failed (a message naming `who` is on stderr). */
int bench_child_run(const char *who, bench_child_fn fn, void *user, void *result,
                    size_t result_size, int *status, struct rusage *ru);

#endif
