/* test_remote.c — the shared remote cache (docs/scale-out.md) through the kiln command against a
 * real nginx with WebDAV PUT, fault servers (503, one byte per second, stopped mid-run) and a
 * file: folder. In every case the import succeeds, and the local cache holds exactly the bytes
 * a local cook without any remote gives (fx_tree_fingerprint of objects/ equal). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/hash.h"
#include "fixtures.h"
#include "pipeline/remote.h"
#include "servers.h"
#include "support.h"

#define N_PNG 6

static char *g_reference; /* objects/ fingerprint of a local cook without remotes */
static int g_assets;      /* assets in each project */
static char *g_template;  /* a project folder with assets/ only */

static const char *kiln_exe(void)
{
    const char *e = getenv("KILN_EXE");
    assert_non_null(e);
    return e;
}

static void copy_tree(const char *from, const char *to)
{
    char *cmd = kt_format("cp -a '%s/.' '%s/'", from, to);
    assert_int_equal(kt_run(cmd, NULL), 0);
    free(cmd);
}

/* A fresh project: a copy of the template. */
static char *new_project(const char *tag)
{
    char *d = kt_tempdir(tag);
    copy_tree(g_template, d);
    return d;
}

/* Runs `kiln <args> --json` in dir; returns the exit status, the document (or NULL) and stderr. */
static int kiln(const char *dir, const char *args, json_t **doc, char **stderr_text)
{
    char *errp = kt_format("%s/.stderr", dir);
    char *cmd = kt_format("cd '%s' && '%s' %s --json 2>'%s'", dir, kiln_exe(), args, errp);
    char *out = NULL;
    int code = kt_run(cmd, &out);
    if (doc) {
        *doc = out ? json_loads(out, 0, NULL) : NULL;
        if (!*doc) fprintf(stderr, "kiln %s printed no JSON:\n%s\n", args, out ? out : "");
    }
    if (stderr_text) {
        *stderr_text = kt_read_file(errp, NULL);
        if (!*stderr_text) *stderr_text = calloc(1, 1);
    }
    free(out);
    free(cmd);
    unlink(errp);
    free(errp);
    return code;
}

static long long remote_count(const json_t *doc, const char *what)
{
    const json_t *r = json_object_get(doc, "remote");
    assert_non_null(r);
    const json_t *v = json_object_get(r, what);
    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

static long long total(const json_t *doc, const char *what)
{
    return json_integer_value(json_object_get(json_object_get(doc, "totals"), what));
}

static int count_substr(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

/* The local cache holds the reference bytes: nothing lost, nothing corrupted. */
static void assert_cache_is_reference(const char *project)
{
    char *objects = kt_format("%s/.kiln/cache/objects", project);
    char *fp = fx_tree_fingerprint(objects);
    if (strcmp(fp, g_reference) != 0)
        fail_msg("%s differs from a local cook:\n--- got\n%s\n--- expected\n%s", objects, fp,
                 g_reference);
    free(fp);
    free(objects);
}

/* Imports everything with the given remote options; asserts success and all assets done. */
static json_t *import_all(const char *project, const char *opts, char **err_text)
{
    char *args = kt_format("import --all -j 2 %s", opts);
    json_t *doc = NULL;
    int code = kiln(project, args, &doc, err_text);
    if (code != 0) fail_msg("kiln %s exited %d: %s", args, code, err_text ? *err_text : "");
    assert_non_null(doc);
    assert_int_equal(total(doc, "failed"), 0);
    free(args);
    return doc;
}

static int setup_all(void **state)
{
    (void)state;
    g_template = kt_tempdir("remote-template");
    char *assets = kt_format("%s/assets", g_template);
    fx_make_tree(assets, N_PNG);
    g_assets = N_PNG;
    /* A glTF model with an external buffer and texture, when the corpus is there. */
    char *box = kt_corpus_path("gltf/BoxTextured/glTF");
    if (box && access(box, R_OK) == 0) {
        char *dst = kt_format("%s/models/box", assets);
        char *cmd = kt_format("mkdir -p '%s' && cp -a '%s/.' '%s/'", dst, box, dst);
        assert_int_equal(kt_run(cmd, NULL), 0);
        free(cmd);
        free(dst);
        g_assets += 1; /* the .gltf (its PNG is the model's, not an asset of its own) */
    }
    free(box);
    free(assets);
    char *ref = new_project("remote-reference");
    json_t *doc = import_all(ref, "", NULL);
    assert_int_equal(total(doc, "imported"), g_assets);
    json_decref(doc);
    char *objects = kt_format("%s/.kiln/cache/objects", ref);
    g_reference = fx_tree_fingerprint(objects);
    free(objects);
    kt_rmtree(ref);
    free(ref);
    return 0;
}

static int teardown_all(void **state)
{
    (void)state;
    kt_rmtree(g_template);
    free(g_template);
    free(g_reference);
    return 0;
}

static char *remote_opt(const char *url, const char *suffix)
{
    return kt_format("--remote-cache '%s%s'", url, suffix ? suffix : "");
}

/* Removes a temporary folder and frees its path. */
static void drop_dir(char *dir)
{
    kt_rmtree(dir);
    free(dir);
}

/* Entries in a folder (0 when it does not exist). */
static int count_entries(const char *dir)
{
    char *cmd = kt_format("ls '%s' 2>/dev/null | wc -l", dir);
    char *out = NULL;
    assert_int_equal(kt_run(cmd, &out), 0);
    assert_non_null(out);
    int n = atoi(out);
    free(out);
    free(cmd);
    return n;
}

/* A field of the first remote in the document's "remote" object, e.g. "read_only". */
static bool first_remote_flag(const json_t *doc, const char *flag)
{
    const json_t *remotes = json_object_get(json_object_get(doc, "remote"), "remotes");
    return json_is_true(json_object_get(json_array_get(remotes, 0), flag));
}

/* nginx's access log (NULL when it has none yet). */
static char *access_log(const kt_server *s)
{
    char *logp = kt_format("%s/access.log", s->dir);
    char *log = kt_read_file(logp, NULL);
    free(logp);
    return log;
}

/* Fills a remote from one project; returns nothing, checks the counters. */
static void fill(const char *url_opts)
{
    char *a = new_project("remote-fill");
    char *err = NULL;
    json_t *doc = import_all(a, url_opts, &err);
    assert_int_equal(total(doc, "imported"), g_assets);
    assert_int_equal(remote_count(doc, "misses"), g_assets);
    assert_int_equal(remote_count(doc, "uploads"), g_assets);
    assert_int_equal(remote_count(doc, "errors"), 0);
    assert_cache_is_reference(a);
    json_decref(doc);
    free(err);
    drop_dir(a);
}

/* A fresh project importing from the remote: every asset a hit. */
static void expect_all_hits(const char *url_opts)
{
    char *b = new_project("remote-hit");
    json_t *doc = import_all(b, url_opts, NULL);
    assert_int_equal(total(doc, "imported"), 0);
    assert_int_equal(total(doc, "cached"), g_assets);
    assert_int_equal(remote_count(doc, "hits"), g_assets);
    assert_int_equal(remote_count(doc, "misses"), 0);
    assert_int_equal(remote_count(doc, "uploads"), 0);
    size_t i;
    json_t *rec;
    json_array_foreach (json_object_get(doc, "records"), i, rec)
        assert_string_equal(json_string_value(json_object_get(rec, "remote")), "hit");
    assert_cache_is_reference(b);
    json_decref(doc);
    drop_dir(b);
}

/* Skips the case without nginx, else starts one; returns its --remote-cache option. */
static char *nginx_begin(kt_server *s)
{
    if (!kt_have_nginx()) skip();
    kt_nginx_start(s);
    return remote_opt(s->url, NULL);
}

static void nginx_end(kt_server *s, char *opt)
{
    free(opt);
    kt_server_stop(s);
}

/* What every outage gives, whatever the remote did: the import succeeds, every asset is cooked
 * locally, the remote counts one error and is disabled once, the cache holds the reference. */
static void expect_outage(const char *project, const json_t *doc, const char *err)
{
    assert_int_equal(total(doc, "imported"), g_assets);
    assert_int_equal(remote_count(doc, "errors"), 1);
    if (count_substr(err, "disabled for this run") != 1)
        fail_msg("the remote was not disabled exactly once:\n%s", err);
    assert_cache_is_reference(project);
}

/* One import of a fresh project (-j 1) against a fault server in a mode; the case adds its own
 * checks on doc and the server before fault_run_end. */
typedef struct fault_run {
    kt_server s;
    char *project;
    char *err;
    json_t *doc;
    double secs; /* how long the import took */
} fault_run;

static void fault_run_start(fault_run *r, const char *mode, const char *tag, const char *suffix)
{
    kt_fault_start(&r->s, mode);
    r->project = new_project(tag);
    char *ro = remote_opt(r->s.url, suffix);
    char *o = kt_format("%s -j 1", ro);
    r->err = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    r->doc = import_all(r->project, o, &r->err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    free(o);
    free(ro);
    expect_outage(r->project, r->doc, r->err);
}

static void fault_run_end(fault_run *r)
{
    json_decref(r->doc);
    free(r->err);
    drop_dir(r->project);
    kt_server_stop(&r->s);
}

static void remote_fill_then_hit_from_second_project(void **state)
{
    (void)state;
    kt_server s;
    char *o = nginx_begin(&s);
    fill(o);
    /* HEAD before every PUT of a blob, and an entry's AC record after its blobs. */
    char *log = access_log(&s);
    assert_non_null(log);
    assert_int_equal(count_substr(log, "\"PUT /kiln/ac/"), g_assets);
    for (char *p = strstr(log, "\"PUT /kiln/cas/"); p; p = strstr(p + 1, "\"PUT /kiln/cas/")) {
        char head[128];
        snprintf(head, sizeof head, "\"HEAD /kiln/cas/%.64s", p + 15);
        char *h = strstr(log, head);
        assert_non_null(h);
        assert_true(h < p);
    }
    free(log);
    expect_all_hits(o);
    nginx_end(&s, o);
}

static void remote_concurrent_writers_of_one_key(void **state)
{
    (void)state;
    kt_server s;
    char *o = nginx_begin(&s);
    char *a = new_project("remote-conc-a"), *b = new_project("remote-conc-b");
    char *cmd = kt_format("cd '%s' && ('%s' import --all -j 2 --remote-cache %s >/dev/null 2>&1 & "
                          "cd '%s' && '%s' import --all -j 2 --remote-cache %s >/dev/null 2>&1 & "
                          "wait %%1 && wait %%2)",
                          a, kiln_exe(), s.url, b, kiln_exe(), s.url);
    assert_int_equal(kt_run(cmd, NULL), 0);
    assert_cache_is_reference(a);
    assert_cache_is_reference(b);
    expect_all_hits(o);
    free(cmd);
    drop_dir(a);
    drop_dir(b);
    nginx_end(&s, o);
}

/* Every blob file in the server's cas/ folder, for damaging one. */
static char *first_cas_blob(const kt_server *s)
{
    char *cmd = kt_format("ls -S '%s/data/kiln/cas' | head -n 1", s->dir);
    char *out = NULL;
    assert_int_equal(kt_run(cmd, &out), 0);
    free(cmd);
    assert_non_null(out);
    out[strcspn(out, "\n")] = '\0';
    assert_int_equal((int)strlen(out), 64);
    char *p = kt_format("%s/data/kiln/cas/%s", s->dir, out);
    free(out);
    return p;
}

static void expect_some_misses_then_local_cook(const char *url_opts, bool counts_error)
{
    char *c = new_project("remote-damaged");
    char *err = NULL;
    json_t *doc = import_all(c, url_opts, &err);
    assert_true(total(doc, "imported") >= 1);
    assert_int_equal(total(doc, "imported") + remote_count(doc, "hits"), g_assets);
    if (counts_error) assert_true(remote_count(doc, "errors") >= 1);
    assert_cache_is_reference(c);
    /* The local cook re-uploads what it made: the next fresh project hits everything. */
    json_decref(doc);
    free(err);
    drop_dir(c);
}

static void remote_corrupted_blob_is_a_miss(void **state)
{
    (void)state;
    kt_server s;
    char *o = nginx_begin(&s);
    fill(o);
    char *blob = first_cas_blob(&s);
    size_t n;
    uint8_t *bytes = kt_read_file(blob, &n);
    assert_true(n > 0);
    bytes[n / 2] ^= 0x5a; /* same size, different bytes */
    kt_write_file(blob, bytes, n);
    free(bytes);
    expect_some_misses_then_local_cook(o, true);
    /* A truncated blob too. */
    bytes = kt_read_file(blob, &n);
    kt_write_file(blob, bytes, n / 2);
    free(bytes);
    expect_some_misses_then_local_cook(o, false);
    free(blob);
    nginx_end(&s, o);
}

static void remote_evicted_blob_the_ac_names_is_a_miss(void **state)
{
    (void)state;
    kt_server s;
    char *o = nginx_begin(&s);
    fill(o);
    char *blob = first_cas_blob(&s);
    assert_int_equal(unlink(blob), 0);
    expect_some_misses_then_local_cook(o, false);
    /* That cook uploaded the blob again (HEAD said 404): everything hits now. */
    expect_all_hits(o);
    free(blob);
    nginx_end(&s, o);
}

static void remote_server_stopped_mid_run_cooks_locally(void **state)
{
    (void)state;
    /* A server that answers two lookups, then is gone: the third request is refused. */
    fault_run r;
    fault_run_start(&r, "die:2", "remote-died", NULL);
    assert_int_equal(remote_count(r.doc, "hits"), 0);
    assert_int_equal(kt_fault_requests(&r.s), 2);
    fault_run_end(&r);
    /* nginx stopped between the fill and the next run. */
    if (!kt_have_nginx()) return;
    kt_server s;
    kt_nginx_start(&s);
    char *o = remote_opt(s.url, NULL);
    fill(o);
    kt_server_stop(&s);
    char *c = new_project("remote-stopped");
    char *err = NULL;
    json_t *doc = import_all(c, o, &err);
    expect_outage(c, doc, err);
    json_decref(doc);
    free(err);
    free(o);
    drop_dir(c);
}

static void remote_503_is_disabled_after_the_first_request(void **state)
{
    (void)state;
    fault_run r;
    fault_run_start(&r, "503", "remote-503", NULL);
    assert_int_equal(remote_count(r.doc, "uploads"), 0);
    assert_int_equal(kt_fault_requests(&r.s), 1);
    assert_true(first_remote_flag(r.doc, "disabled"));
    fault_run_end(&r);
}

static void remote_one_byte_per_second_times_out(void **state)
{
    (void)state;
    fault_run r;
    fault_run_start(&r, "slow", "remote-slow", "?timeout=1");
    assert_int_equal(kt_fault_requests(&r.s), 1);
    assert_true(r.secs < 20.0);
    fault_run_end(&r);
}

static void remote_read_only_never_uploads(void **state)
{
    (void)state;
    kt_server s;
    char *rw = nginx_begin(&s);
    char *ro = remote_opt(s.url, "?read-only");
    char *c = new_project("remote-ro");
    json_t *doc = import_all(c, ro, NULL);
    assert_int_equal(total(doc, "imported"), g_assets);
    assert_int_equal(remote_count(doc, "uploads"), 0);
    assert_true(first_remote_flag(doc, "read_only"));
    json_decref(doc);
    char *log = access_log(&s);
    assert_int_equal(count_substr(log ? log : "", "\"PUT "), 0);
    assert_int_equal(count_substr(log ? log : "", "\"HEAD "), 0);
    free(log);
    drop_dir(c);
    /* CI writes, artists read. */
    fill(rw);
    expect_all_hits(ro);
    free(ro);
    nginx_end(&s, rw);
}

static void remote_two_shards_then_fresh_run_hits_everything(void **state)
{
    (void)state;
    kt_server s;
    char *o = nginx_begin(&s);
    long long imported = 0, skipped = 0;
    for (int i = 0; i < 2; i++) {
        char *c = new_project("remote-shard");
        char *opts = kt_format("%s --shard %d/2", o, i);
        json_t *doc = import_all(c, opts, NULL);
        json_t *sh = json_object_get(doc, "shard");
        assert_int_equal(json_integer_value(json_object_get(sh, "index")), i);
        assert_int_equal(json_integer_value(json_object_get(sh, "count")), 2);
        imported += total(doc, "imported");
        skipped += json_integer_value(json_object_get(sh, "skipped"));
        assert_int_equal(
            total(doc, "imported") + json_integer_value(json_object_get(sh, "skipped")), g_assets);
        assert_int_equal(remote_count(doc, "uploads"), total(doc, "imported"));
        json_decref(doc);
        free(opts);
        drop_dir(c);
    }
    assert_int_equal(imported, g_assets);
    assert_int_equal(skipped, g_assets);
    expect_all_hits(o);
    nginx_end(&s, o);
}

static void remote_file_url_fills_and_hits(void **state)
{
    (void)state;
    char *share = kt_tempdir("remote-share");
    char *url = kt_format("file://%s/cache", share);
    char *o = remote_opt(url, NULL);
    fill(o);
    char *ac = kt_format("%s/cache/ac", share);
    assert_int_equal(count_entries(ac), g_assets);
    expect_all_hits(o);
    free(ac);
    free(o);
    free(url);
    drop_dir(share);
}

static void remote_two_remotes_split_the_keys(void **state)
{
    (void)state;
    if (!kt_have_nginx()) skip();
    kt_server a, b;
    kt_nginx_start(&a);
    kt_nginx_start(&b);
    char *o = kt_format("--remote-cache %s --remote-cache %s", a.url, b.url);
    fill(o);
    int held = 0;
    kt_server *both[2] = {&a, &b};
    for (int i = 0; i < 2; i++) {
        char *ac = kt_format("%s/data/kiln/ac", both[i]->dir);
        held += count_entries(ac);
        free(ac);
    }
    assert_int_equal(held, g_assets); /* each entry on exactly one remote */
    expect_all_hits(o);
    free(o);
    kt_server_stop(&a);
    kt_server_stop(&b);
}

static void remote_rendezvous_spreads_and_moves_few_keys(void **state)
{
    (void)state;
    const char *ids[3] = {"http://a:8080/kiln", "http://b:8080/kiln", "file:///mnt/c"};
    int owned[3] = {0, 0, 0}, moved = 0;
    for (int k = 0; k < 3000; k++) {
        char key[65];
        uint8_t d[32];
        char seed[32];
        snprintf(seed, sizeof seed, "key %d", k);
        kiln_sha256_bytes(seed, strlen(seed), d, NULL);
        kiln_hex(d, 32, key);
        size_t three = kiln_remote_rendezvous(ids, 3, key);
        size_t two = kiln_remote_rendezvous(ids, 2, key);
        owned[three]++;
        if (three != 2 && two != three) moved++; /* only c's keys may move when c goes */
        assert_true(kiln_remote_rendezvous(ids, 3, key) == three);
        /* Shards: every GUID in exactly one of N. */
        int in = 0;
        for (uint32_t i = 0; i < 5; i++) in += kiln_shard_contains(key, i, 5);
        assert_int_equal(in, 1);
    }
    for (int i = 0; i < 3; i++) assert_true(owned[i] > 800 && owned[i] < 1200);
    assert_int_equal(moved, 0);
}

static void remote_config_file_and_bad_urls(void **state)
{
    (void)state;
    char *share = kt_tempdir("remote-config-share");
    char *c = new_project("remote-config");
    char *cfg = kt_format("%s/kiln.json", c);
    char *body = kt_format("{\"remote_cache\": [\"file://%s\"]}", share);
    kt_write_file(cfg, body, strlen(body));
    json_t *doc = import_all(c, "", NULL);
    assert_int_equal(remote_count(doc, "uploads"), g_assets);
    json_decref(doc);
    /* An unknown field: a settings error, exit 2, nothing imported. */
    kt_write_file(cfg, "{\"remote\": []}", 14);
    assert_int_equal(kiln(c, "import --all", &doc, NULL), 2);
    json_decref(doc);
    kt_write_file(cfg, body, strlen(body));
    struct {
        const char *args;
    } bad[] = {
        {"import --all --remote-cache ftp://x/y"},
        {"import --all --remote-cache 'http://x/y?bogus'"},
        {"import --all --remote-cache 'http://x/y?timeout=0'"},
        {"import --all --shard 2/2"},
        {"import --all --shard 1"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        doc = NULL;
        int code = kiln(c, bad[i].args, &doc, NULL);
        if (code != 2) fail_msg("%s exited %d, not 2", bad[i].args, code);
        assert_string_equal(
            json_string_value(json_object_get(json_object_get(doc, "error"), "code")), "E_USAGE");
        json_decref(doc);
    }
    free(body);
    free(cfg);
    drop_dir(c);
    drop_dir(share);
}

static void graph_ninja_imports_every_asset(void **state)
{
    (void)state;
    char *c = new_project("remote-graph");
    json_t *doc = NULL;
    assert_int_equal(kiln(c, "graph --ninja", &doc, NULL), 0);
    assert_int_equal((int)json_array_size(json_object_get(doc, "assets")), g_assets);
    json_decref(doc);
    char *ninja = kt_format("%s/.kiln/build.ninja", c);
    assert_true(kt_file_exists(ninja));
    if (kt_run("command -v ninja >/dev/null 2>&1", NULL) == 0) {
        char *cmd = kt_format("ninja -f '%s' 2>&1", ninja);
        char *out = NULL;
        assert_int_equal(kt_run(cmd, &out), 0);
        free(out);
        assert_cache_is_reference(c);
        assert_int_equal(kt_run(cmd, &out), 0);
        assert_non_null(strstr(out, "no work to do"));
        free(out);
        free(cmd);
    }
    free(ninja);
    drop_dir(c);
}

int main(void)
{
    if (!getenv("KILN_EXE")) {
        fprintf(stderr, "KILN_EXE is not set; run through ctest\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(remote_rendezvous_spreads_and_moves_few_keys),
        cmocka_unit_test(remote_fill_then_hit_from_second_project),
        cmocka_unit_test(remote_concurrent_writers_of_one_key),
        cmocka_unit_test(remote_corrupted_blob_is_a_miss),
        cmocka_unit_test(remote_evicted_blob_the_ac_names_is_a_miss),
        cmocka_unit_test(remote_server_stopped_mid_run_cooks_locally),
        cmocka_unit_test(remote_503_is_disabled_after_the_first_request),
        cmocka_unit_test(remote_one_byte_per_second_times_out),
        cmocka_unit_test(remote_read_only_never_uploads),
        cmocka_unit_test(remote_two_shards_then_fresh_run_hits_everything),
        cmocka_unit_test(remote_two_remotes_split_the_keys),
        cmocka_unit_test(remote_file_url_fills_and_hits),
        cmocka_unit_test(remote_config_file_and_bad_urls),
        cmocka_unit_test(graph_ninja_imports_every_asset),
    };
    return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
