/* remote_http.c — the HTTP transport of the remote cache, on libcurl: GET, HEAD and PUT of
 * <base>/<path> as the Bazel HTTP cache protocol uses them (any 2xx is success, 404 a miss).
 * PUTs always carry Content-Length (bazel-remote refuses chunked uploads) and no
 * "Expect: 100-continue" (one round trip less). Easy handles are kept in a small pool so that
 * jobs reuse their keep-alive connections; the pool is the only shared state and has a lock. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "pipeline/curl_dl.h"
#include "pipeline/remote_transport.h"

#define POOL_MAX 16
#define URL_MAX  2048

typedef struct http_transport {
    kiln_remote_transport base; /* first: the interface pointer is this struct's */
    kiln_allocator alloc;
    char url[URL_MAX]; /* base URL, no trailing slash */
    uint32_t timeout_s;
    pthread_mutex_t lock;
    CURL *pool[POOL_MAX];
    size_t pooled;
    struct curl_slist *headers; /* "Expect:" — read-only after create */
    const kiln_curl_api *curl;  /* libcurl's functions (curl_dl.h) */
} http_transport;

/* The body of a GET, bounded by max. */
typedef struct sink {
    const kiln_allocator *a;
    uint8_t *data;
    size_t size, capacity, max;
    int too_large;
} sink;

static size_t sink_write(char *ptr, size_t size, size_t nmemb, void *user)
{
    sink *s = user;
    size_t n = nmemb; /* size is always 1 (libcurl's contract) */
    if (size != 1) return 0;
    if (n > s->max - s->size) {
        s->too_large = 1;
        return 0; /* aborts the transfer (CURLE_WRITE_ERROR) */
    }
    if (s->size + n > s->capacity) {
        size_t cap = s->capacity ? s->capacity : 4096;
        while (cap < s->size + n) cap = cap > s->max / 2 ? s->max : cap * 2;
        if (cap == 0) cap = 1;
        uint8_t *d = kiln_realloc(s->a, s->data, s->capacity, cap);
        if (!d) return 0;
        s->data = d;
        s->capacity = cap;
    }
    memcpy(s->data + s->size, ptr, n);
    s->size += n;
    return n;
}

/* The bytes of a PUT. */
typedef struct source {
    const uint8_t *data;
    size_t size, pos;
} source;

static size_t source_read(char *buffer, size_t size, size_t nitems, void *user)
{
    source *s = user;
    size_t room = size * nitems, left = s->size - s->pos;
    size_t n = room < left ? room : left;
    memcpy(buffer, s->data + s->pos, n);
    s->pos += n;
    return n;
}

static size_t discard(char *ptr, size_t size, size_t nmemb, void *user)
{
    (void)ptr;
    (void)user;
    return size * nmemb;
}

static CURL *take_handle(http_transport *h)
{
    CURL *c = NULL;
    pthread_mutex_lock(&h->lock);
    if (h->pooled) c = h->pool[--h->pooled];
    pthread_mutex_unlock(&h->lock);
    if (c) {
        h->curl->easy_reset(c); /* keeps the connection cache */
        return c;
    }
    return h->curl->easy_init();
}

static void give_handle(http_transport *h, CURL *c)
{
    pthread_mutex_lock(&h->lock);
    if (h->pooled < POOL_MAX) {
        h->pool[h->pooled++] = c;
        c = NULL;
    }
    pthread_mutex_unlock(&h->lock);
    if (c) h->curl->easy_cleanup(c);
}

static void common_options(http_transport *h, CURL *c, const char *url)
{
    h->curl->easy_setopt(c, CURLOPT_URL, url);
    h->curl->easy_setopt(c, CURLOPT_NOSIGNAL, 1L); /* threads: no SIGALRM for DNS timeouts */
    h->curl->easy_setopt(c, CURLOPT_CONNECTTIMEOUT, (long)h->timeout_s);
    /* A stalled or trickling server (1 byte per second) is a transport error after timeout_s. */
    h->curl->easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    h->curl->easy_setopt(c, CURLOPT_LOW_SPEED_TIME, (long)h->timeout_s);
    h->curl->easy_setopt(c, CURLOPT_HTTPHEADER, h->headers);
    h->curl->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    h->curl->easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
}

static kiln_remote_status transfer_error(const http_transport *h, CURLcode rc, const char *method,
                                         const char *url, kiln_error *err)
{
    kiln_error_set(err, KILN_E_ASSET_IO, "%s %s: %s", method, url, h->curl->easy_strerror(rc));
    return KILN_REMOTE_ERROR;
}

static kiln_remote_status status_of(long code, const char *method, const char *url, bool put,
                                    kiln_error *err)
{
    if (code >= 200 && code < 300) return KILN_REMOTE_OK;
    if (code == 404 && !put) return KILN_REMOTE_MISS;
    kiln_error_set(err, KILN_E_ASSET_IO, "%s %s: HTTP status %ld", method, url, code);
    /* A server that answers a PUT with 4xx is up but will not take it (read-only, full):
     * that fails the upload only. 5xx and anything odd is a transport error. */
    if (put && code >= 400 && code < 500) return KILN_REMOTE_REFUSED;
    return KILN_REMOTE_ERROR;
}

static bool make_url(http_transport *h, const char *path, char out[URL_MAX], kiln_error *err)
{
    int n = snprintf(out, URL_MAX, "%s/%s", h->url, path);
    if (n < 0 || n >= URL_MAX) {
        kiln_error_set(err, KILN_E_LIMIT, "remote URL too long");
        return false;
    }
    return true;
}

/* The URL of path and a handle with the common options set; NULL (err filled) on failure. */
static CURL *begin_request(http_transport *h, const char *path, char url[URL_MAX], kiln_error *err)
{
    if (!make_url(h, path, url, err)) return NULL;
    CURL *c = take_handle(h);
    if (!c) {
        kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory (curl handle)");
        return NULL;
    }
    common_options(h, c, url);
    return c;
}

static kiln_remote_status http_get(kiln_remote_transport *t, const char *path, size_t max_size,
                                   uint8_t **data, size_t *size, size_t *capacity, kiln_error *err)
{
    http_transport *h = (http_transport *)t;
    *data = NULL;
    *size = *capacity = 0;
    char url[URL_MAX];
    CURL *c = begin_request(h, path, url, err);
    if (!c) return KILN_REMOTE_ERROR;
    sink s = {.a = &h->alloc, .max = max_size};
    h->curl->easy_setopt(c, CURLOPT_WRITEFUNCTION, sink_write);
    h->curl->easy_setopt(c, CURLOPT_WRITEDATA, &s);
    CURLcode rc = h->curl->easy_perform(c);
    long code = 0;
    h->curl->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    kiln_remote_status st;
    if (rc == CURLE_WRITE_ERROR && s.too_large) {
        kiln_error_set(err, KILN_E_LIMIT, "GET %s: more than %zu bytes", url, max_size);
        st = KILN_REMOTE_TOO_LARGE;
    } else if (rc != CURLE_OK) {
        st = transfer_error(h, rc, "GET", url, err);
    } else {
        st = status_of(code, "GET", url, false, err);
    }
    give_handle(h, c);
    if (st == KILN_REMOTE_OK) {
        *data = s.data;
        *size = s.size;
        *capacity = s.capacity;
    } else {
        kiln_free(&h->alloc, s.data, s.capacity);
    }
    return st;
}

static kiln_remote_status http_head(kiln_remote_transport *t, const char *path, uint64_t *size,
                                    kiln_error *err)
{
    http_transport *h = (http_transport *)t;
    *size = UINT64_MAX;
    char url[URL_MAX];
    CURL *c = begin_request(h, path, url, err);
    if (!c) return KILN_REMOTE_ERROR;
    h->curl->easy_setopt(c, CURLOPT_NOBODY, 1L);
    h->curl->easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
    CURLcode rc = h->curl->easy_perform(c);
    long code = 0;
    curl_off_t length = -1;
    h->curl->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    h->curl->easy_getinfo(c, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
    kiln_remote_status st = rc != CURLE_OK ? transfer_error(h, rc, "HEAD", url, err)
                                           : status_of(code, "HEAD", url, false, err);
    if (st == KILN_REMOTE_OK && length >= 0) *size = (uint64_t)length;
    give_handle(h, c);
    return st;
}

static kiln_remote_status http_put(kiln_remote_transport *t, const char *path, const void *data,
                                   size_t size, kiln_error *err)
{
    http_transport *h = (http_transport *)t;
    char url[URL_MAX];
    CURL *c = begin_request(h, path, url, err);
    if (!c) return KILN_REMOTE_ERROR;
    source s = {data, size, 0};
    h->curl->easy_setopt(c, CURLOPT_UPLOAD, 1L);
    h->curl->easy_setopt(c, CURLOPT_READFUNCTION, source_read);
    h->curl->easy_setopt(c, CURLOPT_READDATA, &s);
    h->curl->easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)size); /* Content-Length */
    h->curl->easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
    CURLcode rc = h->curl->easy_perform(c);
    long code = 0;
    h->curl->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
    kiln_remote_status st = rc != CURLE_OK ? transfer_error(h, rc, "PUT", url, err)
                                           : status_of(code, "PUT", url, true, err);
    give_handle(h, c);
    return st;
}

static void http_destroy(kiln_remote_transport *t)
{
    http_transport *h = (http_transport *)t;
    if (!h) return;
    for (size_t i = 0; i < h->pooled; i++) h->curl->easy_cleanup(h->pool[i]);
    h->curl->slist_free_all(h->headers);
    pthread_mutex_destroy(&h->lock);
    kiln_allocator a = h->alloc;
    const kiln_curl_api *curl = h->curl;
    kiln_free(&a, h, sizeof *h);
    curl->global_cleanup();
}

kiln_result kiln_remote_http_create(const char *base, const kiln_allocator *a, uint32_t timeout_s,
                                    kiln_remote_transport **out, kiln_error *err)
{
    *out = NULL;
    if (strlen(base) >= URL_MAX - 128)
        return kiln_error_set(err, KILN_E_USAGE, "remote cache URL too long");
    /* Thread-safe and reference-counted since libcurl 7.84 (Debian 12 has 7.88). */
    const kiln_curl_api *curl;
    kiln_result r = kiln_curl_api_get(&curl, err);
    if (r != KILN_OK) return r;
    if (curl->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        return kiln_error_set(err, KILN_E_INTERNAL, "libcurl could not be initialised");
    http_transport *h = kiln_calloc(a, 1, sizeof *h);
    if (!h) {
        curl->global_cleanup();
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    h->curl = curl;
    if (a) h->alloc = *a;
    strcpy(h->url, base);
    h->timeout_s = timeout_s ? timeout_s : 10;
    pthread_mutex_init(&h->lock, NULL);
    h->headers = h->curl->slist_append(NULL, "Expect:");
    if (!h->headers) {
        http_destroy(&h->base);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    h->base.get = http_get;
    h->base.head = http_head;
    h->base.put = http_put;
    h->base.destroy = http_destroy;
    h->base.alloc = &h->alloc;
    *out = &h->base;
    return KILN_OK;
}
