/* kv_camera.c — the camera rule shared with the three.js reference (docs/rendering-reference.md,
 * "The camera rule"): a sphere through the bounds' corners, a 45° vertical field of view that
 * fits it in both directions, a preset direction, near and far at d ∓ 1.1 r; Vulkan's clip space
 * (y down, depth 0..1). */
#include <math.h>
#include <string.h>

#include "kv_scene.h"

typedef struct preset {
    const char *name;
    double yaw, pitch; /* degrees */
} preset;

static const preset presets[] = {
    {"auto", 30.0, 20.0}, {"front", 0.0, 0.0}, {"back", 180.0, 0.0},   {"right", 90.0, 0.0},
    {"left", -90.0, 0.0}, {"top", 0.0, 90.0},  {"bottom", 0.0, -90.0},
};

bool kv_camera_preset_known(const char *name)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strcmp(presets[i].name, name) == 0) return true;
    return false;
}

bool kv_camera_preset_angles(const char *name, double *yaw_degrees, double *pitch_degrees)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strcmp(presets[i].name, name ? name : "auto") == 0) {
            *yaw_degrees = presets[i].yaw;
            *pitch_degrees = presets[i].pitch;
            return true;
        }
    return false;
}

static void normalize3(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0) v[0] /= l, v[1] /= l, v[2] /= l;
}

static void cross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

kiln_result kv_camera_orbit(const float bmin[3], const float bmax[3], double yaw_degrees,
                            double pitch_degrees, double zoom, uint32_t width, uint32_t height,
                            kv_camera *out, kiln_error *err)
{
    if (width == 0 || height == 0) return kv_error(err, KILN_E_USAGE, "camera: empty viewport");
    if (!(zoom > 0)) return kv_error(err, KILN_E_USAGE, "camera: zoom must be above 0");
    double c[3] = {0, 0, 0}, r = 1.0;
    bool empty = !(bmin[0] <= bmax[0] && bmin[1] <= bmax[1] && bmin[2] <= bmax[2]);
    if (!empty) {
        double d2 = 0;
        for (int i = 0; i < 3; i++) {
            c[i] = 0.5 * ((double)bmin[i] + bmax[i]);
            double e = (double)bmax[i] - bmin[i];
            d2 += e * e;
        }
        r = 0.5 * sqrt(d2);
        if (!(r > 0)) r = 1.0;
    }
    const double pi = 3.14159265358979323846;
    double a = (double)width / height;
    double hy = 22.5 * pi / 180.0, hx = atan(tan(hy) * a);
    double fit = r / sin(hx < hy ? hx : hy), dist = fit / zoom;
    if (pitch_degrees > 90.0) pitch_degrees = 90.0;
    if (pitch_degrees < -90.0) pitch_degrees = -90.0;
    double yaw = yaw_degrees * pi / 180.0, pitch = pitch_degrees * pi / 180.0;
    double dir[3] = {cos(pitch) * sin(yaw), sin(pitch), cos(pitch) * cos(yaw)};
    double eye[3] = {c[0] + dist * dir[0], c[1] + dist * dir[1], c[2] + dist * dir[2]};
    /* Up is +Y, except straight above or below: there the preset's rule (top: -Z, bottom: +Z),
     * turned with the yaw so an orbit passes the pole smoothly. */
    double up[3] = {0, 1, 0};
    if (pitch_degrees >= 89.999) up[0] = -sin(yaw), up[1] = 0, up[2] = -cos(yaw);
    if (pitch_degrees <= -89.999) up[0] = sin(yaw), up[1] = 0, up[2] = cos(yaw);
    /* look-at: camera z = dir (it looks down -z), x = up x z, y = z x x */
    double z[3] = {dir[0], dir[1], dir[2]}, x[3], y[3];
    normalize3(z);
    cross3(up, z, x);
    normalize3(x);
    cross3(z, x, y);
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 3; i++) {
        out->view[i * 4 + 0] = (float)x[i];
        out->view[i * 4 + 1] = (float)y[i];
        out->view[i * 4 + 2] = (float)z[i];
    }
    out->view[12] = (float)-(x[0] * eye[0] + x[1] * eye[1] + x[2] * eye[2]);
    out->view[13] = (float)-(y[0] * eye[0] + y[1] * eye[1] + y[2] * eye[2]);
    out->view[14] = (float)-(z[0] * eye[0] + z[1] * eye[1] + z[2] * eye[2]);
    out->view[15] = 1.0f;
    /* The rule's near and far (d -+ 1.1 r); closer in than the fit, near keeps a small share of
     * the sphere's size so that a zoomed-in view still has depth precision. */
    double n = dist - 1.1 * r, f = dist + 1.1 * r, fy = 1.0 / tan(hy);
    if (n < 0.01 * r) n = 0.01 * r;
    /* Vulkan: [1 0 0 0; 0 -1 0 0; 0 0 1/2 1/2; 0 0 0 1] x OpenGL's perspective */
    out->proj[0] = (float)(fy / a);
    out->proj[5] = (float)-fy;
    double gl22 = -(f + n) / (f - n), gl23 = -2.0 * f * n / (f - n);
    out->proj[10] = (float)(0.5 * gl22 - 0.5);
    out->proj[14] = (float)(0.5 * gl23);
    out->proj[11] = -1.0f;
    for (int i = 0; i < 3; i++) out->eye[i] = (float)eye[i];
    out->fov_y = (float)(2.0 * hy);
    return KILN_OK;
}

kiln_result kv_camera_frame(const float bmin[3], const float bmax[3], const char *name,
                            uint32_t width, uint32_t height, kv_camera *out, kiln_error *err)
{
    const preset *p = NULL;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strcmp(presets[i].name, name ? name : "auto") == 0) p = &presets[i];
    if (!p)
        return kv_error(err, KILN_E_USAGE,
                        "camera \"%s\" is not one of auto, front, back, left, right, top, bottom",
                        name);
    return kv_camera_orbit(bmin, bmax, p->yaw, p->pitch, 1.0, width, height, out, err);
}
