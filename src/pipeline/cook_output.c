/* cook_output.c — what a registered kind's cook may add to its result (kiln_kind.h). */
#include "pipeline/cook_output.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "write/container_write.h"

void kiln_cook_output_init(kiln_cook_output *o, kiln_cooked *cooked, const kiln_allocator *alloc)
{
    memset(cooked, 0, sizeof *cooked);
    o->cooked = cooked;
    o->alloc = alloc;
    o->summary = json_object();
    o->warnings = json_array();
}

kiln_result kiln_cook_output_finish(kiln_cook_output *o, kiln_error *err)
{
    if (!o->summary || !o->warnings) {
        json_decref(o->summary);
        json_decref(o->warnings);
        kiln_cooked_release(o->alloc, o->cooked);
        return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    }
    json_object_set_new(o->summary, "artifacts", json_integer((json_int_t)o->cooked->output_count));
    o->cooked->summary = o->summary;
    o->cooked->warnings = o->warnings;
    o->summary = o->warnings = NULL;
    return KILN_OK;
}

/* Labels: [a-z0-9_/]+ without an empty part; files: [A-Za-z0-9_.-]+ not starting with '.'. */
static bool label_valid(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > 128 || s[0] == '/' || s[n - 1] == '/' || strstr(s, "//")) return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
              s[i] == '/'))
            return false;
    return true;
}

static bool file_valid(const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n == 0 || n > 128 || s[0] == '.') return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '.' || s[i] == '-'))
            return false;
    return true;
}

static kiln_result check_names(const kiln_cook_output *o, const char *label, const char *file,
                               kiln_error *err)
{
    if (!o) return kiln_error_set(err, KILN_E_USAGE, "no cook output");
    if (!label_valid(label))
        return kiln_error_set(err, KILN_E_USAGE, "artifact label \"%s\" is not [a-z0-9_/]+",
                              label ? label : "(null)");
    if (!file_valid(file))
        return kiln_error_set(err, KILN_E_USAGE, "artifact file \"%s\" is not [A-Za-z0-9_.-]+",
                              file ? file : "(null)");
    if (!strcmp(file, "manifest.json"))
        return kiln_error_set(err, KILN_E_USAGE, "artifact file manifest.json is the cache's");
    for (size_t i = 0; i < o->cooked->output_count; i++) {
        if (!strcmp(o->cooked->outputs[i].label, label))
            return kiln_error_set(err, KILN_E_USAGE, "artifact label %s is there twice", label);
        if (!strcmp(o->cooked->outputs[i].file, file))
            return kiln_error_set(err, KILN_E_USAGE, "artifact file %s is there twice", file);
    }
    return KILN_OK;
}

KILN_API kiln_result kiln_cook_output_add(kiln_cook_output *out, const char *label,
                                          const char *file, const void *data, size_t size,
                                          kiln_error *err)
{
    kiln_result r = check_names(out, label, file, err);
    if (r != KILN_OK) return r;
    if (size && !data) return kiln_error_set(err, KILN_E_USAGE, "artifact %s: no bytes", label);
    uint8_t *copy = kiln_alloc(out->alloc, size ? size : 1);
    if (!copy) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory");
    if (size) memcpy(copy, data, size);
    return kiln_cooked_add(out->cooked, out->alloc, label, file, copy, size, size ? size : 1, err);
}

KILN_API kiln_result kiln_cook_output_add_container(kiln_cook_output *out, const char *label,
                                                    const char *file, uint32_t kind,
                                                    uint32_t kind_version,
                                                    const kiln_section_desc *sections,
                                                    size_t section_count, kiln_error *err)
{
    kiln_result r = check_names(out, label, file, err);
    if (r != KILN_OK) return r;
    if (section_count && !sections)
        return kiln_error_set(err, KILN_E_USAGE, "artifact %s: no sections", label);
    if (section_count > KILN_CONTAINER_MAX_SECTIONS)
        return kiln_error_set(err, KILN_E_USAGE, "artifact %s: more than %d sections", label,
                              KILN_CONTAINER_MAX_SECTIONS);
    kiln_container_writer w;
    kiln_container_begin(&w, kind, kind_version, out->alloc);
    for (size_t i = 0; i < section_count; i++) {
        const kiln_section_desc *s = &sections[i];
        if (s->count && !s->data)
            return kiln_error_set(err, KILN_E_USAGE, "artifact %s: section %zu has no data", label,
                                  i);
        r = kiln_container_add(&w, s->id, s->element_size, s->count, s->data, err);
        if (r != KILN_OK) return r;
    }
    uint8_t *bytes;
    size_t size;
    if ((r = kiln_container_finish(&w, &bytes, &size, err)) != KILN_OK) return r;
    return kiln_cooked_add(out->cooked, out->alloc, label, file, bytes, size, size, err);
}

KILN_API kiln_result kiln_cook_output_warn(kiln_cook_output *out, const char *message)
{
    if (!out || !message) return KILN_E_USAGE;
    return out->warnings && json_array_append_new(out->warnings, json_string(message)) == 0
               ? KILN_OK
               : KILN_E_OUT_OF_MEMORY;
}

KILN_API kiln_result kiln_cook_output_summary(kiln_cook_output *out, const char *key, double value)
{
    if (!out || !key) return KILN_E_USAGE;
    if (!isfinite(value)) return KILN_E_USAGE;
    bool integral = fabs(value) < 9.0e15 && value == (double)(json_int_t)value;
    json_t *v = integral ? json_integer((json_int_t)value) : json_real(value);
    return out->summary && json_object_set_new(out->summary, key, v) == 0 ? KILN_OK
                                                                          : KILN_E_OUT_OF_MEMORY;
}
