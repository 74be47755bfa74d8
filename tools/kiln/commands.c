/* commands.c — the table of kiln's subcommands: each one's name, the function that runs it,
 * whether it needs a big heap (it may cook, or holds a large project: main.c gives those a heap in
 * huge pages), its --help text and the settings
 * groups its assets read. A new subcommand is one entry here (and a line in main.c's summary). */
#include <string.h>

#include "cli.h"

static const kiln_cli_command commands[] = {
    {"import", kiln_cmd_import, true,
     "usage: kiln import [PATH...|--all] [--force] [--verbose] [--remote-cache URL ...]\n"
     "                   [--shard I/N]\n"
     "\n"
     "Imports sources into the cache; an asset whose key has an entry is reused (cached).\n"
     "\n"
     "  --all               every source under the root; lists the assets it imported or\n"
     "                      that failed, and counts the cached ones\n"
     "  --force             cook again even when cached; say whether the output changed\n"
     "  --verbose           list cached assets too, with their warnings\n"
     "  --remote-cache URL  share entries through a remote cache (repeatable; docs/scale-out.md)\n"
     "  --shard I/N         import only shard I of N\n",
     "*"},
    {"reimport", kiln_cmd_reimport, true,
     "usage: kiln reimport PATH [--set GROUP.FIELD=VALUE ...] [--settings JSON]\n"
     "                      [--remote-cache URL ...]\n"
     "\n"
     "Writes settings into PATH.meta (validated first; the GUID and other fields kept), cooks\n"
     "the asset again and prints what changed: settings before -> after, output sizes.\n"
     "\n"
     "  --set GROUP.FIELD=VALUE  one setting (texture.format=bc7, platforms.mobile.texture.\n"
     "                           format=astc4x4); a group the asset's kind does not read is\n"
     "                           refused\n"
     "  --settings JSON          a patch shaped like the .meta \"import\" object\n"
     "  --remote-cache URL       share entries through a remote cache\n",
     "*"},
    {"report", kiln_cmd_report, true,
     "usage: kiln report [--check] [--verbose] [--verify] [--why [PATH...]]\n"
     "       kiln report --html [-o FILE]\n"
     "\n"
     "Lists the assets that are not up to date (stale, not imported, invalid) and counts\n"
     "every state; processes nothing and writes nothing but the --html page.\n"
     "\n"
     "  --check     exit 1 unless every asset is up to date, with one line per other asset on\n"
     "              stderr (for CI gates)\n"
     "  --verbose   list every asset, and each file the scan skipped and why (owned by a\n"
     "              model, excluded by kiln.json \"exclude\" or .kilnignore)\n"
     "  --verify    trust nothing recorded: read every source again (a record whose digest is\n"
     "              not its source's makes the asset stale) and check every current entry's\n"
     "              outputs against both digests of its manifest (state damaged; kiln cache\n"
     "              verify --repair repairs it)\n"
     "  --why       for each stale asset (of the PATHs: assets or folders), one line per thing\n"
     "              that changed since its import: source bytes, a dependency, a setting (old\n"
     "              -> new, and the file it comes from), kiln's pipeline version\n"
     "  --html      write a static page of every asset (FILE, default report.html) with\n"
     "              pictures in FILE.d/: textures and their mip chains, models' levels of\n"
     "              detail, sizes by kind, warnings, errors and stale assets\n"
     "  -o FILE     where --html writes the page\n",
     NULL},
    {"meta", kiln_cmd_meta, false,
     "usage: kiln meta [PATH...|--all]\n"
     "\n"
     "Writes a .meta with a fresh GUID beside each source that has none (every source without\n"
     "PATH); existing .meta files are not touched.\n"
     "\n"
     "  --all   every source under the root (the default without PATH)\n",
     "*"},
    {"inspect", kiln_cmd_inspect, false,
     "usage: kiln inspect FILE|NAME#label [--compare IMAGE]\n"
     "\n"
     "Describes an image, a KTX2 file, a model (.gltf .glb .fbx .obj), a cooked file, a .kpak\n"
     "or a cache entry folder (its artifacts; a folder `kiln model` wrote too). In a project,\n"
     "NAME#label (models/car.gltf#scene) is that artifact of the source's current cache entry;\n"
     "the common options choose the project, which also names an entry folder's assets.\n"
     "\n"
     "  --compare IMAGE   KTX2 only: PSNR of level 0 against an 8-bit image of its size\n",
     NULL},
    {"texture", kiln_cmd_texture, true,
     "usage: kiln texture IN OUT.ktx2 [--format F] [--quality Q] [--set texture.FIELD=VALUE ...]\n"
     "                    [--settings JSON]\n"
     "\n"
     "Converts one image into a KTX2 file without a project, through the import's code path.\n"
     "\n"
     "  --format F                 = --set texture.format=F\n"
     "  --quality Q                = --set texture.quality=Q\n"
     "  --set texture.FIELD=VALUE  one setting\n"
     "  --settings JSON            a patch shaped like the .meta \"import\" object\n",
     "texture"},
    {"shader", kiln_cmd_shader, true,
     "usage: kiln shader IN OUT.kshader|OUT.spv [--stage S] [--entry E] [--define NAME[=VALUE] ...]\n"
     "                   [--include-dir DIR ...] [--variant NAME] [--root DIR]\n"
     "                   [--set shader.FIELD=VALUE ...] [--settings JSON]\n"
     "\n"
     "Compiles one GLSL or HLSL shader without a project, through the import's code path:\n"
     "every variant compiled, validated and reflected into a cooked shader (.kshader), or one\n"
     "variant's SPIR-V (.spv).\n"
     "\n"
     "  --stage S                = --set shader.stage=S (vertex, fragment, compute, ...)\n"
     "  --entry E                = --set shader.entry=E\n"
     "  --define NAME[=VALUE]    a macro for every variant (shader.defines); repeatable\n"
     "  --include-dir DIR        a folder #include searches, relative to the root; repeatable\n"
     "  --variant NAME           only this variant of shader.variants (an .spv needs one when\n"
     "                           there are several)\n"
     "  --root DIR               the folder includes may read (default: IN's folder)\n"
     "  --set shader.FIELD=VALUE one setting\n"
     "  --settings JSON          a patch shaped like the .meta \"import\" object\n",
     "shader"},
    {"model", kiln_cmd_model, true,
     "usage: kiln model IN.gltf|IN.glb|IN.fbx|IN.obj OUTDIR [--textures all|none]\n"
     "                  [--set model.FIELD=VALUE ...] [--settings JSON]\n"
     "\n"
     "Cooks one model into OUTDIR without a project, one file per artifact, and a\n"
     "manifest.json: krt_mount_cache mounts OUTDIR, naming the artifacts IN's file name#label.\n"
     "\n"
     "  --textures all|none      = --set model.textures=true|false\n"
     "  --set GROUP.FIELD=VALUE  one setting (model.lods=[0.5], fbx.scale=0.01)\n"
     "  --settings JSON          a patch shaped like the .meta \"import\" object\n",
     "model fbx"},
    {"gltf", kiln_cmd_gltf, true,
     "usage: kiln gltf IN OUT.glb|OUT.gltf [--simplify R] [--simplify-error E] [--quantize]\n"
     "                 [--position-bits N] [--texcoord-bits N] [--normal-bits N] [--compress]\n"
     "                 [--no-optimize] [--keep-attributes]\n"
     "\n"
     "Writes one model (IN: .gltf .glb .fbx .obj) as optimized glTF 2.0: OUT.glb with\n"
     "everything inside, or OUT.gltf with OUT.bin and OUT.imageN.png|jpg|ktx2 beside it\n"
     "(docs/gltf_out.md). Meshes are welded and ordered for the vertex cache and fetch.\n"
     "\n"
     "  --simplify R         keep fraction R of each primitive's triangles (gltfpack -si)\n"
     "  --simplify-error E   largest simplification error, relative to the mesh (-se;\n"
     "                       default 0.01)\n"
     "  --quantize           KHR_mesh_quantization (gltfpack's default; -noq turns it off)\n"
     "  --position-bits N    bits of quantized positions, 1..16 (-vp; default 14)\n"
     "  --texcoord-bits N    bits of quantized UVs, 1..16 (-vt; default 12)\n"
     "  --normal-bits N      bits of quantized normals and tangents, 2..16 (-vn; default 8)\n"
     "  --compress           EXT_meshopt_compression with a fallback buffer (-c)\n"
     "  --no-optimize        keep the triangles in source order\n"
     "  --keep-attributes    keep tangents without a normal map and UV sets no texture\n"
     "                       reads (-kv)\n"
     "  -q, --quiet          errors only\n",
     NULL},
    {"pack", kiln_cmd_pack, true,
     "usage: kiln pack [-o FILE] [--all [--under NAME]|ASSET...] [--keep-going]\n"
     "                 [--compress none|zstd|auto] [--level N] [--align 16|4096]\n"
     "       kiln pack --verify FILE\n"
     "\n"
     "Imports the assets (cached ones are reused) and packs their artifacts, and what they\n"
     "need, into one .kpak.\n"
     "\n"
     "  -o, --output FILE   the pack (default OUT/game.kpak); anywhere, folders created\n"
     "  --all               every asset under the root (or roots)\n"
     "  --under NAME        with --all: only the assets under the folder NAME (\"engine\":\n"
     "                      one root of several; kiln.json \"roots\")\n"
     "  --keep-going        pack the assets that did not fail; exit 1\n"
     "  --compress MODE     none, zstd or auto (default: zstd where it pays)\n"
     "  --level N           Zstandard level 1..22 (default 9)\n"
     "  --align 16|4096     payload alignment\n"
     "  --verify FILE       check every checksum of a .kpak\n",
     "*"},
    {"graph", kiln_cmd_graph, false,
     "usage: kiln graph --ninja [-o FILE]\n"
     "\n"
     "Writes a build.ninja: one `kiln import` edge per cache key.\n"
     "\n"
     "  --ninja    write build.ninja (OUT/build.ninja, or FILE)\n"
     "  -o FILE    where to write it\n",
     NULL},
    {"watch", kiln_cmd_watch, true,
     "usage: kiln watch\n"
     "\n"
     "Imports every asset, then watches the root (Linux inotify) and imports again what changes:\n"
     "a batch is imported once the root was quiet for 150 ms; a changed .bin or image imports\n"
     "the model that reads it, a changed .meta or kiln.json every stale asset; a deleted source\n"
     "loses its record; a broken one keeps its last good entry. One line per change (--json: one\n"
     "document per line) until SIGINT or SIGTERM, which exit 0. See docs/cli.md \"watch\".\n",
     "*"},
    {"thumbnail", kiln_cmd_thumbnail, false,
     "usage: kiln thumbnail NAME#label|FILE -o OUT.png [--size N] [--level N] [--layer N]\n"
     "                      [--view lit|unlit|normals|uv|lod|meshlets|clusters|levels]\n"
     "                      [--time T] [--lod N] [--camera auto|front|back|left|right|top|bottom]\n"
     "                      [--distance F] [--cut-distance F] [--pixel-error P] [--clip N|none]\n"
     "                      [--background R,G,B[,A]] [--bounds X,Y,Z,X,Y,Z]\n"
     "\n"
     "Draws a picture of a cooked artifact headless with kiln's Vulkan renderer (no window) and\n"
     "writes it as a PNG. NAME#label is an artifact of the project's current cache entry\n"
     "(textures/brick.png#texture); FILE is a source of the project (an image: its texture; a\n"
     "model: its scene) or a cooked file alone (a .ktx2). Textures: one mip level fitted into\n"
     "N x N keeping the aspect, over a grey checkerboard where alpha shows; BC4 as grey, BC5 as\n"
     "a normal map (z rebuilt), float formats (RGBA16F, BC6H ...) clamped to 0..1\n"
     "(docs/rendering.md). A model's scene,\n"
     "a mesh, or a material on a sphere: framed from their bounds at rest, posed at --time of\n"
     "--clip, each mesh at the LOD kiln_lod_select picks for 1 pixel of error. A virtual\n"
     "geometry (NAME#vgeo<i>/prim<p>): the cut kiln_vgeo_select makes for this camera, drawn\n"
     "over its mesh, each cluster in its own colour (view clusters) or each DAG level (levels).\n"
     "\n"
     "  -o, --output OUT.png  the picture (RGB, 8 bits)\n"
     "  --size N              its longer side in pixels, 1..4096 (default 256)\n"
     "  --level N             textures: the mip level (default 0)\n"
     "  --layer N             textures: the cube face (0..5: +X -X +Y -Y +Z -Z), array layer\n"
     "                        or volume slice (default 0)\n"
     "  --view V              models: the shading or debug view (default lit); a virtual\n"
     "                        geometry: clusters, levels, lit, unlit, normals, uv (default\n"
     "                        clusters)\n"
     "  --time T              models: the clip time in seconds (default 0)\n"
     "  --lod N               models: this LOD instead of the one kiln_lod_select picks\n"
     "  --camera C            models: where the camera looks from (default auto)\n"
     "  --distance F          models: the camera F times as far as the framing (default 1;\n"
     "                        0.01..1e6): LODs and cuts follow\n"
     "  --cut-distance F      virtual geometry: the cut made as from F times the framing\n"
     "                        distance, drawn from --distance (default: --distance)\n"
     "  --pixel-error P       models: the error in pixels LODs and cuts are chosen for\n"
     "                        (default 1)\n"
     "  --clip N|none         scenes: the clip posed at --time, or the rest pose (default 0)\n"
     "  --background R,G,B[,A] models: the sRGB colour behind (default 32,64,96)\n"
     "  --bounds MIN,MAX      models: frame this world box (6 numbers) instead of the model's\n",
     NULL},
    {"view", kiln_cmd_view, false,
     "usage: kiln view PATH [--view V] [--clip N|none] [--lod N]\n"
     "                 [--camera auto|front|back|left|right|top|bottom] [--size WxH]\n"
     "                 [--frames N] [--until-reload] [--screenshot FILE.png] [--keys KEYS]\n"
     "                 [--resize WxH]\n"
     "\n"
     "Opens a window (GLFW, Vulkan) on a scene, mesh or material of the project and draws it with\n"
     "kiln's renderer, as libkiln_rt loads it from the cache. PATH is a model source (its scene) or\n"
     "NAME#label (models/fox.glb#scene, models/fox.glb#mesh0/prim0, models/fox.glb#material0);\n"
     "textures are not shown (kiln thumbnail draws them). Hot reload: a `kiln import` in another\n"
     "shell that changes the asset appears in the window, with a line saying what reloaded.\n"
     "\n"
     "Controls: left drag orbits, the wheel zooms, 1-6 choose the view (lit, unlit, normals, uv,\n"
     "lod, meshlets), [ and ] force a finer or coarser LOD, A lets kiln_lod_select choose again,\n"
     "space plays or pauses the clip, C takes the next clip (after the last: the rest pose), R\n"
     "resets the camera, Esc or Q quits. The title shows the view, LOD (triangles, levels drawn),\n"
     "clip and time.\n"
     "\n"
     "  --view V             lit, unlit, normals, uv, lod or meshlets (default lit)\n"
     "  --clip N|none        the clip to play (default the first, when there is one)\n"
     "  --lod N              this LOD instead of the one kiln_lod_select picks\n"
     "  --camera C           where the camera starts (default auto)\n"
     "  --size WxH           the window's size (default 1280x720)\n"
     "for tests and scripts:\n"
     "  --frames N           exit after N frames; the clip advances 1/60 s a frame\n"
     "  --until-reload       exit once a re-import has been reloaded and drawn\n"
     "  --screenshot FILE    write the last frame as a PNG\n"
     "  --resize WxH         resize the window to WxH after the first frame\n"
     "  --keys KEYS          press these keys, one a frame from the first (1-6 [ ] a c r q,\n"
     "                       space); --json then reports the view, LOD, clip and triangles\n",
     NULL},
    {"cache", kiln_cmd_cache, true,
     "usage: kiln cache gc [--max-size SIZE]\n"
     "       kiln cache verify [--repair]\n"
     "\n"
     "gc removes entries no asset record points to, then the least recently used ones until the\n"
     "cache is at most SIZE.\n"
     "verify reads every entry and checks each output against both digests of its manifest (and\n"
     "the manifest: it parses, its key is its folder's), and every source against the digest its\n"
     "record keeps; it lists what is damaged and why, and exits 1 if anything is (and was not\n"
     "repaired).\n"
     "\n"
     "  --max-size SIZE   bytes, or with a unit: 50MB, 50MiB, 1.5G (K, M, G, T and KiB, MiB,\n"
     "                    GiB, TiB are powers of 1024; KB, MB, GB, TB powers of 1000)\n"
     "  --repair          remove each damaged entry and cook the assets that use it again (an\n"
     "                    entry no asset uses is just removed); cook again each asset whose\n"
     "                    record's digests are not its files'\n",
     NULL},
};

const kiln_cli_command *kiln_cli_command_find(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, name)) return &commands[i];
    return NULL;
}
