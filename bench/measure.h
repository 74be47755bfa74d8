/* measure.h — what the benchmark programs share: a monotonic clock in milliseconds, the
 * median of a series, and a whole file read into memory. */
#ifndef KILN_BENCH_MEASURE_H
#define KILN_BENCH_MEASURE_H

#include <stddef.h>

/* CLOCK_MONOTONIC in milliseconds. */
double bench_now_ms(void);

/* The median of n values (sorts v in place): the middle one, or the mean of the two middle ones
 * for an even n; 0 for none. */
double bench_median(double *v, size_t n);

/* The file's bytes followed by a NUL (malloc'd, *size without the NUL), or NULL. */
char *bench_read_file(const char *path, size_t *size);

#endif
