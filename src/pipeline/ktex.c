/* ktex.c — parsing texture descriptors and listing the images they name (ktex.h). */
#include "pipeline/ktex.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/error.h"
#include "core/file.h"
#include "core/path.h"
#include "core/reader.h"
#include "pipeline/source_kind.h"

static kiln_result fail(kiln_error *err, const char *pointer, const char *fmt, ...)
    KILN_PRINTF(3, 4);
static kiln_result fail(kiln_error *err, const char *pointer, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kiln_error_setv(err, KILN_E_IMPORT_FAILED, fmt, ap);
    va_end(ap);
    if (pointer) kiln_error_at_pointer(err, pointer);
    return KILN_E_IMPORT_FAILED;
}

void kiln_ktex_free(kiln_ktex *k)
{
    if (!k) return;
    for (uint32_t i = 0; i < k->count; i++)
        if (k->files && k->files[i]) kiln_free(&k->allocator, k->files[i], strlen(k->files[i]) + 1);
    kiln_free(&k->allocator, k->files, (size_t)KILN_KTEX_MAX_IMAGES * sizeof *k->files);
    if (k->folder) kiln_free(&k->allocator, k->folder, strlen(k->folder) + 1);
    memset(k, 0, sizeof *k);
}

/* A file the texture kind takes (its extensions, any case): what a folder of images holds. */
static bool is_image_name(const char *name)
{
    return kiln_source_kind_of(NULL, name) == &kiln_source_kind_texture;
}

/* Appends dir/rel (rel checked to stay inside dir) to the file list. */
static kiln_result add_file(kiln_ktex *k, const char *dir, const char *rel, const char *pointer,
                            kiln_error *err)
{
    if (k->count >= KILN_KTEX_MAX_IMAGES)
        return kiln_error_set(err, KILN_E_LIMIT, "more than %u images", KILN_KTEX_MAX_IMAGES);
    if (!kiln_path_is_safe_relative(rel))
        return fail(err, pointer,
                    "\"%s\" is not a path inside the descriptor's folder (relative, no \"..\", "
                    "\"/\" separators)",
                    rel);
    char path[KILN_PATH_MAX];
    if (!kiln_path_format(path, sizeof path, "%s/%s", dir, rel))
        return kiln_error_set(err, KILN_E_LIMIT, "path too long: %s/%s", dir, rel);
    size_t n = strlen(path) + 1;
    char *copy = kiln_alloc(&k->allocator, n);
    if (!copy) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for a path");
    memcpy(copy, path, n);
    k->files[k->count++] = copy;
    return KILN_OK;
}

/* The face a file name stands for (0..5), or -1: its stem, or the last part of it after "_",
 * "-" or ".", is one of the names below (any case). */
static int face_of_name(const char *name)
{
    static const char *const names[6][3] = {{"px", "posx", "right"}, {"nx", "negx", "left"},
                                            {"py", "posy", "top"},   {"ny", "negy", "bottom"},
                                            {"pz", "posz", "front"}, {"nz", "negz", "back"}};
    char stem[256];
    snprintf(stem, sizeof stem, "%s", name);
    char *dot = strrchr(stem, '.');
    if (dot) *dot = '\0';
    const char *part = stem;
    for (const char *p = stem; *p; p++)
        if (*p == '_' || *p == '-' || *p == '.') part = p + 1;
    for (int f = 0; f < 6; f++)
        for (int v = 0; v < 3; v++) {
            const char *want = names[f][v];
            size_t n = strlen(want), j = 0;
            if (strlen(part) != n) continue;
            while (j < n && (part[j] | 0x20) == want[j]) j++;
            if (j == n) return f;
        }
    return -1;
}

/* A folder reference: its image files, sorted by name (faces: by face). */
static kiln_result add_folder(kiln_ktex *k, const char *dir, const char *rel, bool faces,
                              const char *pointer, kiln_error *err)
{
    char folder_rel[KILN_PATH_MAX];
    snprintf(folder_rel, sizeof folder_rel, "%s", rel);
    size_t len = strlen(folder_rel);
    while (len > 0 && folder_rel[len - 1] == '/') folder_rel[--len] = '\0';
    if (len > 0 && !kiln_path_is_safe_relative(folder_rel))
        return fail(err, pointer, "\"%s\" is not a folder inside the descriptor's folder", rel);
    char path[KILN_PATH_MAX];
    if (!kiln_path_format(path, sizeof path, "%s%s%s", dir, len ? "/" : "", folder_rel))
        return kiln_error_set(err, KILN_E_LIMIT, "path too long: %s/%s", dir, rel);
    size_t n = strlen(path) + 1;
    k->folder = kiln_alloc(&k->allocator, n);
    if (!k->folder) return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for a path");
    memcpy(k->folder, path, n);
    kiln_dir_list l;
    kiln_error e;
    if (kiln_dir_list_read(path, &k->allocator, &l, &e) != KILN_OK)
        return fail(err, pointer, "folder \"%s\" cannot be listed: %s", rel, e.message);
    const char *by_face[6] = {NULL};
    kiln_result r = KILN_OK;
    uint32_t found = 0;
    for (size_t i = 0; i < l.count && r == KILN_OK; i++) {
        const char *name = l.names[i];
        if (name[0] == '.' || !is_image_name(name)) continue;
        char sub[KILN_PATH_MAX];
        if (!kiln_path_format(sub, sizeof sub, "%s%s%s", folder_rel, len ? "/" : "", name)) {
            r = kiln_error_set(err, KILN_E_LIMIT, "path too long: %s", name);
            break;
        }
        found++;
        if (!faces) {
            r = add_file(k, dir, sub, pointer, err);
            continue;
        }
        int f = face_of_name(name);
        if (f < 0) {
            r = fail(err, pointer,
                     "\"%s\" in \"%s\" names no cube face (px, nx, py, ny, pz, nz; posx ...; "
                     "right, left, top, bottom, front, back)",
                     name, rel);
        } else if (by_face[f]) {
            r = fail(err, pointer, "\"%s\" and \"%s\" in \"%s\" both name face %d", by_face[f],
                     name, rel, f);
        } else {
            by_face[f] = l.names[i];
        }
    }
    if (r == KILN_OK && found == 0) r = fail(err, pointer, "folder \"%s\" holds no images", rel);
    for (int f = 0; faces && r == KILN_OK && f < 6; f++) {
        if (!by_face[f]) {
            r = fail(err, pointer, "folder \"%s\" has no image for face %d", rel, f);
            break;
        }
        char sub[KILN_PATH_MAX];
        if (!kiln_path_format(sub, sizeof sub, "%s%s%s", folder_rel, len ? "/" : "", by_face[f]))
            r = kiln_error_set(err, KILN_E_LIMIT, "path too long: %s", by_face[f]);
        else r = add_file(k, dir, sub, pointer, err);
    }
    kiln_dir_list_free(&l);
    return r;
}

static kiln_result parse_list(kiln_ktex *k, const json_t *v, const char *dir, const char *field,
                              kiln_error *err)
{
    char pointer[64];
    snprintf(pointer, sizeof pointer, "/%s", field);
    bool faces = !strcmp(field, "faces");
    if (json_is_string(v)) return add_folder(k, dir, json_string_value(v), faces, pointer, err);
    if (!json_is_array(v) || json_array_size(v) == 0)
        return fail(err, pointer, "%s must be a folder (\"name/\") or a non-empty list of images",
                    field);
    size_t i;
    json_t *e;
    json_array_foreach (v, i, e) {
        snprintf(pointer, sizeof pointer, "/%s/%zu", field, i);
        if (!json_is_string(e)) return fail(err, pointer, "%s[%zu] is not a path", field, i);
        kiln_result r = add_file(k, dir, json_string_value(e), pointer, err);
        if (r != KILN_OK) return r;
    }
    return KILN_OK;
}

static kiln_result uint_field(const json_t *o, const char *name, uint32_t lo, uint32_t hi,
                              bool required, uint32_t *out, kiln_error *err)
{
    char pointer[64];
    snprintf(pointer, sizeof pointer, "/raw/%s", name);
    const json_t *v = json_object_get(o, name);
    if (!v) {
        if (required) return fail(err, pointer, "raw.%s is missing", name);
        return KILN_OK;
    }
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return fail(err, pointer, "raw.%s must be an integer from %u to %u", name, lo, hi);
    *out = (uint32_t)json_integer_value(v);
    return KILN_OK;
}

static kiln_result parse_raw(kiln_ktex *k, const json_t *o, const char *dir, kiln_error *err)
{
    if (!json_is_object(o)) return fail(err, "/raw", "raw must be an object");
    const char *key;
    json_t *v;
    json_object_foreach ((json_t *)o, key, v) {
        static const char *const known[] = {"file",     "width", "height", "depth",
                                            "channels", "type",  "offset"};
        bool ok = false;
        for (size_t i = 0; i < sizeof known / sizeof *known; i++)
            if (!strcmp(key, known[i])) ok = true;
        if (!ok)
            return fail(err, "/raw",
                        "unknown field \"%s\" in raw; allowed: file, width, height, depth, "
                        "channels, type, offset",
                        key);
    }
    const json_t *file = json_object_get(o, "file");
    if (!json_is_string(file)) return fail(err, "/raw/file", "raw.file must be a path");
    kiln_ktex_raw *raw = &k->raw;
    raw->channels = 1;
    raw->type = KILN_PIXEL_U8;
    uint32_t offset = 0;
    kiln_result r;
    if ((r = uint_field(o, "width", 1, 16384, true, &raw->width, err)) ||
        (r = uint_field(o, "height", 1, 16384, true, &raw->height, err)) ||
        (r = uint_field(o, "depth", 1, KILN_KTX2_MAX_DEPTH, true, &raw->depth, err)) ||
        (r = uint_field(o, "channels", 1, 4, false, &raw->channels, err)) ||
        (r = uint_field(o, "offset", 0, UINT32_MAX, false, &offset, err)))
        return r;
    raw->offset = offset;
    const json_t *type = json_object_get(o, "type");
    if (type) {
        const char *t = json_string_value(type);
        if (t && !strcmp(t, "u8")) raw->type = KILN_PIXEL_U8;
        else if (t && !strcmp(t, "u16")) raw->type = KILN_PIXEL_U16;
        else if (t && !strcmp(t, "f32")) raw->type = KILN_PIXEL_F32;
        else return fail(err, "/raw/type", "raw.type must be u8, u16 or f32");
    }
    k->is_raw = true;
    return add_file(k, dir, json_string_value(file), "/raw/file", err);
}

kiln_result kiln_ktex_parse(const uint8_t *source, size_t size, const char *dir,
                            const kiln_allocator *a, kiln_ktex *out, kiln_error *err)
{
    memset(out, 0, sizeof *out);
    if (a) out->allocator = *a;
    json_error_t je;
    json_t *doc = json_loadb((const char *)source, size, JSON_REJECT_DUPLICATES, &je);
    if (!doc)
        return fail(err, NULL, "not a texture descriptor: line %d column %d: %s", je.line,
                    je.column, je.text);
    kiln_result r = KILN_OK;
    if (!json_is_object(doc)) {
        r = fail(err, "", "a texture descriptor is a JSON object");
        goto done;
    }
    static const char *const fields[] = {"faces", "layers", "slices", "raw"};
    static const uint32_t shapes[] = {KILN_TEXTURE_SHAPE_CUBE, KILN_TEXTURE_SHAPE_ARRAY,
                                      KILN_TEXTURE_SHAPE_VOLUME, KILN_TEXTURE_SHAPE_VOLUME};
    const char *key;
    json_t *v;
    int which = -1;
    json_object_foreach (doc, key, v) {
        int f = -1;
        for (int i = 0; i < 4; i++)
            if (!strcmp(key, fields[i])) f = i;
        if (f < 0 && key[0] == '$') continue; /* "$schema", "$comment" */
        if (f < 0) {
            r = fail(err, "", "unknown field \"%s\"; allowed: faces, layers, slices or raw", key);
            goto done;
        }
        if (which >= 0) {
            r = fail(err, "",
                     "%s and %s: a descriptor has exactly one of faces, layers, slices, "
                     "raw",
                     fields[which], key);
            goto done;
        }
        which = f;
    }
    if (which < 0) {
        r = fail(err, "", "a descriptor needs one of faces, layers, slices or raw");
        goto done;
    }
    out->files = kiln_calloc(&out->allocator, KILN_KTEX_MAX_IMAGES, sizeof *out->files);
    if (!out->files) {
        r = kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for the file list");
        goto done;
    }
    out->shape = shapes[which];
    json_t *value = json_object_get(doc, fields[which]);
    r = which == 3 ? parse_raw(out, value, dir, err)
                   : parse_list(out, value, dir, fields[which], err);
    if (r == KILN_OK && out->shape == KILN_TEXTURE_SHAPE_CUBE && out->count != 6)
        r = fail(err, "/faces", "a cube has 6 faces (+X, -X, +Y, -Y, +Z, -Z), not %u", out->count);
done:
    json_decref(doc);
    if (r != KILN_OK) kiln_ktex_free(out);
    return r;
}

kiln_result kiln_ktex_raw_images(const kiln_ktex_raw *raw, const uint8_t *bytes, size_t size,
                                 const kiln_allocator *a, kiln_image *images, kiln_error *err)
{
    size_t cs = kiln_pixel_type_size(raw->type);
    size_t texels = (size_t)raw->width * raw->height;
    uint64_t need = (uint64_t)texels * raw->channels * cs * raw->depth;
    uint64_t decoded = (uint64_t)texels * 4 * cs * raw->depth;
    if (decoded > (1ull << 30))
        return kiln_error_set(err, KILN_E_LIMIT,
                              "raw volume %ux%ux%u decodes to %llu bytes, more than 1 GiB",
                              raw->width, raw->height, raw->depth, (unsigned long long)decoded);
    if (raw->offset > size || need > size - raw->offset)
        return fail(err, "/raw",
                    "the raw file has %zu bytes; offset %llu + %ux%ux%u texels of %u x %zu bytes "
                    "need %llu",
                    size, (unsigned long long)raw->offset, raw->width, raw->height, raw->depth,
                    raw->channels, cs, (unsigned long long)(raw->offset + need));
    memset(images, 0, (size_t)raw->depth * sizeof *images);
    const uint8_t *p = bytes + raw->offset;
    size_t slice_in = texels * raw->channels * cs;
    for (uint32_t z = 0; z < raw->depth; z++) {
        kiln_image *img = &images[z];
        img->width = raw->width;
        img->height = raw->height;
        img->type = raw->type;
        img->size = texels * 4 * cs;
        img->format = KILN_IMAGE_UNKNOWN;
        img->source_channels = raw->channels;
        img->source_bits = (uint32_t)(8 * cs);
        if (a) img->allocator = *a;
        img->pixels = kiln_alloc(&img->allocator, img->size);
        if (!img->pixels) {
            for (uint32_t j = 0; j <= z; j++) kiln_image_free(&images[j]);
            return kiln_error_set(err, KILN_E_OUT_OF_MEMORY, "out of memory for slice %u", z);
        }
        const uint8_t *src = p + (size_t)z * slice_in;
        for (size_t t = 0; t < texels; t++) {
            float f[4] = {0, 0, 0, 1};
            uint32_t u[4] = {0, 0, 0, raw->type == KILN_PIXEL_U8 ? 255u : 65535u};
            for (uint32_t c = 0; c < raw->channels; c++) {
                const uint8_t *s = src + (t * raw->channels + c) * cs;
                if (raw->type == KILN_PIXEL_U8) u[c] = s[0];
                else if (raw->type == KILN_PIXEL_U16) u[c] = kiln_load_u16le(s);
                else {
                    uint32_t bits = kiln_load_u32le(s);
                    memcpy(&f[c], &bits, 4);
                }
            }
            if (raw->channels == 1) { /* grey, as image decoders expand it */
                u[1] = u[2] = u[0];
                f[1] = f[2] = f[0];
            }
            for (int c = 0; c < 4; c++) {
                if (raw->type == KILN_PIXEL_U8) ((uint8_t *)img->pixels)[t * 4 + c] = (uint8_t)u[c];
                else if (raw->type == KILN_PIXEL_U16)
                    ((uint16_t *)img->pixels)[t * 4 + c] = (uint16_t)u[c];
                else ((float *)img->pixels)[t * 4 + c] = f[c];
            }
            if (u[3] != (raw->type == KILN_PIXEL_U8 ? 255u : 65535u) ||
                (raw->type == KILN_PIXEL_F32 && !(f[3] >= 1.0f)))
                img->has_alpha = raw->channels == 4;
        }
    }
    return KILN_OK;
}
