/* cpu.c — the number of online CPUs (cpu.h), for the cook's job pool and the runtime's workers. */
#include "core/cpu.h"

#include <unistd.h>

size_t kiln_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (size_t)n;
}
