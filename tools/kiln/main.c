/* main.c — the kiln command: dispatch to one file per subcommand. */
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#endif
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "kiln — a game asset pipeline\n"
    "\n"
    "usage: kiln <command> [options]\n"
    "\n"
    "  import [PATH...|--all] [--force]      import sources into the cache (cached results are reused)\n"
    "         [--verbose]                    and print the warnings of cached ones again\n"
    "         [--remote-cache URL ...] [--shard I/N]\n"
    "                                        share entries through remote caches; import one shard\n"
    "  reimport PATH [--set k=v ...] [--settings JSON]\n"
    "                                        write settings into PATH.meta and process it again\n"
    "  report [--check] [--verbose]          say which assets are up to date; processes nothing\n"
    "                                        (--verbose: and which files were skipped, and why)\n"
    "  report --why [PATH...]                what changed since each stale asset's record\n"
    "  report --verify                       read every source and output again (damaged entries)\n"
    "  report --html [-o FILE]               a static page: pictures, mip chains, LODs, sizes\n"
    "  meta [PATH...|--all]                  write missing .meta files with fresh GUIDs\n"
    "  inspect FILE [--compare IMAGE]        describe an image, a KTX2 file (PSNR of level 0), a\n"
    "                                        model (.gltf, .glb, .fbx, .obj), a cooked file or a .kpak\n"
    "  texture IN OUT.ktx2 [--format F] [--quality Q] [--set texture.FIELD=V ...]\n"
    "                                        convert one image without a project (same code path)\n"
    "  model IN OUTDIR [--set model.FIELD=V ...] [--textures all|none]   (IN: .gltf .glb .fbx .obj)\n"
    "                                        cook one model into OUTDIR without a project\n"
    "  gltf IN OUT.glb|OUT.gltf [--simplify R] [--quantize] [--compress] ...\n"
    "                                        write one model as optimized glTF 2.0 (meshopt, quantized)\n"
    "  pack [-o FILE] [--all|ASSET...] [--compress none|zstd|auto] [--level N] [--align 16|4096]\n"
    "                                        pack cooked artifacts (and what they need) into one .kpak\n"
    "  pack --verify FILE                    check every checksum of a .kpak\n"
    "  watch                                 import all, then import again what changes under the\n"
    "                                        root, one line per change, until Ctrl-C (Linux)\n"
    "  thumbnail NAME#label|FILE -o OUT.png [--size N] [--level N]\n"
    "                                        draw a cooked texture headless (Vulkan) into a PNG\n"
    "  view PATH [--view V] [--clip N] [--lod N] [--camera C] [--size WxH]\n"
    "                                        a window on a scene, mesh or material (GLFW, Vulkan):\n"
    "                                        orbit, debug views, LODs, clips, hot reload\n"
    "  graph --ninja [-o FILE]               write a build.ninja: one `kiln import` edge per cache key\n"
    "  cache gc [--max-size SIZE]            remove unreferenced, then least recently used entries\n"
    "  cache verify [--repair]               check every entry against its digests; remove and\n"
    "                                        cook again what is damaged\n"
    "  help settings [GROUP] [--json]        every settings field: type, default, allowed values\n"
    "  version                               print the version\n"
    "\n"
    "kiln COMMAND --help (or -h) describes one command.\n"
    "\n" KILN_CLI_COMMON_OPTIONS
    "  -q, --quiet     errors only: no warnings, no progress, no line per asset\n"
    "\n"
    "exit status: 0 all done, 1 some assets failed (the rest were imported), 2 bad usage or settings\n";

#if defined(__linux__) && defined(M_TOP_PAD) && defined(MADV_HUGEPAGE)
/* The first 64 MiB of the heap in transparent huge pages where the kernel allows them on
 * request (THP "madvise", Debian's default): a cook touches tens of megabytes of fresh heap,
 * and 4 KiB pages cost a fault and a TLB entry each (SheenCloth's geometry cook: 5,700 faults
 * and 9 % more CPU time than with huge pages, which take 550). The heap grows by that much once;
 * pages are still only committed when touched (a few MiB more resident). Memory the heap takes
 * beyond it, and other threads' arenas, keep normal pages. Only commands with a big heap call it:
 * those that cook, and report, which holds every asset of the project at once (5,000 assets:
 * 4,200 faults and 91 ms of CPU in 4 KiB pages, 470 and 47 ms in huge ones). */
static void heap_in_huge_pages(void)
{
    const uintptr_t huge = (uintptr_t)2 << 20;
    mallopt(M_TOP_PAD, 64 << 20);
    /* Larger than what start-up left on top of the heap, so the heap grows now (by the pad). */
    void *first = malloc(1 << 20);
    uintptr_t lo = ((uintptr_t)first + huge - 1) & ~(huge - 1),
              hi = (uintptr_t)sbrk(0) & ~(huge - 1);
    if (first && hi > lo)
        madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* advice: failure is harmless */
    free(first);
    mallopt(M_TOP_PAD, 128 << 10); /* glibc's default again */
}
#endif

int main(int argc, char **argv)
{
#ifdef M_MMAP_THRESHOLD
    /* A cook allocates and frees arrays of megabytes many times over. glibc would map each one
     * afresh and give the pages back on free, so every pass paid page faults and zeroing in the
     * kernel again (a tenth of a large model's cook): keep freed memory in the process instead.
     * Process-wide, so the command sets it, not the library. */
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif

    if (argc > 2 && !strcmp(argv[1], "help")) return kiln_cmd_help(argc - 1, argv + 1);
    if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
        !strcmp(argv[1], "-h")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? KILN_EXIT_USAGE : KILN_EXIT_OK;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        unsigned v = kiln_version();
        printf("kiln %u.%u.%u (pipeline %d)\n", v / 10000, v / 100 % 100, v % 100,
               KILN_PIPELINE_VERSION);
        return KILN_EXIT_OK;
    }
    const kiln_cli_command *command = kiln_cli_command_find(cmd);
    if (command) {
        /* COMMAND --help / -h anywhere: its usage, options and settings; exit 0. */
        if (kiln_cli_wants_help(argc - 1, argv + 1)) return kiln_cli_print_command_help(cmd);
#if defined(__linux__) && defined(M_TOP_PAD) && defined(MADV_HUGEPAGE)
        /* Only for the commands with a big heap (the others would pay a huge page's zeroing). */
        if (command->big_heap) heap_in_huge_pages();
#endif
        return command->run(argc - 1, argv + 1);
    }
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            kiln_cli c = {.command = cmd, .json = true};
            kiln_error e = {.code = KILN_E_USAGE};
            snprintf(e.message, sizeof e.message, "unknown command '%.100s'", cmd);
            return kiln_cli_fail(&c, KILN_E_USAGE, &e);
        }
    }
    fprintf(stderr, "kiln: unknown command '%s'\n\n%s", cmd, usage);
    return KILN_EXIT_USAGE;
}
