/* rt_type_data.h — what a loaded asset holds of its type: one struct per built-in type (the
 * cooked kind's view, the public krt_*_data record, the blocks decode allocated), one for the
 * types a program registers, and their union, which krt_asset holds and a hot reload swaps
 * member by member (krt_type_ops.swap). Only a type's own file reads its member. */
#ifndef KILN_RT_TYPE_DATA_H
#define KILN_RT_TYPE_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_rt.h"

typedef struct krt_texture_decoded {
    kiln_ktx2_info view;
    krt_texture_data data;
    uint8_t *level_block; /* every supercompressed level, decoded, one after another */
    size_t level_block_size;
    uint8_t *transcode_block; /* the RGBA8 levels made for the renderer, one after another */
    size_t transcode_block_size;
} krt_texture_decoded;

typedef struct krt_mesh_decoded {
    kiln_mesh_view view;
    krt_mesh_data data;    /* data.view points at view */
    uint8_t *stream_block; /* the streams that had to be unpacked, one after another */
    size_t stream_block_size;
} krt_mesh_decoded;

typedef struct krt_material_decoded {
    kiln_material_view view;
    krt_material_data data; /* data.material points into view */
} krt_material_decoded;

typedef struct krt_skeleton_decoded {
    kiln_skeleton_view view;
} krt_skeleton_decoded;

typedef struct krt_clip_decoded {
    kiln_clip_view view;
} krt_clip_decoded;

typedef struct krt_scene_decoded {
    kiln_cooked_scene_view view;
    krt_scene_data data; /* data.view points at view */
} krt_scene_decoded;

typedef struct krt_shader_decoded {
    kiln_shader_view view;
    krt_shader_data data;      /* data.view points at view, data.variants into block */
    krt_shader_variant *block; /* the variants, then the words when they had to be copied */
    size_t block_size;
} krt_shader_decoded;

typedef struct krt_typed_material_decoded {
    kiln_typed_material_view view;
    krt_typed_material_data data; /* data.view points at view, its arrays into block */
    uint8_t *block;               /* texture_count handles, then as many GPU pointers */
    size_t block_size;
} krt_typed_material_decoded;

typedef struct krt_vgeo_decoded {
    kiln_vgeo_view view;
    krt_vgeo_data data; /* data.view points at view */
} krt_vgeo_decoded;

/* A type a program registered (rt_type_custom.c). */
typedef struct krt_custom_decoded {
    void *view;   /* the kind's view, kind->view_size bytes */
    void *record; /* what the program's decode made */
} krt_custom_decoded;

/* Tagged by krt_asset.type (and .ops). */
typedef union krt_type_data {
    krt_texture_decoded texture;
    krt_mesh_decoded mesh;
    krt_material_decoded material;
    krt_skeleton_decoded skeleton;
    krt_clip_decoded clip;
    krt_scene_decoded scene;
    krt_shader_decoded shader;
    krt_typed_material_decoded typed_material;
    krt_vgeo_decoded vgeo;
    krt_custom_decoded custom;
} krt_type_data;

#endif
