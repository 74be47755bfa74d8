/* model_check.h — what the model tests share: cooking a model with kiln_convert_model, reading
 * every artifact it wrote back through the public readers, and checking the whole against the
 * source scene (ids, references, summary, scene order, skins, clips, levels of detail). */
#ifndef KILN_TEST_MODEL_CHECK_H
#define KILN_TEST_MODEL_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln.h"
#include "kiln/kiln_format.h"
#include "kiln/kiln_scene.h"

/* True when the tests run under the sanitizers (KILN_TEST_SANITIZED=1): fewer, smaller models. */
bool mc_sanitized(void);

/* Every .gltf/.glb of the corpus's gltf folder except the deliberately broken ones, sorted;
 * malloc'd paths (free each, then the array). *count 0 when the corpus is absent. */
char **mc_corpus_models(size_t *count);

/* The gltf corpus folder + rel, malloc'd; NULL when the corpus is absent. */
char *mc_corpus(const char *rel);

/* kiln_convert_model(in, out_dir) with jobs threads and the given --set assignments: the parsed
 * result document (json_decref it), or NULL with *code and *err set. */
json_t *mc_convert(const char *in, const char *out_dir, unsigned jobs, const char *const *sets,
                   size_t set_count, kiln_result *code, kiln_error *err);

/* One artifact as written: the file's bytes (malloc'd). */
typedef struct mc_artifact {
    char label[64], file[64], kind[16];
    uint64_t id;
    uint8_t *bytes;
    size_t size;
} mc_artifact;

typedef struct mc_model {
    json_t *doc;     /* the convert's document (owned) */
    json_t *summary; /* borrowed from doc */
    char guid[33];
    mc_artifact *items;
    size_t count;
} mc_model;

/* Reads every artifact doc lists from out_dir (failing the test when one is missing or its size
 * differs) and checks that the folder holds nothing else. Takes doc. */
void mc_load(mc_model *m, const char *out_dir, json_t *doc);
void mc_free(mc_model *m);
const mc_artifact *mc_find(const mc_model *m, const char *label);
bool mc_has_id(const mc_model *m, uint64_t id);
const mc_artifact *mc_find_id(const mc_model *m, uint64_t id); /* NULL when none has the id */

/* What mc_check saw, for the claims a test makes about the whole corpus. */
typedef struct mc_stats {
    size_t meshes, levels, meshes_with_lods, skinned_prims, skinned_vertices_checked;
    size_t skeletons, skeletons_reordered, clips, tracks, keys, images, materials, nodes;
    size_t mesh_copies; /* primitives of further copies of skinned meshes */
} mc_stats;

/* Every artifact through its reader (meshes decoded at every level; KTX2 images read), every id
 * an artifact names is one of the artifacts, the summary agrees with the files, and against the
 * source scene (loaded here from `source`): scene nodes parent-before-child and the source's
 * hierarchy, primitive ids per node, material and image ids, skinned joint indices (through the
 * skeleton's joint -> skin map) equal to the source's at the same position, clip tracks and key
 * counts, LOD triangle counts decreasing; every node drawing a skinned mesh draws a copy whose
 * joint indices, through that node's own skeleton, are the source's; every further copy
 * ("mesh<i>/prim<p>/skin<s>") is drawn and differs from the first copy in its joints.
 * textures: the cook ran with model.textures true (then every textured slot of the source names
 * an image artifact of the slot's role). Adds to
 * *stats when not NULL. */
void mc_check(const mc_model *m, const char *source, bool textures, mc_stats *stats);

/* Shell helpers: copy a folder tree (writable copy), and compare two trees byte for byte
 * (diff -r; the difference is printed). */
void mc_copy_tree(const char *from, const char *to);
bool mc_trees_equal(const char *a, const char *b);
/* Sets every file's mtime under dir `seconds` into the past (the stat shortcut trusts them). */
void mc_age_tree(const char *dir, int seconds);
/* Inverts the byte at offset of a file in place (size unchanged). */
void mc_flip_byte(const char *path, size_t offset);

#endif
