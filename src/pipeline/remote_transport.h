/* remote_transport.h — how the remote cache moves bytes: one small interface (GET, HEAD, PUT of a
 * path such as "ac/<key>" or "cas/<sha256>") with two implementations, HTTP through libcurl
 * (remote_http.c) and a shared folder for file: URLs (remote_file.c). The protocol on top of it
 * (what to fetch, what to verify, what to upload in which order) is remote.c. */
#ifndef KILN_PIPELINE_REMOTE_TRANSPORT_H
#define KILN_PIPELINE_REMOTE_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

/* What one request gave. ERROR is a transport failure (connection refused, timeout, a 5xx or
 * another unexpected answer): the caller disables the remote for the rest of the run. */
typedef enum kiln_remote_status {
    KILN_REMOTE_OK = 0,    /* 2xx / the file exists */
    KILN_REMOTE_MISS,      /* 404 / no such file */
    KILN_REMOTE_TOO_LARGE, /* GET: the body exceeds max_size (a bad blob: a miss, not an error) */
    KILN_REMOTE_REFUSED,   /* PUT: the server answered, but not with 2xx (e.g. 403, 405) */
    KILN_REMOTE_ERROR,
} kiln_remote_status;

typedef struct kiln_remote_transport kiln_remote_transport;
struct kiln_remote_transport {
    /* Reads the whole object into memory from the allocator (free with kiln_free(a, *data,
     * *capacity)); at most max_size bytes are accepted. *data is NULL unless OK. */
    kiln_remote_status (*get)(kiln_remote_transport *t, const char *path, size_t max_size,
                              uint8_t **data, size_t *size, size_t *capacity, kiln_error *err);
    /* Whether the object exists; *size is its length or UINT64_MAX when the server did not say. */
    kiln_remote_status (*head)(kiln_remote_transport *t, const char *path, uint64_t *size,
                               kiln_error *err);
    /* Stores the object (Content-Length always sent; the file transport renames into place). */
    kiln_remote_status (*put)(kiln_remote_transport *t, const char *path, const void *data,
                              size_t size, kiln_error *err);
    void (*destroy)(kiln_remote_transport *t);
    const kiln_allocator *alloc;
};

/* base: "http://host:port/prefix" (no trailing slash, no query). timeout_s: a request that
 * moves fewer than 1 KiB/s for that long, or cannot connect in that time, fails. */
kiln_result kiln_remote_http_create(const char *base, const kiln_allocator *a, uint32_t timeout_s,
                                    kiln_remote_transport **out, kiln_error *err);

/* dir: the absolute folder holding ac/ and cas/ (created on the first PUT). */
kiln_result kiln_remote_file_create(const char *dir, const kiln_allocator *a,
                                    kiln_remote_transport **out, kiln_error *err);

#endif
