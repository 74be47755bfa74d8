/* cooked_fixture.c — see cooked_fixture.h. The glTF is written here as text with its buffer as
 * a base64 data URI, so the fixture needs no file and goes through the real importer. */
#include "cooked_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "process/material.h"
#include "process/scene_cook.h"
#include "write/material_write.h"
#include "write/scene_write.h"

static const char json_fmt[] =
    "{\"asset\":{\"version\":\"2.0\",\"generator\":\"kiln tests/cooked_formats\"},"
    "\"extensionsUsed\":[\"KHR_texture_transform\",\"KHR_materials_emissive_strength\","
    "\"KHR_materials_unlit\",\"KHR_lights_punctual\"],"
    "\"buffers\":[{\"byteLength\":120,\"uri\":\"data:application/octet-stream;base64,%s\"}],"
    "\"bufferViews\":["
    "{\"buffer\":0,\"byteOffset\":0,\"byteLength\":36},"
    "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":6},"
    "{\"buffer\":0,\"byteOffset\":44,\"byteLength\":36},"
    "{\"buffer\":0,\"byteOffset\":80,\"byteLength\":8},"
    "{\"buffer\":0,\"byteOffset\":88,\"byteLength\":8},"
    "{\"buffer\":0,\"byteOffset\":96,\"byteLength\":24}],"
    "\"accessors\":["
    "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
    "{\"bufferView\":1,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"
    "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
    "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
    "{\"bufferView\":5,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
    "\"images\":[{\"bufferView\":3,\"mimeType\":\"image/png\",\"name\":\"checker\"}],"
    "\"samplers\":[{\"magFilter\":9729,\"minFilter\":9987,\"wrapS\":33071,\"wrapT\":33648},"
    "{\"magFilter\":9728,\"minFilter\":9728}],"
    "\"textures\":[{\"source\":0,\"sampler\":0},{\"source\":0,\"sampler\":1},{\"source\":0}],"
    "\"materials\":["
    "{\"name\":\"painted\",\"pbrMetallicRoughness\":{\"baseColorFactor\":[0.8,0.6,0.4,0.5],"
    "\"metallicFactor\":0.25,\"roughnessFactor\":0.75,"
    "\"baseColorTexture\":{\"index\":0,\"texCoord\":1,\"extensions\":{\"KHR_texture_transform\":"
    "{\"offset\":[0.5,0.25],\"rotation\":1.5707964,\"scale\":[2,3]}}},"
    "\"metallicRoughnessTexture\":{\"index\":1}},"
    "\"normalTexture\":{\"index\":2,\"scale\":0.5},"
    "\"occlusionTexture\":{\"index\":1,\"strength\":0.7},"
    "\"emissiveTexture\":{\"index\":0},\"emissiveFactor\":[1,0.5,0],"
    "\"extensions\":{\"KHR_materials_emissive_strength\":{\"emissiveStrength\":5}},"
    "\"alphaMode\":\"MASK\",\"alphaCutoff\":0.3,\"doubleSided\":true},"
    "{\"name\":\"flat\",\"alphaMode\":\"BLEND\",\"extensions\":{\"KHR_materials_unlit\":{}}}],"
    "\"meshes\":["
    "{\"name\":\"tri\",\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1,\"material\":0,"
    "\"targets\":[{\"POSITION\":2}]},{\"attributes\":{\"POSITION\":0},\"material\":1,"
    "\"targets\":[{\"POSITION\":2}]}],\"weights\":[0.25]},"
    "{\"name\":\"tri2\",\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
    "\"skins\":[{\"name\":\"rig\",\"joints\":[3]}],"
    "\"cameras\":[{\"name\":\"eye\",\"type\":\"perspective\",\"perspective\":{\"yfov\":0.8,"
    "\"znear\":0.1,\"zfar\":100,\"aspectRatio\":1.5}},"
    "{\"type\":\"orthographic\",\"orthographic\":{\"xmag\":2,\"ymag\":1,\"znear\":0.01,\"zfar\":50}}],"
    "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":["
    "{\"name\":\"lamp\",\"type\":\"spot\",\"color\":[1,0.5,0.25],\"intensity\":10,\"range\":20,"
    "\"spot\":{\"innerConeAngle\":0.2,\"outerConeAngle\":0.6}},{\"type\":\"directional\"}]}},"
    "\"nodes\":["
    "{\"name\":\"root_a\",\"children\":[1,2],\"translation\":[1,2,3]},"
    "{\"name\":\"child_mesh\",\"mesh\":0,\"rotation\":[0,0.70710677,0,0.70710677],\"weights\":[0.75]},"
    "{\"name\":\"child_cam\",\"camera\":0,\"children\":[3]},"
    "{\"name\":\"grandchild\",\"mesh\":0,\"skin\":0,\"scale\":[2,2,2]},"
    "{\"name\":\"root_b\",\"matrix\":[1,0,0,0, 0,1,0,0, 0,0,1,0, 4,5,6,1],"
    "\"extensions\":{\"KHR_lights_punctual\":{\"light\":0}},\"children\":[5]},"
    "{\"name\":\"leaf\",\"mesh\":1,\"camera\":1,\"extensions\":{\"KHR_lights_punctual\":{\"light\":1}}},"
    "{\"name\":\"unused\"}],"
    "\"animations\":["
    "{\"name\":\"slide\",\"samplers\":[{\"input\":3,\"output\":4}],"
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}}]},"
    "{\"name\":\"hop\",\"samplers\":[{\"input\":3,\"output\":4,\"interpolation\":\"STEP\"}],"
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":5,\"path\":\"translation\"}}]}],"
    "\"scenes\":[{\"name\":\"demo\",\"nodes\":[%s]}],\"scene\":0}";

static void put_f32(uint8_t *b, size_t at, float v) { memcpy(b + at, &v, 4); }

static char *base64(const uint8_t *p, size_t n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(4 * ((n + 2) / 3) + 1), *o = out;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0) |
                     (i + 2 < n ? p[i + 2] : 0);
        *o++ = abc[v >> 18 & 63];
        *o++ = abc[v >> 12 & 63];
        *o++ = i + 1 < n ? abc[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? abc[v & 63] : '=';
    }
    *o = 0;
    return out;
}

kiln_scene *kt_fixture_scene(bool single_root)
{
    uint8_t buf[120];
    memset(buf, 0, sizeof buf);
    put_f32(buf, 12, 1.0f); /* positions (0,0,0) (1,0,0) (0,1,0) */
    put_f32(buf, 28, 1.0f);
    buf[38] = 1, buf[40] = 2;   /* indices 0 1 2 */
    put_f32(buf, 44 + 8, 1.0f); /* target: each vertex up by 1 in z */
    put_f32(buf, 44 + 20, 1.0f);
    put_f32(buf, 44 + 32, 1.0f);
    memcpy(buf + 80, "\x89PNG\r\n\x1a\n", 8); /* never decoded (no pixels) */
    put_f32(buf, 92, 1.0f);                   /* times 0 1 */
    put_f32(buf, 96 + 12, 2.0f);              /* translations (0,0,0) (2,0,0) */
    char *b64 = base64(buf, sizeof buf);
    size_t cap = sizeof json_fmt + strlen(b64) + 16;
    char *json = malloc(cap);
    int n = snprintf(json, cap, json_fmt, b64, single_root ? "0" : "0,4");
    free(b64);
    kiln_scene_opts opts = {0};
    opts.flags = KILN_SCENE_LOAD_NO_PIXELS;
    kiln_scene *scene = NULL;
    kiln_error err;
    if (kiln_scene_load_memory(json, (size_t)n, NULL, &opts, &scene, &err) != KILN_OK) {
        fprintf(stderr, "fixture: %s (%s)\n", err.message, err.json_pointer);
        scene = NULL;
    }
    free(json);
    return scene;
}

void kt_fixture_image_ids(uint32_t material, uint64_t ids[KILN_SCENE_SLOT_COUNT])
{
    static const char *const labels[5] = {"image0", "image0/metallic_roughness", "image0/normal",
                                          "image0/occlusion", "image0"};
    for (int s = 0; s < KILN_SCENE_SLOT_COUNT; s++)
        ids[s] = material == 0 && s < 5 ? kiln_asset_id(KT_FIXTURE_GUID, labels[s]) : 0;
}

uint8_t *kt_fixture_material_bytes(int32_t material, size_t *size)
{
    kiln_scene *scene = kt_fixture_scene(false);
    if (!scene) return NULL;
    uint64_t ids[KILN_SCENE_SLOT_COUNT];
    kt_fixture_image_ids(material < 0 ? 99 : (uint32_t)material, ids);
    kiln_cooked_material m;
    kiln_error err;
    uint8_t *bytes = NULL;
    if (kiln_material_build(scene, material, ids, &m, &err) != KILN_OK ||
        kiln_material_write(&m, NULL, &bytes, size, &err) != KILN_OK) {
        fprintf(stderr, "fixture material: %s\n", err.message);
        bytes = NULL;
    }
    kiln_scene_free(scene);
    return bytes;
}

uint8_t *kt_fixture_scene_bytes(bool single_root, size_t *size)
{
    kiln_scene *scene = kt_fixture_scene(single_root);
    if (!scene) return NULL;
    kiln_cooked_scene_ids ids = {0};
    ids.guid = KT_FIXTURE_GUID;
    kiln_cooked_scene s;
    kiln_error err;
    uint8_t *bytes = NULL;
    if (kiln_cooked_scene_build(scene, &ids, NULL, &s, &err) != KILN_OK ||
        kiln_cooked_scene_write(&s, NULL, &bytes, size, &err) != KILN_OK) {
        fprintf(stderr, "fixture scene: %s\n", err.message);
        bytes = NULL;
    }
    kiln_cooked_scene_free(&s);
    kiln_scene_free(scene);
    return bytes;
}
