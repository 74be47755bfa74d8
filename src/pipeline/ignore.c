/* ignore.c — gitignore's rules (https://git-scm.com/docs/gitignore, "PATTERN FORMAT") on top of
 * glob.c: comments, blank lines, '!' negation, a trailing '/' for folders only, a leading or
 * middle '/' anchoring the pattern at the root, and a pattern without one matching at any depth.
 * Matching a folder is the caller's business: the scan does not descend into an ignored folder,
 * so, as in git, nothing under it can be taken back by a later '!'. */
#include "pipeline/ignore.h"

#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "pipeline/glob.h"

static kiln_result push_rule(kiln_ignore *ig, const kiln_ignore_rule *rule, kiln_error *err)
{
    if (ig->count == ig->capacity) {
        size_t nc = ig->capacity ? ig->capacity * 2 : 16;
        kiln_ignore_rule *nr =
            kiln_realloc(&ig->allocator, ig->rules, ig->capacity * sizeof *nr, nc * sizeof *nr);
        if (!nr) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
        ig->rules = nr;
        ig->capacity = nc;
    }
    ig->rules[ig->count++] = *rule;
    return KILN_OK;
}

kiln_result kiln_ignore_add(kiln_ignore *ig, const char *line, size_t size, const char *origin,
                            size_t line_no, bool *added, kiln_error *err)
{
    *added = false;
    /* A NUL ends the line: file names hold none, and the strings below stay whole. */
    const char *nul = memchr(line, '\0', size);
    if (nul) size = (size_t)(nul - line);
    if (size && line[size - 1] == '\r') size--;
    /* Trailing spaces go, unless the last one is escaped. */
    while (size && line[size - 1] == ' ' && !(size >= 2 && line[size - 2] == '\\')) size--;
    if (size == 0 || line[0] == '#') return KILN_OK;
    if (size > KILN_IGNORE_MAX_PATTERN)
        return kiln_error_set(err, KILN_E_LIMIT, "a pattern longer than %d bytes",
                              KILN_IGNORE_MAX_PATTERN);
    kiln_ignore_rule rule = {.origin = origin, .line = line_no};
    const char *p = line;
    size_t n = size;
    if (p[0] == '!') {
        rule.negate = true;
        p++;
        n--;
    }
    if (n && p[n - 1] == '/' && !(n >= 2 && p[n - 2] == '\\')) {
        rule.dir_only = true;
        n--;
    }
    bool anchored = n && p[0] == '/';
    if (anchored) {
        p++;
        n--;
    }
    if (n == 0) return KILN_OK; /* "/", "!" and "!/" name nothing */
    if (!anchored) anchored = memchr(p, '/', n) != NULL;
    const char *any_depth = anchored ? "" : "**/";
    size_t prefix = strlen(any_depth);
    rule.glob = kiln_alloc(&ig->allocator, prefix + n + 1);
    rule.text = kiln_alloc(&ig->allocator, size + 1);
    if (!rule.glob || !rule.text) {
        if (rule.glob) kiln_free(&ig->allocator, rule.glob, prefix + n + 1);
        if (rule.text) kiln_free(&ig->allocator, rule.text, size + 1);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(rule.glob, any_depth, prefix);
    memcpy(rule.glob + prefix, p, n);
    rule.glob[prefix + n] = '\0';
    memcpy(rule.text, line, size);
    rule.text[size] = '\0';
    kiln_result r = push_rule(ig, &rule, err);
    if (r != KILN_OK) {
        kiln_free(&ig->allocator, rule.glob, strlen(rule.glob) + 1);
        kiln_free(&ig->allocator, rule.text, strlen(rule.text) + 1);
        return r;
    }
    *added = true;
    return KILN_OK;
}

kiln_result kiln_ignore_add_text(kiln_ignore *ig, const char *text, size_t size, const char *origin,
                                 kiln_error *err)
{
    size_t line_no = 0;
    for (size_t pos = 0; pos < size;) {
        const char *nl = memchr(text + pos, '\n', size - pos);
        size_t end = nl ? (size_t)(nl - text) : size;
        line_no++;
        bool added;
        kiln_result r = kiln_ignore_add(ig, text + pos, end - pos, origin, line_no, &added, err);
        if (r != KILN_OK) {
            kiln_error_prefix(err, "%s:%zu: ", origin, line_no);
            return r;
        }
        pos = end + 1;
    }
    return KILN_OK;
}

const kiln_ignore_rule *kiln_ignore_match(const kiln_ignore *ig, const char *rel, bool is_dir)
{
    for (size_t i = ig->count; i-- > 0;) {
        const kiln_ignore_rule *rule = &ig->rules[i];
        if (rule->dir_only && !is_dir) continue;
        if (kiln_glob_match(rule->glob, rel)) return rule;
    }
    return NULL;
}

void kiln_ignore_free(kiln_ignore *ig)
{
    for (size_t i = 0; i < ig->count; i++) {
        kiln_free(&ig->allocator, ig->rules[i].glob, strlen(ig->rules[i].glob) + 1);
        kiln_free(&ig->allocator, ig->rules[i].text, strlen(ig->rules[i].text) + 1);
    }
    kiln_free(&ig->allocator, ig->rules, ig->capacity * sizeof *ig->rules);
    ig->rules = NULL;
    ig->count = ig->capacity = 0;
}
