/* cooked_fixture.h — the small hand-written model behind the cooked-format tests, the CLI case
 * and the fuzz seeds: two materials (every slot, sampler, transform and flag), two meshes (one
 * drawn twice, with morph weights), a skin, two cameras, two lights, two animations and a
 * scene of two roots (so a synthetic root) over seven nodes, one of them unreachable.
 *
 * Source nodes (scene "demo", roots 0 and 4):      cooked order (depth-first pre-order):
 *   0 root_a   children 1, 2; translation 1 2 3       0 demo (synthetic)   subtree end 7
 *   1 child_mesh  mesh 0, own weights 0.75            1 root_a             5
 *   2 child_cam   camera 0, children 3                2 child_mesh         3
 *   3 grandchild  mesh 0 (mesh weights 0.25), skin 0  3 child_cam          5
 *   4 root_b   matrix, light 0, children 5            4 grandchild         5
 *   5 leaf     mesh 1, camera 1, light 1              5 root_b             7
 *   6 unused   (in no scene)                          6 leaf               7 */
#ifndef KILN_TESTS_COOKED_FIXTURE_H
#define KILN_TESTS_COOKED_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_scene.h"

#define KT_FIXTURE_GUID "00112233445566778899aabbccddeeff"

/* The fixture loaded through kiln_scene_load_memory (without pixels); single_root keeps only
 * root 0 in the scene. NULL (with a message on stderr) on failure. */
kiln_scene *kt_fixture_scene(bool single_root);

/* The image ids the fixture's pipeline would give material m's slots ("image0", and
 * "image0/<role>" for the roles after the first), or all 0 for other materials. */
void kt_fixture_image_ids(uint32_t material, uint64_t ids[KILN_SCENE_SLOT_COUNT]);

/* Cooked bytes of the fixture: material `material` (or -1, the default) and the scene, with
 * kiln_asset_id(KT_FIXTURE_GUID, label) ids. malloc'd (libc allocator); NULL on failure. */
uint8_t *kt_fixture_material_bytes(int32_t material, size_t *size);
uint8_t *kt_fixture_scene_bytes(bool single_root, size_t *size);

#endif
