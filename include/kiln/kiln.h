/* kiln.h — the cook side of kiln: projects of source assets imported into a content-addressed
 * cache of GPU-ready data.
 *
 * A project has an asset root (sources and their .meta settings), an output folder and a cache
 * folder. kiln writes only inside the project folder and the output folder. Results of import,
 * reimport, report and gc come back as JSON documents (UTF-8, the same documents `kiln ... --json`
 * prints; their schemas are in docs/schemas/), so every language can read them with the JSON
 * library it already has. */
#ifndef KILN_H
#define KILN_H

#include "kiln/kiln_format.h"
#include "kiln/kiln_scene.h" /* models imported into memory: kiln_scene_load */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kiln_project kiln_project;

typedef struct kiln_log_hook {
    /* level: 0 error, 1 warning, 2 info, 3 debug. NULL fn = silent. Called from any thread. */
    void (*fn)(void *user, int level, const char *message);
    void *user;
    int max_level; /* messages above it are dropped; 0 with fn set means warnings too (1) */
} kiln_log_hook;

typedef struct kiln_project_opts {
    uint32_t struct_size;    /* sizeof(kiln_project_opts); 0 is taken as the current size */
    const char *project_dir; /* NULL = the current folder */
    const char *root;        /* asset root; NULL = <project_dir>/assets, or the roots that
                                <project_dir>/kiln.json names ("roots"; then root must be NULL) */
    const char *out;         /* output folder; NULL = <project_dir>/.kiln */
    const char *cache;       /* cache folder; NULL = <out>/cache; must lie in project_dir or out */
    const char *platform;    /* settings overrides "platforms.<name>"; NULL = none */
    uint32_t jobs;           /* worker threads; 0 = one per CPU */
    bool progress;           /* draw a progress bar on stderr when it is a terminal */
    kiln_log_hook log;
    kiln_allocator allocator;
} kiln_project_opts;

/* Opens a project: resolves and checks the folders (the cache and output folders must lie inside
 * the project or output folder: KILN_E_OUTPUT_REFUSED), creates nothing yet. The root must exist
 * (KILN_E_ASSET_IO). With kiln.json "roots" (several roots under prefixes; asset names then start
 * with the prefix, docs/settings.md): a bad value is KILN_E_IMPORT_SETTINGS, and root given too
 * KILN_E_USAGE. Free with kiln_project_close. */
KILN_API kiln_result kiln_project_open(const kiln_project_opts *opts, kiln_project **out,
                                       kiln_error *err);
KILN_API void kiln_project_close(kiln_project *p); /* NULL is a no-op */

enum {
    KILN_IMPORT_ALL = 1u << 0,   /* every asset under the root; paths are ignored */
    KILN_IMPORT_FORCE = 1u << 1, /* process again even when cached; report whether equal */
    /* The document's "records" lists only the assets that were not cached (imported, failed,
     * unsupported); "totals" still counts every asset. A cached asset then costs a look-up in the
     * record index and nothing more: what a command that prints only changes wants at scale. */
    KILN_IMPORT_CHANGES_ONLY = 1u << 2,
};

/* Imports assets (paths relative to the current folder or absolute, inside the root). A cached
 * result is returned without processing. *result_json (free with kiln_string_free) is the import
 * document: one record per asset, totals, failures. Return: KILN_OK when every asset imported;
 * with one path, that asset's error; with several paths or ALL, the first failure's code — the
 * rest are still imported and listed in the document. */
KILN_API kiln_result kiln_project_import(kiln_project *p, const char *const *paths, size_t count,
                                         uint32_t flags, char **result_json, kiln_error *err);

/* Writes settings into the asset's .meta (validated first; the GUID and other fields kept) and
 * imports it again. settings_json: a patch shaped like the .meta "import" object, or NULL;
 * assignments: "texture.format=rgba8" strings (may be NULL/0). Document: the import record plus
 * "unchanged" (whether the output equals the entry imported before). */
KILN_API kiln_result kiln_project_reimport(kiln_project *p, const char *path,
                                           const char *settings_json,
                                           const char *const *assignments, size_t assignment_count,
                                           char **result_json, kiln_error *err);

/* The state of every asset (up_to_date, stale, not_imported, invalid, unsupported; damaged
 * with KILN_REPORT_VERIFY), keys,
 * outputs, totals and the cache size, and "skipped": the files the scan left out and why
 * (excluded by kiln.json or .kilnignore, owned by a model). Processes and writes nothing. */
KILN_API kiln_result kiln_project_report(kiln_project *p, char **report_json, kiln_error *err);

enum {
    /* "assets" lists only the assets that are not up to date; "totals" still counts every one.
     * An up-to-date asset then costs a look-up in the record index and nothing more. */
    KILN_REPORT_CHANGES_ONLY = 1u << 0,
    /* Trust nothing recorded: no record index, every source (and dependency) read and hashed,
     * and each current entry checked byte for byte against both digests of its manifest (a
     * state "damaged" when it fails, with the reason in "damage"). A record whose digests are
     * not its files' bytes makes the asset stale (a "record" reason in "why"). Costs a read of
     * every source and every output. */
    KILN_REPORT_VERIFY = 1u << 1,
};
/* kiln_project_report with flags (KILN_REPORT_*). */
KILN_API kiln_result kiln_project_report_flags(kiln_project *p, uint32_t flags, char **report_json,
                                               kiln_error *err);

/* Writes a .meta with a fresh GUID beside each given source that has none (all sources with
 * KILN_IMPORT_ALL). Document: the files written. */
KILN_API kiln_result kiln_project_meta(kiln_project *p, const char *const *paths, size_t count,
                                       uint32_t flags, char **result_json, kiln_error *err);

/* Removes cache entries no asset record points to, then least-recently-used entries until the
 * cache is at most max_size bytes (0 = no limit). Document: what was removed and freed. */
KILN_API kiln_result kiln_cache_gc(kiln_project *p, uint64_t max_size, char **result_json,
                                   kiln_error *err);

enum {
    KILN_CACHE_VERIFY_REPAIR = 1u << 0, /* remove damaged entries, cook their assets again */
};
/* Checks every cache entry byte for byte against both digests of its manifest (the manifest
 * too: it parses, has this version and the key of its folder), and every asset's record against
 * its source's bytes (the digests the stat shortcut trusts); reads every output and every
 * source. Document ("cache verify"): "damaged" (each damaged entry with its reason and the
 * assets whose current key it is, each record whose digests are not its files'), what was cooked
 * again and totals. With KILN_CACHE_VERIFY_REPAIR each damaged entry is removed and the assets
 * that use it, and those with a damaged record, are cooked again (an entry no asset uses is just
 * removed). Returns KILN_OK when the check ran, damage or not ("totals"."unrepaired" says). */
KILN_API kiln_result kiln_cache_verify(kiln_project *p, uint32_t flags, char **result_json,
                                       kiln_error *err);

/* One-shot conversion without a project: the same settings, defaults and code path as an
 * import of the source, written to out_path (atomically; its folder must exist). */
typedef struct kiln_convert_opts {
    uint32_t struct_size;           /* sizeof(kiln_convert_opts); 0 is taken as the current size */
    const char *settings_json;      /* a patch shaped like the .meta "import" object, or NULL */
    const char *const *assignments; /* "texture.format=bc7" ... (the reimport --set syntax) */
    size_t assignment_count;
    const char *platform; /* apply "platforms.<name>" of the settings; NULL = none */
    uint32_t jobs;        /* worker threads; 0 = one per CPU */
    kiln_allocator allocator;
    /* kiln_convert_shader: the folder its #include lines may read, which include_dirs are
     * relative to (the project root of an import); NULL = the source's folder. */
    const char *root;
    /* kiln_convert_shader: only this variant of the settings' (the variant "default" when they
     * name none); NULL = every one. */
    const char *variant;
} kiln_convert_opts;

/* Converts an image (PNG, JPEG, TGA, BMP, HDR, EXR) into a KTX2 texture. *result_json (free
 * with kiln_string_free) says what was written: the settings used, the summary, warnings.
 * Errors: those of an import (E_IMPORT_SETTINGS with the pointer of a bad field, E_IMPORT_FAILED,
 * E_ASSET_IO, ...). */
KILN_API kiln_result kiln_convert_texture(const char *in_path, const char *out_path,
                                          const kiln_convert_opts *opts, char **result_json,
                                          kiln_error *err);

/* Compiles a GLSL or HLSL shader with the import.shader settings into a cooked shader (out_path
 * ending in .kshader: the SHDR container an import writes, every variant) or, for out_path ending
 * in .spv, the SPIR-V words of one variant (opts->variant, needed when there are several) as a
 * little-endian .spv file. Includes are read inside opts->root only, as an import reads them
 * inside its project. *result_json says what was written: the settings used, the summary, per
 * variant its name, defines and SPIR-V size, and the compiler's warnings. Errors: those of an
 * import (E_IMPORT_SETTINGS with the pointer of a bad field, E_IMPORT_FAILED with the compiler's
 * file:line message, E_ASSET_IO), E_USAGE (a variant the settings do not name; the source
 * outside the root; .spv of several variants without one chosen). */
KILN_API kiln_result kiln_convert_shader(const char *in_path, const char *out_path,
                                         const kiln_convert_opts *opts, char **result_json,
                                         kiln_error *err);

/* Cooks a glTF model (.gltf, .glb) into out_dir (created when missing) with the same settings,
 * defaults and code path as an import: one file per artifact (image<i>.ktx2, material<i>.kmat,
 * mesh<i>.prim<p>.kmesh, skeleton<i>.kskel, clip<i>.kclip, scene.kscene), each written
 * atomically, then manifest.json (a cache entry's manifest with the asset's "guid" and "path",
 * the file name of in_path: krt_mount_cache mounts out_dir as one entry). Asset ids are made with
 * the GUID an import without a .meta would give a file of that name (derived from the base name).
 * *result_json lists every artifact written (label, kind, file, size), per mesh the triangles of
 * every LOD, vertices and vertex bytes, and the summary and warnings the manifest of an import
 * would keep. */
KILN_API kiln_result kiln_convert_model(const char *in_path, const char *out_dir,
                                        const kiln_convert_opts *opts, char **result_json,
                                        kiln_error *err);

/* ---- glTF out (docs/gltf_out.md) ----------------------------------------------------------- */

/* How kiln_gltf_export writes a model; `= {0}` gives the documented defaults. The gltfpack
 * option each field matches is named in docs/gltf_out.md. */
typedef struct kiln_gltf_opts {
    uint32_t struct_size; /* sizeof(kiln_gltf_opts); 0 is taken as the current size */
    /* Fraction of each primitive's triangles to keep, (0, 1]: meshopt_simplify as the model
     * cook's levels of detail run it (gltfpack -si). 0 or 1 = no simplification. */
    float simplify;
    float simplify_error; /* largest error relative to the mesh extent, [0, 1]; 0 = 0.01 (-se) */
    bool no_optimize;     /* keep the welded triangles in source order (no cache/fetch order) */
    /* Keep vertex streams nothing reads: tangents without a normal map, UV sets past the last
     * one a texture of the material reads (gltfpack -kv). By default they are left out. */
    bool keep_attributes;
    /* KHR_mesh_quantization: positions as integers with the dequantization in the node's
     * transform (a child node holding the mesh, or a skin's inverse bind matrices), normals and
     * tangents as normalized bytes or shorts, UVs as normalized shorts (a range outside [0, 1]
     * undone by the material's KHR_texture_transform), colours as normalized shorts, weights as
     * normalized bytes (gltfpack's default; -noq). */
    bool quantize;
    uint32_t position_bits; /* 1..16; 0 = 14 (-vp) */
    uint32_t texcoord_bits; /* 1..16; 0 = 12 (-vt) */
    uint32_t normal_bits;   /* 1..16 (8 and less: bytes); 0 = 8 (-vn) */
    /* EXT_meshopt_compression (required) on every vertex, index, animation and skin buffer view,
     * with an empty fallback buffer, as gltfpack -c writes it. */
    bool compress;
    kiln_allocator allocator;
} kiln_gltf_opts;

/* Writes the model at in_path (anything kiln_scene_load reads) as glTF 2.0: out_path ending in
 * .glb is one binary file with images inside; .gltf is JSON beside OUTSTEM.bin and one file per
 * image (OUTSTEM.imageN.png|.jpg|.ktx2), nothing else is written. Meshes go through the model
 * cook's passes (weld, degenerate and duplicate triangles, vertex cache, overdraw, fetch order;
 * optional simplification); nodes, names, skins, morph targets, animations (as imported),
 * cameras, KHR_lights_punctual and materials (metallic-roughness, emissive_strength, unlit,
 * texture_transform) with their images as stored (PNG, JPEG, KTX2) are kept. The same input and
 * options give the same bytes. Each file is written atomically. *result_json (free with
 * kiln_string_free): {"command": "gltf", "input", "output", "files": [{file, size}], counts of
 * the source and the output, "extensions", "warnings"}. opts may be NULL.
 * Errors: those of kiln_scene_load for in_path (KILN_E_ASSET_IO when it cannot be read),
 * KILN_E_USAGE (out_path ends in neither .glb nor .gltf, bad options), KILN_E_OUTPUT_REFUSED
 * (out_path or a side file is in_path or a file the model reads), KILN_E_ASSET_IO (out_path's
 * folder is missing or not writable), KILN_E_OUT_OF_MEMORY, KILN_E_LIMIT. */
KILN_API kiln_result kiln_gltf_export(const char *in_path, const char *out_path,
                                      const kiln_gltf_opts *opts, char **result_json,
                                      kiln_error *err);

KILN_API void kiln_string_free(char *s);

/* Every settings field a .meta may hold (docs/settings.md), described from the tables the
 * validator checks them with: kiln's groups (texture, model, fbx) and, when p is not NULL, the
 * settings of the kinds registered with p (kiln_kind.h). *result_json (free with
 * kiln_string_free): {"command": "help settings", "groups": [{"name": "texture", "kinds": [the
 * source kinds that read it], "fields": [{"name", "path" ("texture.format": what --set takes),
 * "type" (boolean, "null or boolean", string, integer, number, "array of numbers"), "default",
 * "allowed" (the text of the validator's messages), "choices" (strings) or "minimum" and
 * "maximum" (numbers), "description" (registered fields that have one)}]}]}, groups and fields
 * in table order (docs/schemas/help-settings.schema.json). Errors: KILN_E_OUT_OF_MEMORY. */
KILN_API kiln_result kiln_settings_describe(const kiln_project *p, char **result_json,
                                            kiln_error *err);

/* ---- scale-out: remote caches, shards, the build graph (docs/scale-out.md) ---------------- */

typedef struct kiln_remote_opts {
    uint32_t struct_size;    /* sizeof(kiln_remote_opts); 0 is taken as the current size */
    const char *const *urls; /* remote caches: http://host:port/prefix, https://..., file:///dir,
                                each optionally "?read-only", "?timeout=SECONDS" (joined by &);
                                none = the "remote_cache" list of <project>/kiln.json */
    size_t url_count;
    bool read_only;       /* never upload to any of them */
    bool ignore_config;   /* do not read <project>/kiln.json */
    uint32_t timeout_s;   /* connect / stall timeout per request; 0 = 10 s */
    uint32_t shard_index; /* import only the assets of shard shard_index of shard_count */
    uint32_t shard_count; /* 0 or 1 = all assets */
} kiln_remote_opts;

/* Sets up the remote caches and the shard of later imports of p (replacing earlier ones). An
 * import then looks an entry up on the remote that owns its key (rendezvous hashing) before
 * cooking, verifies every downloaded blob (size, SHA-256) and publishes it like a local cook;
 * after a cook it uploads the entry (Bazel HTTP cache layout: cas/<sha256>, ac/<key>). A remote
 * never fails an import: its first transport error disables it for the rest of the run with one
 * warning. Import documents then carry "remote": {hits, misses, uploads, errors, remotes} and,
 * with a shard, "shard": {index, count, skipped}. Errors: KILN_E_USAGE (a bad URL, shard index
 * not below count), KILN_E_IMPORT_SETTINGS (a bad kiln.json), KILN_E_LIMIT (too many URLs). */
KILN_API kiln_result kiln_project_set_remote(kiln_project *p, const kiln_remote_opts *opts,
                                             kiln_error *err);

/* The remote counters of p so far as a JSON object {hits, misses, uploads, errors, remotes}
 * (free with kiln_string_free); NULL when p has no remote caches. */
KILN_API char *kiln_project_remote_stats(const kiln_project *p);

/* The build graph of the project, without cooking or writing anything: every asset kiln
 * imports with its source, the files its key depends on (a .gltf's buffers and images, its
 * .meta), its current key and entry folder. *result_json: {"command": "graph", "root",
 * "cache", "assets": [{"path", "guid", "kind", "key", "entry", "inputs": [absolute paths]}],
 * "failed": [...]} (free with kiln_string_free). `kiln graph --ninja` writes it as build.ninja. */
KILN_API kiln_result kiln_project_graph(kiln_project *p, char **result_json, kiln_error *err);

/* ---- watching the asset root (docs/cli.md "watch") --------------------------------------- */

typedef struct kiln_watch kiln_watch;

typedef struct kiln_watch_opts {
    uint32_t struct_size; /* sizeof(kiln_watch_opts); 0 is taken as the current size */
    uint32_t debounce_ms; /* a batch of changes is imported once the root was quiet this long;
                             0 = 150. It is imported anyway 20 times this long after its first
                             change, so a file written without a pause is still picked up. */
    bool has_wake_fd;     /* wake_fd is used */
    int wake_fd;          /* a descriptor that makes kiln_watch_poll return at once when it is
                             readable (a signalfd, an eventfd, a pipe); it is not read */
} kiln_watch_opts;

/* Starts watching p's asset root (Linux inotify: every folder, those added or moved in later
 * too; dot-folders and the output and cache folders are skipped) and the project's kiln.json,
 * then imports every asset once, as kiln_project_import with KILN_IMPORT_ALL does. *result_json
 * (free with kiln_string_free) is that import document. p must outlive the watch and must not
 * be used by other threads meanwhile. Returns the first asset failure like kiln_project_import
 * (the watch is open then: *out is set); errors of the watch itself leave *out NULL:
 * KILN_E_USAGE (no inotify on this system), KILN_E_LIMIT (the inotify watch limit,
 * /proc/sys/fs/inotify/max_user_watches, is too low for the folders), KILN_E_ASSET_IO,
 * KILN_E_OUT_OF_MEMORY. */
KILN_API kiln_result kiln_watch_open(kiln_project *p, const kiln_watch_opts *opts, kiln_watch **out,
                                     char **result_json, kiln_error *err);

/* Waits up to timeout_ms (negative: no limit) for changes under the root, blocking in poll(2),
 * never spinning. Once a batch of changes has settled (opts.debounce_ms), it re-imports what
 * they touch: the changed or added sources, the models that read a changed file (a .bin, an
 * image), every asset when a .meta, kiln.json or .kilnignore changed (only the stale ones are
 * cooked), and removes the records of assets whose source is gone (the runtime unmounts them;
 * their entries stay until kiln_cache_gc). *result_json (free with kiln_string_free) is then the
 * watch document {"command": "watch", "changes", "records", "removed", "failed", "totals"}
 * (docs/schemas/watch.schema.json); it stays NULL when the time ran out, a signal interrupted
 * the wait, the wake descriptor became readable, or the changes touched no asset. A failed
 * import keeps the last good entry (the runtime goes on loading it); the next change of the
 * file imports it again. Returns the first failed asset's code (the document lists all), or
 * an error of the watch itself (KILN_E_ASSET_IO, KILN_E_OUT_OF_MEMORY, KILN_E_LIMIT). */
KILN_API kiln_result kiln_watch_poll(kiln_watch *w, int timeout_ms, char **result_json,
                                     kiln_error *err);

/* The inotify descriptor, for an engine's own event loop: when it is readable, call
 * kiln_watch_poll (a batch is imported only once it settled, so poll with a timeout of the
 * debounce time after the last readiness). */
KILN_API int kiln_watch_fd(const kiln_watch *w);

/* Stops watching and frees w (NULL is a no-op). The project stays open. */
KILN_API void kiln_watch_close(kiln_watch *w);

/* ---- packs ------------------------------------------------------------------------------- */

/* How kiln_project_pack stores each payload. */
enum {
    KILN_PACK_COMPRESS_AUTO = 0, /* Zstandard where it pays: saves >= 1/8 and >= 64 bytes */
    KILN_PACK_COMPRESS_NONE = 1, /* every payload raw (usable in place from an mmap) */
    KILN_PACK_COMPRESS_ZSTD = 2, /* Zstandard wherever it makes a payload smaller at all */
};

typedef struct kiln_pack_opts {
    uint32_t struct_size; /* sizeof(kiln_pack_opts); 0 is taken as the current size */
    const char *output;   /* the .kpak to write (relative to the current folder or absolute),
                             anywhere: the caller named it (its folders are created);
                             NULL = <out>/game.kpak */
    uint32_t compress;    /* KILN_PACK_COMPRESS_* */
    int level;            /* Zstandard level 1..22; 0 = 9 (19 packs ~5% smaller, ~15x slower) */
    bool align_4096;      /* payloads at 4096-byte boundaries (direct I/O); default 16 */
    bool keep_going;      /* pack the assets that did not fail (and need none that did) */
    const char *under;    /* with KILN_IMPORT_ALL: only the assets whose name lies under this
                             folder name ("engine": one root of several, "textures/ui"); a name
                             of no folder is KILN_E_USAGE. NULL = every asset */
} kiln_pack_opts;

/* Packs cooked artifacts into one .kpak file (format: docs/formats.md "Packs"; use:
 * docs/packs.md). assets: source paths (every artifact of that source) or "path#label" (that
 * artifact), relative to the current folder or absolute, inside the root; with KILN_IMPORT_ALL
 * every asset under the root (kinds kiln does not import yet are listed as skipped). The assets
 * are imported first (cached ones are not cooked again); every artifact they need is followed
 * (a scene brings its meshes, skeletons and clips, a mesh its material, a material its images,
 * a clip its skeleton); a typed material's shaders and textures are other sources: they are
 * imported too and their artifacts it refers to packed (KILN_E_NOT_IMPORTED for the material,
 * naming the source, when one of them fails). Before its bytes go in, each artifact's size and
 * SHA-256 are checked against its cache manifest (KILN_E_CACHE_CORRUPT naming the artifact and the
 * entry). Two different artifacts under one asset id (two .meta files with one GUID) are
 * KILN_E_IMPORT_SETTINGS naming both; equal ones are packed once. The pack is written to a
 * temporary file and renamed, so a failed pack leaves an earlier one untouched. The same
 * sources and options give the same bytes in any folder, process or thread count.
 * *result_json (free with kiln_string_free): the output, totals (entries, payloads, bytes raw
 * and stored) and every entry (name, asset id, kind, size, stored size, compression).
 * Failures of single assets (an argument naming no asset, a failed import, a damaged cache
 * entry, an artifact referring to an id the pack would lack) are all gathered first, each listed
 * in the document's "failed" [{path, error}]; an asset referring to a failed or left-out one is
 * left out too, so a pack never holds a reference it cannot resolve. Then, without keep_going,
 * nothing is written and *result_json is {"command", "output", "error" (the first failure's code,
 * a summary), "failed", "totals"}; with keep_going the rest is packed and the document is the
 * usual one. Either way the first failure is returned (its code and *err). Errors of the whole
 * command: KILN_E_IMPORT_SETTINGS (one id, different bytes), KILN_E_USAGE (no assets, an unknown
 * label, bad options), KILN_E_OUTPUT_REFUSED, KILN_E_ASSET_IO, KILN_E_OUT_OF_MEMORY, with no
 * document. */
KILN_API kiln_result kiln_project_pack(kiln_project *p, const char *const *assets, size_t count,
                                       uint32_t flags, const kiln_pack_opts *opts,
                                       char **result_json, kiln_error *err);

/* Re-checks every checksum of a .kpak file: the table (kiln_pack_open_memory), then every
 * payload's stored and decompressed bytes and the padding (kiln_pack_verify). *result_json
 * says what was checked (entries, payloads, sizes). Errors: those of the two readers (the first
 * damaged entry named), KILN_E_ASSET_IO. */
KILN_API kiln_result kiln_pack_verify_file(const char *path, char **result_json, kiln_error *err);

/* ---- inspecting files -------------------------------------------------------------------- */

typedef struct kiln_inspect_opts {
    uint32_t struct_size; /* sizeof(kiln_inspect_opts); 0 is taken as the current size */
    const char *compare;  /* KTX2 files only: an 8-bit source image of the texture's size; the
                             document then holds "compare", level 0's PSNR against it */
    /* Cooked kinds besides the built-in ones (a program's, kiln_kind.h): a container of one of
     * them gets the summary its describe() writes, under the kind's name. */
    const struct kiln_cooked_kind *const *kinds;
    size_t kind_count;
} kiln_inspect_opts;

/* Describes one file, told by content (a cache entry by its manifest.json): a source image (PNG,
 * JPEG, TGA, BMP, HDR, EXR), a KTX2 texture, a model (glTF 2.0 / GLB, FBX, OBJ: loaded without
 * pixels, with the files beside it), a kiln container of any cooked kind (header, section table,
 * and what the kind's describe() says, read through its reader; opts->kinds adds a program's
 * kinds), a .kpak (its table of contents) or a cache entry (a folder holding a manifest.json, as
 * the cache and `kiln model` write them, or that manifest: its key, kind and artifacts).
 * *result_json (free with kiln_string_free) is the document `kiln inspect FILE --json` prints:
 * "type" (image, ktx2, model, container, pack, entry) and that type's members
 * (docs/schemas/inspect.schema.json), with "command": "inspect" and "file": path. opts may be NULL.
 * Errors: those of the reader of that kind of file (KILN_E_FORMAT_INVALID, _FORMAT_VERSION,
 * _IMPORT_FAILED, _IMPORT_UNSUPPORTED for bytes no reader recognises), KILN_E_ASSET_IO,
 * KILN_E_LIMIT (above 2 GiB), KILN_E_USAGE (compare given for a file that is not KTX2, or an image
 * that does not match). */
KILN_API kiln_result kiln_inspect_file(const char *path, const kiln_inspect_opts *opts,
                                       char **result_json, kiln_error *err);

/* Describes cooked output of the project p by name, as `kiln inspect NAME` does inside a project:
 * - "NAME#label" (NAME a source, from the current folder or relative to the root, as PATHs of
 *   import are; label an artifact label of its cache entry: "scene", "mesh0/prim0", "image3",
 *   "texture"): the artifact in the asset's current cache entry — the entry its record and its
 *   current key (settings for p's platform) name; nothing is cooked or written — described as
 *   kiln_inspect_file describes that file, "file" being name, plus "artifact": {name, source,
 *   label, asset_id, key, path (the file)}. Errors: KILN_E_NOT_IMPORTED (never imported, stale,
 *   its last import failed or its entry was collected: the message says which and names `kiln
 *   import NAME`), KILN_E_USAGE (no artifact of that label: the message lists the labels), those
 *   of a PATH (KILN_E_ASSET_IO, KILN_E_IMPORT_UNSUPPORTED, KILN_E_IMPORT_SETTINGS) and of the
 *   file's reader. A name that exists as a file is that file, '#' or not.
 * - an entry folder of p's cache, or its manifest.json: "type": "entry" (as kiln_inspect_file
 *   gives) with "assets" [{path, guid}], the assets whose records name that entry, and each
 *   artifact's asset id and name under the first of them.
 * - anything else: kiln_inspect_file(name).
 * *result_json: free with kiln_string_free. */
KILN_API kiln_result kiln_project_inspect(kiln_project *p, const char *name,
                                          const kiln_inspect_opts *opts, char **result_json,
                                          kiln_error *err);

#ifdef __cplusplus
}
#endif
#endif
