/* servers.h — the servers the remote cache tests talk to: a real nginx from Debian with WebDAV
 * PUT (the Bazel HTTP cache layout needs nothing else) and fault servers (fault_server.py),
 * each on a loopback port, started from a temporary folder and stopped by its PID. */
#ifndef KILN_TEST_REMOTE_SERVERS_H
#define KILN_TEST_REMOTE_SERVERS_H

#include <sys/types.h>

typedef struct kt_server {
    pid_t pid;
    int port;
    char url[256]; /* http://127.0.0.1:PORT/kiln */
    char *dir;     /* its temporary folder (nginx prefix; data under dir/data) */
    char *log;     /* fault servers: one request line per request */
} kt_server;

/* Whether nginx is installed (the tests skip with 77 when it is not). */
int kt_have_nginx(void);

/* Starts nginx serving dir/data with PUT on and create_full_put_path; waits until it accepts
 * connections. Fails the test when it cannot. */
void kt_nginx_start(kt_server *s);

/* Starts fault_server.py in a mode ("503", "slow", "die:N"). */
void kt_fault_start(kt_server *s, const char *mode);

/* Stops the server (SIGTERM, then SIGKILL after 5 s) and waits for it; the folder is removed. */
void kt_server_stop(kt_server *s);

/* Requests the fault server has logged so far. */
int kt_fault_requests(const kt_server *s);

#endif
