/* child_run.c — see child_run.h. */
#include "child_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int bench_child_run(const char *who, bench_child_fn fn, void *user, void *result,
                    size_t result_size, int *status, struct rusage *ru)
{
    int fds[2];
    if (pipe(fds) != 0) {
        fprintf(stderr, "%s: pipe: %s\n", who, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "%s: fork: %s\n", who, strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        void *mine = calloc(1, result_size);
        if (!mine) _exit(3);
        fn(user, mine);
        const char *b = mine;
        size_t done = 0;
        while (done < result_size) {
            ssize_t w = write(fds[1], b + done, result_size - done);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) _exit(3);
            done += (size_t)w;
        }
        _exit(0);
    }
    close(fds[1]);
    char *b = result;
    size_t got = 0;
    while (got < result_size) {
        ssize_t n = read(fds[0], b + got, result_size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    close(fds[0]);
    *status = 0;
    memset(ru, 0, sizeof *ru);
    while (wait4(pid, status, 0, ru) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "%s: wait4: %s\n", who, strerror(errno));
            return -1;
        }
    }
    return got == result_size && WIFEXITED(*status) && WEXITSTATUS(*status) == 0 ? 0 : 1;
}
