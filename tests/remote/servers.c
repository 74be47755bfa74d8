/* servers.c — starting and stopping the test servers of tests/remote (see servers.h). */
#include "servers.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support.h"

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A free loopback port: bind to 0 and ask. The server binds it a moment later. */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    close(fd);
    return ntohs(a.sin_port);
}

static int accepts(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return 0;
    struct sockaddr_in a = {0};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons((uint16_t)port);
    int ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

static void wait_ready(kt_server *s)
{
    for (int i = 0; i < 500; i++) {
        if (accepts(s->port)) return;
        int st;
        if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
            s->pid = 0;
            fail_msg("the test server on port %d exited at start", s->port);
        }
        sleep_ms(10);
    }
    fail_msg("the test server on port %d did not start", s->port);
}

int kt_have_nginx(void)
{
    return access("/usr/sbin/nginx", X_OK) == 0 ||
           kt_run("command -v nginx >/dev/null 2>&1", NULL) == 0;
}

static pid_t spawn(char *const argv[], const char *out)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* The server dies with the test process, even when a failed assertion skips its stop:
         * an orphan would keep CTest's output pipe open and hang the run until the timeout.
         * For the same reason nothing of it writes to the pipe. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1) _exit(127); /* the test process is already gone */
        FILE *f = freopen(out, "a", stderr);
        FILE *g = freopen("/dev/null", "w", stdout);
        (void)f;
        (void)g;
        execvp(argv[0], argv);
        _exit(127);
    }
    return pid;
}

void kt_nginx_start(kt_server *s)
{
    memset(s, 0, sizeof *s);
    s->dir = kt_tempdir("nginx");
    s->port = free_port();
    snprintf(s->url, sizeof s->url, "http://127.0.0.1:%d/kiln", s->port);
    char *conf = kt_format("%s/nginx.conf", s->dir);
    char *body =
        kt_format("worker_processes 2;\n"
                  "pid %s/nginx.pid;\n"
                  "error_log %s/error.log warn;\n"
                  "events { worker_connections 256; }\n"
                  "http {\n"
                  "  access_log %s/access.log;\n"
                  "  client_body_temp_path %s/body;\n"
                  "  proxy_temp_path %s/proxy;\n"
                  "  fastcgi_temp_path %s/fastcgi;\n"
                  "  uwsgi_temp_path %s/uwsgi;\n"
                  "  scgi_temp_path %s/scgi;\n"
                  "  client_max_body_size 0;\n"
                  "  server {\n"
                  "    listen 127.0.0.1:%d;\n"
                  "    root %s/data;\n"
                  "    location / {\n"
                  "      dav_methods PUT;\n"
                  "      create_full_put_path on;\n"
                  "      dav_access user:rw group:r all:r;\n"
                  "    }\n"
                  "  }\n"
                  "}\n",
                  s->dir, s->dir, s->dir, s->dir, s->dir, s->dir, s->dir, s->dir, s->port, s->dir);
    kt_write_file(conf, body, strlen(body));
    char *data = kt_format("%s/data/kiln/.keep", s->dir);
    kt_write_file(data, "", 0);
    char *err = kt_format("%s/error.log", s->dir);
    /* daemon off: the PID we fork is nginx's master, stopped by that PID. As root, workers
     * would switch to nobody and could not write our temporary folder: run them as root. */
    const char *g = geteuid() == 0 ? "daemon off; user root;" : "daemon off;";
    char *const argv[] = {"nginx", "-p", s->dir, "-c", conf, "-e", err, "-g", (char *)g, NULL};
    s->pid = spawn(argv, err);
    wait_ready(s);
    free(conf);
    free(body);
    free(data);
    free(err);
}

void kt_fault_start(kt_server *s, const char *mode)
{
    memset(s, 0, sizeof *s);
    s->dir = kt_tempdir("fault");
    s->port = free_port();
    s->log = kt_format("%s/requests.log", s->dir);
    kt_write_file(s->log, "", 0);
    snprintf(s->url, sizeof s->url, "http://127.0.0.1:%d/kiln", s->port);
    char *script = kt_format("%s/tests/remote/fault_server.py", getenv("KILN_SOURCE_DIR"));
    char port[16];
    snprintf(port, sizeof port, "%d", s->port);
    char *err = kt_format("%s/stderr.log", s->dir);
    char *const argv[] = {"python3", script, (char *)mode, port, s->log, NULL};
    s->pid = spawn(argv, err);
    wait_ready(s);
    /* wait_ready's probe connection counts as no request (it sends nothing) */
    free(script);
    free(err);
}

void kt_server_stop(kt_server *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        int st;
        for (int i = 0; i < 500; i++) {
            if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
                s->pid = 0;
                break;
            }
            sleep_ms(10);
        }
        if (s->pid > 0) {
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &st, 0);
        }
        s->pid = 0;
    }
    if (s->dir) kt_rmtree(s->dir);
    free(s->dir);
    free(s->log);
    s->dir = s->log = NULL;
}

int kt_fault_requests(const kt_server *s)
{
    size_t n = 0;
    char *text = kt_read_file(s->log, &n);
    int lines = 0;
    for (size_t i = 0; text && i < n; i++) lines += text[i] == '\n';
    free(text);
    return lines;
}
