/* scene_compare.h — checks over kiln scenes shared by the glTF tests: structural invariants and
 * equality of two scenes (what a .gltf and its .glb must share). */
#ifndef KILN_TEST_SCENE_COMPARE_H
#define KILN_TEST_SCENE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "kiln/kiln_scene.h"

/* Every index in range, triangle lists whole, finite positions, weights summing to 1, parents
 * and children agreeing. Fails the cmocka test with a message naming the first violation. */
void ks_check_invariants(const kiln_scene *s, const char *label);

/* Compares two scenes member by member: counts, names, materials, vertex streams (floats
 * within tol), indices, nodes, skins, animations. Image sources may differ (file, data URI,
 * buffer view), so images compare by their encoded bytes, else by
 * their decoded pixels. Returns false and prints the first
 * difference into why (size why_size). */
bool ks_scenes_equal(const kiln_scene *a, const kiln_scene *b, float tol, char *why,
                     size_t why_size);

#endif
