/* support.h — helpers shared by kiln's tests: temporary folders, files, the corpus. */
#ifndef KILN_TEST_SUPPORT_H
#define KILN_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* cmocka needs these included first */
#include <cmocka.h>

#include "kiln/kiln_format.h"

/* A fresh empty folder under $TMPDIR (or /tmp); the path is malloc'd. Removed by
 * kt_rmtree(). Fails the test when it cannot be made. */
char *kt_tempdir(const char *tag);
void kt_rmtree(const char *path);

/* Whole file into malloc'd memory (size out), followed by a zero byte not counted in size (a
 * text file can be used as a C string); NULL if it cannot be read. */
void *kt_read_file(const char *path, size_t *size);
/* Writes bytes, creating parent folders; fails the test on error. */
void kt_write_file(const char *path, const void *data, size_t size);
int kt_file_exists(const char *path);

/* Encodes 8-bit pixels (channels 3 = RGB or 4 = RGBA, rows tightly packed) as a PNG with
 * libspng's encoder and writes it; fails the test on error. */
void kt_write_png(const char *path, const uint8_t *pixels, uint32_t w, uint32_t h, int channels);

/* $KILN_CORPUS/<rel>, malloc'd, or NULL when the corpus is absent (the caller skips). */
char *kt_corpus_path(const char *rel);
/* Exits the test program with 77 (CTest's skip) and a message when the corpus is absent. */
void kt_require_corpus(void);

/* Compares bytes with the pinned file tests/golden/<name> (under $KILN_SOURCE_DIR), failing
 * the test at the first differing byte; with KILN_GOLDEN_UPDATE=1 writes the file instead
 * (`make golden-update`, then review the diff). */
void kt_check_golden(const char *name, const void *bytes, size_t size);

/* Writes a correct checksum into a kiln container whose bytes a test changed, so that only the
 * structure checks of a reader can catch the change (docs/formats.md: XXH3-64 of the file with
 * bytes 24..31 taken as zeros). size is at least the 64-byte header. */
void kt_container_reseal(uint8_t *bytes, size_t size);

/* The damage every kiln container reader must notice: every single-bit flip of bytes (a valid
 * container of size bytes, restored on return) is refused with KILN_E_FORMAT_INVALID or
 * KILN_E_FORMAT_VERSION; the same flip past the container header with the checksum resealed is
 * either refused or reads back to a view `check` accepts; every truncation is
 * KILN_E_FORMAT_INVALID and the whole reads. read(user, bytes, size) reads into the caller's
 * view, check(user) checks it (fails the test on a broken promise). Returns the counts of
 * resealed flips refused and accepted. */
typedef struct kt_flip_counts {
    size_t refused, accepted;
} kt_flip_counts;
kt_flip_counts kt_container_flips(uint8_t *bytes, size_t size,
                                  kiln_result (*read)(void *user, const uint8_t *b, size_t n),
                                  void (*check)(void *user), void *user);

/* Every .gltf and .glb below dir (recursively; entries starting with '.' skipped), as
 * "<dir>/<relative path>" strings sorted bytewise, malloc'd; free with kt_paths_free. A folder
 * that cannot be read fails the test. */
char **kt_gltf_files(const char *dir, size_t *count);
void kt_paths_free(char **paths, size_t count);

/* printf into a malloc'd string. */
char *kt_format(const char *fmt, ...);

/* Runs a shell command, capturing stdout (malloc'd, may be NULL) and returning the exit
 * status (-1 if it could not run). */
int kt_run(const char *cmd, char **out);

/* Opens the project at dir (its assets/ the root, the cache in .kiln) and imports every asset
 * with 2 jobs, as `kiln import --all` does; fails the test, printing the import's error and
 * document, unless the import succeeds. */
void kt_import_all(const char *dir);

/* Runs cmd (examples/validate_gltf.mjs with the files to check) and fails the test unless the
 * Khronos glTF Validator reports 0 errors for each of the `files` outputs; prints a skip notice
 * when node or tests/node's gltf-validator is missing. */
void kt_gltf_validate(const char *cmd, size_t files);

#endif
