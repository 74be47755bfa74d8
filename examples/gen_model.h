/* gen_model.h — the example models of `make demo`, written by hand (JSON through snprintf,
 * little-endian buffers) from formulas and a fixed-seed PRNG, so the bytes are the same on every
 * run. Each returns 0 on success and reports failures on stderr. */
#ifndef KILN_GEN_MODEL_H
#define KILN_GEN_MODEL_H

/* A GLB: a displaced, noisy UV sphere (128 x 80, 20224 triangles) with POSITION, NORMAL and
 * TEXCOORD_0, and a material whose base-colour and normal-map PNGs live in buffer views. */
int gen_rock(const char *glb_path);

/* A .gltf with its buffer in `<name>.bin` beside it: a cylinder skinned to a chain of 3 joints
 * with a clip "wave" (LINEAR rotations on the joints, a STEP translation), a grid mesh with two
 * morph targets and a clip "pulse" animating its weights, a camera and a KHR_lights_punctual
 * light. bin_name is the file name of the buffer (written in the same folder as gltf_path). */
int gen_arm(const char *gltf_path, const char *bin_name);

#endif
