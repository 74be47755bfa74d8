/* test_draco_corpus.c — kiln_draco_decode on the KHR_draco_mesh_compression bufferViews of the
 * corpus's glTF-Draco samples (Box, CesiumMan, RiggedSimple, RiggedFigure, MorphPrimitivesTest),
 * found by reading each .gltf with jansson: vertex and index counts equal the accessors' counts,
 * every index is in range, every value lies within its accessor's min/max (widened by a
 * quantization step), and Box's vertices (position with normal) and triangles are those of the
 * uncompressed Box/glTF. Then the Box
 * and CesiumMan streams cut at every length and with flipped bytes: always an error code or a
 * valid mesh. Skips (77) when the corpus is absent. */
#include "support.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/draco.h"

static const char *const models[] = {"Box", "CesiumMan", "RiggedSimple", "RiggedFigure",
                                     "MorphPrimitivesTest"};

/* One loaded sample: its JSON and its (only) buffer. */
typedef struct sample {
    json_t *root;
    uint8_t *bin;
    size_t bin_size;
} sample;

static void load(const char *model, const char *variant, sample *s)
{
    char *rel = kt_format("gltf/%s/%s/%s.gltf", model, variant, model);
    char *path = kt_corpus_path(rel);
    assert_non_null(path);
    json_error_t je;
    s->root = json_load_file(path, 0, &je);
    if (!s->root) fail_msg("%s: %s", path, je.text);
    json_t *buffers = json_object_get(s->root, "buffers");
    assert_int_equal(json_array_size(buffers), 1);
    const char *uri = json_string_value(json_object_get(json_array_get(buffers, 0), "uri"));
    assert_non_null(uri);
    *strrchr(path, '/') = '\0';
    char *bin = kt_format("%s/%s", path, uri);
    s->bin = kt_read_file(bin, &s->bin_size);
    if (!s->bin) fail_msg("cannot read %s", bin);
    free(bin);
    free(path);
    free(rel);
}

static void unload(sample *s)
{
    json_decref(s->root);
    free(s->bin);
}

static json_t *at(json_t *root, const char *array, json_t *index)
{
    json_t *v = json_array_get(json_object_get(root, array), (size_t)json_integer_value(index));
    assert_non_null(v);
    return v;
}

/* The bytes of bufferView i. */
static const uint8_t *view(const sample *s, json_t *index, size_t *size)
{
    json_t *bv = at(s->root, "bufferViews", index);
    size_t off = (size_t)json_integer_value(json_object_get(bv, "byteOffset"));
    *size = (size_t)json_integer_value(json_object_get(bv, "byteLength"));
    assert_true(off <= s->bin_size && *size <= s->bin_size - off);
    return s->bin + off;
}

static uint32_t type_components(const char *type)
{
    if (strcmp(type, "SCALAR") == 0) return 1;
    if (strcmp(type, "VEC2") == 0) return 2;
    if (strcmp(type, "VEC3") == 0) return 3;
    if (strcmp(type, "VEC4") == 0) return 4;
    fail_msg("unexpected accessor type %s", type);
    return 0;
}

static void check_valid(const kiln_draco_mesh *m)
{
    assert_int_equal(m->index_count % 3, 0);
    for (uint32_t i = 0; i < m->index_count; i++)
        if (m->indices[i] >= m->vertex_count)
            fail_msg("index %u is %u of %u vertices", i, m->indices[i], m->vertex_count);
    for (uint32_t a = 0; a < m->attribute_count; a++) {
        assert_in_range(m->attributes[a].components, 1, 4);
        assert_int_equal(m->attributes[a].values_size,
                         (size_t)m->vertex_count * m->attributes[a].components * 4);
    }
}

/* Decodes every Draco primitive of the sample and checks it against the accessors. Returns the
 * number of primitives. */
static int check_model(const char *model)
{
    sample s;
    load(model, "glTF-Draco", &s);
    int prims = 0;
    size_t mi;
    json_t *mesh;
    json_array_foreach (json_object_get(s.root, "meshes"), mi, mesh) {
        size_t pi;
        json_t *prim;
        json_array_foreach (json_object_get(mesh, "primitives"), pi, prim) {
            json_t *ext =
                json_object_get(json_object_get(prim, "extensions"), "KHR_draco_mesh_compression");
            if (!ext) continue;
            size_t size;
            const uint8_t *data = view(&s, json_object_get(ext, "bufferView"), &size);
            kiln_draco_mesh m;
            kiln_error err;
            kiln_result r = kiln_draco_decode(data, size, NULL, 0, &m, &err);
            if (r != KILN_OK) fail_msg("%s mesh %zu primitive %zu: %s", model, mi, pi, err.message);
            check_valid(&m);
            json_t *ia = at(s.root, "accessors", json_object_get(prim, "indices"));
            assert_int_equal(m.index_count, json_integer_value(json_object_get(ia, "count")));
            const char *name;
            json_t *id;
            json_object_foreach (json_object_get(ext, "attributes"), name, id) {
                json_t *acc = at(s.root, "accessors",
                                 json_object_get(json_object_get(prim, "attributes"), name));
                const kiln_draco_attribute *a =
                    kiln_draco_find_attribute(&m, (uint32_t)json_integer_value(id));
                if (!a)
                    fail_msg("%s: no Draco attribute %lld for %s", model,
                             (long long)json_integer_value(id), name);
                assert_int_equal(m.vertex_count, json_integer_value(json_object_get(acc, "count")));
                uint32_t comps = type_components(json_string_value(json_object_get(acc, "type")));
                assert_int_equal(a->components, comps);
                json_t *mn = json_object_get(acc, "min"), *mx = json_object_get(acc, "max");
                double worst = 0;
                if (mn && mx) {
                    for (uint32_t c = 0; c < comps; c++) {
                        double lo = json_number_value(json_array_get(mn, c));
                        double hi = json_number_value(json_array_get(mx, c));
                        /* The exporters widened min/max by the quantization already; allow one
                         * more 12-bit step of the range for rounding. */
                        double tol = 1e-6 + (hi - lo) / 4095.0;
                        for (uint32_t v = 0; v < m.vertex_count; v++) {
                            double x = a->values[(size_t)v * comps + c];
                            if (x < lo - tol || x > hi + tol)
                                fail_msg("%s %s vertex %u component %u: %g outside [%g, %g]", model,
                                         name, v, c, x, lo, hi);
                            worst = fmax(worst, fmax(lo - x, x - hi));
                        }
                    }
                }
                print_message("%s mesh %zu prim %zu %-10s %5u x %u  worst excess over min/max "
                              "%.2g\n",
                              model, mi, pi, name, m.vertex_count, comps, worst);
            }
            kiln_draco_mesh_free(NULL, &m);
            prims++;
        }
    }
    unload(&s);
    return prims;
}

static void draco_corpus_samples_match_their_accessors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        assert_true(check_model(models[i]) > 0);
}

/* The first Draco primitive's stream of a sample (malloc'd copy). */
static uint8_t *first_stream(const char *model, size_t *size)
{
    sample s;
    load(model, "glTF-Draco", &s);
    json_t *prim = json_array_get(
        json_object_get(json_array_get(json_object_get(s.root, "meshes"), 0), "primitives"), 0);
    json_t *ext =
        json_object_get(json_object_get(prim, "extensions"), "KHR_draco_mesh_compression");
    assert_non_null(ext);
    const uint8_t *data = view(&s, json_object_get(ext, "bufferView"), size);
    uint8_t *copy = malloc(*size);
    assert_non_null(copy);
    memcpy(copy, data, *size);
    unload(&s);
    return copy;
}

/* The float values of an accessor (tightly packed, no sparse), malloc'd. */
static float *read_floats(const sample *s, json_t *acc, uint32_t comps, size_t *count)
{
    assert_int_equal(json_integer_value(json_object_get(acc, "componentType")), 5126);
    size_t vsize;
    const uint8_t *v = view(s, json_object_get(acc, "bufferView"), &vsize);
    size_t off = (size_t)json_integer_value(json_object_get(acc, "byteOffset"));
    *count = (size_t)json_integer_value(json_object_get(acc, "count"));
    size_t bytes = *count * comps * 4;
    assert_true(off <= vsize && bytes <= vsize - off);
    float *out = malloc(bytes);
    assert_non_null(out);
    memcpy(out, v + off, bytes);
    return out;
}

/* The unsigned short indices of an accessor, as uint32, malloc'd. */
static uint32_t *read_indices(const sample *s, json_t *acc, size_t *count)
{
    assert_int_equal(json_integer_value(json_object_get(acc, "componentType")), 5123);
    size_t vsize;
    const uint8_t *v = view(s, json_object_get(acc, "bufferView"), &vsize);
    size_t off = (size_t)json_integer_value(json_object_get(acc, "byteOffset"));
    *count = (size_t)json_integer_value(json_object_get(acc, "count"));
    assert_true(off <= vsize && *count * 2 <= vsize - off);
    uint32_t *out = malloc(*count * 4);
    assert_non_null(out);
    for (size_t i = 0; i < *count; i++) out[i] = v[off + 2 * i] | (uint32_t)v[off + 2 * i + 1] << 8;
    return out;
}

static int near3(const float *a, const float *b, float tol)
{
    return fabsf(a[0] - b[0]) <= tol && fabsf(a[1] - b[1]) <= tol && fabsf(a[2] - b[2]) <= tol;
}

/* Box/glTF-Draco against Box/glTF: every decoded vertex is a (position, normal) pair of the plain
 * box — so Draco's point-to-value mapping kept each position with its normal — and every decoded
 * triangle is one of the plain box's, up to rotation of its corners. */
static void draco_box_equals_the_uncompressed_box(void **state)
{
    (void)state;
    sample plain;
    load("Box", "glTF", &plain);
    json_t *prim = json_array_get(
        json_object_get(json_array_get(json_object_get(plain.root, "meshes"), 0), "primitives"), 0);
    json_t *attrs = json_object_get(prim, "attributes");
    size_t count, ncount, icount;
    float *pos = read_floats(
        &plain, at(plain.root, "accessors", json_object_get(attrs, "POSITION")), 3, &count);
    float *nrm = read_floats(&plain, at(plain.root, "accessors", json_object_get(attrs, "NORMAL")),
                             3, &ncount);
    uint32_t *idx = read_indices(
        &plain, at(plain.root, "accessors", json_object_get(prim, "indices")), &icount);
    assert_int_equal(count, ncount);

    sample dr;
    load("Box", "glTF-Draco", &dr);
    json_t *dprim = json_array_get(
        json_object_get(json_array_get(json_object_get(dr.root, "meshes"), 0), "primitives"), 0);
    json_t *ext =
        json_object_get(json_object_get(dprim, "extensions"), "KHR_draco_mesh_compression");
    json_t *ids = json_object_get(ext, "attributes");
    size_t size;
    const uint8_t *data = view(&dr, json_object_get(ext, "bufferView"), &size);
    kiln_draco_mesh m;
    kiln_error err;
    assert_int_equal(kiln_draco_decode(data, size, NULL, 0, &m, &err), KILN_OK);
    const kiln_draco_attribute *p = kiln_draco_find_attribute(
        &m, (uint32_t)json_integer_value(json_object_get(ids, "POSITION")));
    const kiln_draco_attribute *n =
        kiln_draco_find_attribute(&m, (uint32_t)json_integer_value(json_object_get(ids, "NORMAL")));
    assert_non_null(p);
    assert_non_null(n);
    assert_int_equal(m.vertex_count, count);
    assert_int_equal(m.index_count, icount);
    /* The box spans 1 unit, quantized to 11 bits or more; octahedral normals to 8 or more. */
    const float ptol = 1.0f / 2047.0f, ntol = 2.0f / 255.0f;
    for (uint32_t i = 0; i < m.vertex_count; i++) {
        const float *dp = p->values + (size_t)i * 3, *dn = n->values + (size_t)i * 3;
        int found = 0;
        for (size_t k = 0; k < count && !found; k++)
            found = near3(dp, pos + k * 3, ptol) && near3(dn, nrm + k * 3, ntol);
        if (!found)
            fail_msg("decoded vertex %u (%g %g %g / %g %g %g) is none of Box's", i, dp[0], dp[1],
                     dp[2], dn[0], dn[1], dn[2]);
    }
    for (uint32_t t = 0; t < m.index_count; t += 3) {
        int found = 0;
        for (size_t s = 0; s < icount && !found; s += 3) {
            for (int rot = 0; rot < 3 && !found; rot++) {
                found = 1;
                for (int c = 0; c < 3 && found; c++)
                    found = near3(p->values + (size_t)m.indices[t + c] * 3,
                                  pos + (size_t)idx[s + (c + rot) % 3] * 3, ptol) &&
                            near3(n->values + (size_t)m.indices[t + c] * 3,
                                  nrm + (size_t)idx[s + (c + rot) % 3] * 3, ntol);
            }
        }
        if (!found) fail_msg("decoded triangle %u is none of Box's", t / 3);
    }
    kiln_draco_mesh_free(NULL, &m);
    free(idx);
    free(nrm);
    free(pos);
    unload(&dr);
    unload(&plain);
}

/* Decodes an exact-size copy (ASan sees reads past the end): an error or a valid mesh. */
static int decode_any(const uint8_t *data, size_t size)
{
    uint8_t *copy = malloc(size ? size : 1);
    assert_non_null(copy);
    if (size) memcpy(copy, data, size);
    kiln_draco_mesh m;
    kiln_error err;
    kiln_result r = kiln_draco_decode(copy, size, NULL, 64 << 20, &m, &err);
    free(copy);
    if (r == KILN_OK) {
        check_valid(&m);
        kiln_draco_mesh_free(NULL, &m);
        return 1;
    }
    if (r != KILN_E_IMPORT_FAILED && r != KILN_E_LIMIT && r != KILN_E_OUT_OF_MEMORY)
        fail_msg("unexpected %s: %s", kiln_result_name(r), err.message);
    assert_null(m.indices);
    return 0;
}

static void draco_corpus_streams_cut_at_every_length_fail_cleanly(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        size_t size;
        uint8_t *d = first_stream(k ? "CesiumMan" : "Box", &size);
        size_t decoded = 0;
        /* Every length of Box (118 bytes); of CesiumMan (48 KB), the first 256 and then every
         * 397th, so the sanitizer builds stay quick. */
        for (size_t n = 0; n < size; n += (k && n >= 256) ? 397 : 1)
            decoded += (size_t)decode_any(d, n);
        print_message("%s: %zu bytes, %zu of its truncations still decode\n",
                      k ? "CesiumMan" : "Box", size, decoded);
        assert_int_equal(decode_any(d, size), 1);
        free(d);
    }
}

static void draco_corpus_streams_with_flipped_bytes_fail_cleanly(void **state)
{
    (void)state;
    static const uint8_t masks[] = {0x01, 0x04, 0x20, 0x80, 0xff};
    for (int k = 0; k < 2; k++) {
        size_t size;
        uint8_t *d = first_stream(k ? "CesiumMan" : "Box", &size);
        uint8_t *f = malloc(size);
        assert_non_null(f);
        size_t decoded = 0, tries = 0;
        /* Every byte of Box with each mask; of CesiumMan, every 997th byte. */
        for (size_t i = 0; i < size; i += k ? 997 : 1) {
            for (size_t j = 0; j < sizeof masks; j++) {
                memcpy(f, d, size);
                f[i] ^= masks[j];
                decoded += (size_t)decode_any(f, size);
                tries++;
            }
        }
        uint32_t seed = 2024;
        for (int round = 0; round < (k ? 100 : 3000); round++) {
            memcpy(f, d, size);
            for (int b = 0; b < 6; b++) {
                seed = seed * 1664525u + 1013904223u;
                f[(seed >> 8) % size] ^= (uint8_t)(1u << ((seed >> 4) & 7));
            }
            decoded += (size_t)decode_any(f, size);
            tries++;
        }
        print_message("%s: %zu of %zu damaged streams still decode\n", k ? "CesiumMan" : "Box",
                      decoded, tries);
        free(f);
        free(d);
    }
}

int main(void)
{
    kt_require_corpus();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(draco_corpus_samples_match_their_accessors),
        cmocka_unit_test(draco_box_equals_the_uncompressed_box),
        cmocka_unit_test(draco_corpus_streams_cut_at_every_length_fail_cleanly),
        cmocka_unit_test(draco_corpus_streams_with_flipped_bytes_fail_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
