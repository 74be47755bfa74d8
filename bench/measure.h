/* measure.h — what the benchmark programs share: a monotonic clock in milliseconds, the
 * median of a series, a whole file read into memory, and the blocks of a peer's .astc file. */
#ifndef KILN_BENCH_MEASURE_H
#define KILN_BENCH_MEASURE_H

#include <stddef.h>
#include <stdint.h>

/* CLOCK_MONOTONIC in milliseconds. */
double bench_now_ms(void);

/* The median of n values (sorts v in place): the middle one, or the mean of the two middle ones
 * for an even n; 0 for none. */
double bench_median(double *v, size_t n);

/* The file's bytes followed by a NUL (malloc'd, *size without the NUL), or NULL. */
char *bench_read_file(const char *path, size_t *size);

/* The `need` bytes of 4x4 blocks of a w x h .astc file (astcenc's output: a 16-byte header,
 * magic 0x5CA1AB13, block size, 24-bit sizes), a view into data; NULL when the header is not
 * that or the file is short. */
const uint8_t *bench_astc_blocks(const uint8_t *data, size_t size, uint32_t w, uint32_t h,
                                 size_t need);

#endif
