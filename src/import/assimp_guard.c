/* assimp_guard.c — assimp in a child process: fork, limits (wall clock, CPU, address space, no
 * core file), the blob back through a pipe, and the child's fate turned into an error. assimp
 * is C++ code that can crash, hang or allocate without bound on hostile input; nothing it does
 * in the child can reach the parent's memory.
 *
 * fork() in a threaded process copies only the calling thread: glibc keeps malloc usable in the
 * child, and any other lock left held would at worst hang the child, which the timeout ends. */
#define _GNU_SOURCE
#include "import/assimp_private.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"

#if defined(__SANITIZE_ADDRESS__)
#define GUARD_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GUARD_UNDER_ASAN 1
#endif
#endif

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void set_limit(int resource, rlim_t value)
{
    struct rlimit rl;
    if (getrlimit(resource, &rl) != 0) return;
    if (rl.rlim_max != RLIM_INFINITY && value > rl.rlim_max) value = rl.rlim_max;
    rl.rlim_cur = value;
    setrlimit(resource, &rl);
}

static void child_run(const assimp_job *job, int fd, pid_t parent, uint32_t timeout_ms,
                      size_t memory)
{
    /* Die with kiln: a child blocked in open() or read() outlives a kill -9 of its parent
     * otherwise, reparented to init for good (RLIMIT_CPU does not count a blocked process). The
     * signal comes when the thread that forked ends, which waits for this child in collect(). If
     * the parent died before prctl, getppid() already names another process: end now. */
    (void)prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    /* Another thread's child may have inherited our pipe, and we theirs: holding a write end
     * open would keep its reader from seeing the end. Keep only ours (and stdio). */
    if (fd > 3) close_range(3, (unsigned)fd - 1, 0);
    close_range((unsigned)fd + 1, ~0u, 0);
    set_limit(RLIMIT_CORE, 0);
    set_limit(RLIMIT_CPU, (rlim_t)timeout_ms / 1000 + 1);
#ifndef GUARD_UNDER_ASAN
    /* AddressSanitizer reserves terabytes of shadow address space; there the timeout and the
     * parent's byte cap remain. */
    set_limit(RLIMIT_AS, (rlim_t)memory);
#else
    (void)memory;
#endif
    /* The parent's handlers (a signal-driven progress bar, say) mean nothing here. */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    _exit(kiln_assimp_child_main(job, fd));
}

/* Reads the child's whole output or stops at the deadline. */
static kiln_result collect(int fd, int64_t deadline, size_t max_bytes, const kiln_allocator *a,
                           uint8_t **out, size_t *out_size, size_t *out_cap, bool *timed_out,
                           kiln_error *err)
{
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        int64_t left = deadline - now_ms();
        if (left <= 0) {
            *timed_out = true;
            break;
        }
        struct pollfd p = {fd, POLLIN, 0};
        int pr = poll(&p, 1, left > 1000 ? 1000 : (int)left);
        if (pr < 0 && errno == EINTR) continue;
        if (pr < 0) {
            kiln_free(a, buf, cap);
            return kiln_error_set(err, KILN_E_IMPORT_FAILED, "waiting for assimp: %s",
                                  strerror(errno));
        }
        if (pr == 0) continue;
        if (n == cap) {
            size_t grown = cap ? cap * 2 : (size_t)1 << 16;
            if (grown > max_bytes) grown = max_bytes;
            if (grown <= n) {
                kiln_free(a, buf, cap);
                return kiln_error_set(err, KILN_E_LIMIT,
                                      "assimp's result is above the memory limit (%zu bytes)",
                                      max_bytes);
            }
            uint8_t *nb = kiln_realloc(a, buf, cap, grown);
            if (!nb) {
                kiln_free(a, buf, cap);
                return kiln_error_set(err, KILN_E_OUT_OF_MEMORY,
                                      "out of memory reading assimp's result");
            }
            buf = nb;
            cap = grown;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (got <= 0) break; /* end of file: the child closed its end (exited) */
        n += (size_t)got;
    }
    *out = buf;
    *out_size = n;
    *out_cap = cap;
    return KILN_OK;
}

/* An error blob from the child: "KASE" code message. */
static bool child_error(const uint8_t *b, size_t n, kiln_error *err, kiln_result *code)
{
    kiln_reader r = kiln_reader_make(b, n);
    if (kiln_read_u32le(&r) != ASSIMP_ERROR_MAGIC || r.failed) return false;
    uint32_t c = kiln_read_u32le(&r), len = kiln_read_u32le(&r);
    const uint8_t *msg = kiln_reader_take(&r, len);
    if (!msg || (c != KILN_E_IMPORT_FAILED && c != KILN_E_IMPORT_UNSUPPORTED && c != KILN_E_LIMIT &&
                 c != KILN_E_OUT_OF_MEMORY))
        c = KILN_E_IMPORT_FAILED;
    *code = kiln_error_set(err, (kiln_result)c, "%.*s", msg ? (int)(len > 200 ? 200 : len) : 0,
                           msg ? (const char *)msg : "");
    return true;
}

kiln_result kiln_assimp_guard_run(const assimp_job *job, uint32_t timeout_ms, size_t child_memory,
                                  size_t max_bytes, const kiln_allocator *a, uint8_t **out,
                                  size_t *out_size, size_t *out_cap, kiln_error *err)
{
    *out = NULL;
    *out_size = *out_cap = 0;
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "no pipe for assimp: %s", strerror(errno));
    int64_t deadline = now_ms() + timeout_ms;
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        return kiln_error_set(err, KILN_E_IMPORT_FAILED, "cannot start assimp's process: %s",
                              strerror(e));
    }
    if (pid == 0) {
        close(fds[0]);
        child_run(job, fds[1], parent, timeout_ms, child_memory);
    }
    close(fds[1]);
    bool timed_out = false;
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    kiln_result r = collect(fds[0], deadline, max_bytes, a, &buf, &n, &cap, &timed_out, err);
    close(fds[0]);
    if (r != KILN_OK || timed_out) kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (r != KILN_OK) return r;
    kiln_result code = KILN_E_IMPORT_FAILED;
    if (timed_out) {
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED, "assimp did not finish within %u ms",
                           timeout_ms);
    } else if (child_error(buf, n, err, &code)) {
        r = code;
    } else if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED,
                           "assimp crashed reading the file (signal %d%s)", sig,
                           sig == SIGXCPU ? ", CPU time limit" : "");
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED,
                           "assimp's process failed (exit status %d; out of memory?)",
                           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    } else if (n < 8) {
        r = kiln_error_set(err, KILN_E_IMPORT_FAILED, "assimp's process sent no result");
    }
    if (r != KILN_OK) {
        kiln_free(a, buf, cap);
        return r;
    }
    *out = buf;
    *out_size = n;
    *out_cap = cap;
    return KILN_OK;
}
