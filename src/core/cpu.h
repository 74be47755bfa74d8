/* cpu.h — what the machine offers the threads of both libraries. */
#ifndef KILN_CORE_CPU_H
#define KILN_CORE_CPU_H

#include <stddef.h>

/* Number of online CPUs, at least 1. */
size_t kiln_cpu_count(void);

#endif
