/* uri.h — the URIs a glTF file uses for its buffers and images (glTF 2.0 §3.10): data URIs
 * decoded into bytes, and relative references resolved to files confined to the glTF's folder. */
#ifndef KILN_IMPORT_URI_H
#define KILN_IMPORT_URI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_format.h"

/* Longest text that is quoted from a URI in an error message (data URIs can be megabytes). */
#define KILN_URI_QUOTE_MAX 120

/* Is uri a data URI ("data:" prefix, scheme compared case-insensitively, RFC 3986 §3.1)? */
bool kiln_uri_is_data(const char *uri);

/* Decodes %XX escapes (RFC 3986 §2.1; hex digits of either case); every other byte, raw spaces
 * and UTF-8 included, is copied as it is. out may be in (the result is never longer). out_size
 * must hold the result and its NUL; strlen(in) + 1 always suffices.
 * Errors: KILN_E_IMPORT_FAILED naming the URI for a '%' not followed by two hex digits and for
 * "%00" (a decoded NUL would cut the name short); KILN_E_LIMIT when out is too small. */
kiln_result kiln_uri_percent_decode(const char *in, char *out, size_t out_size, kiln_error *err);

/* Decodes a data URI (RFC 2397): "data:[<mediatype>][;base64],<data>".
 * - base64 data (RFC 4648 §4 alphabet) is strict: any other byte (whitespace, '-', '_', '%'),
 *   '=' anywhere but the last one or two places of the last 4-character group, a final group of
 *   a single character, and non-zero unused bits in the last character are all refused. The one
 *   leniency: the final '=' padding may be left out ("Zm8" reads as "fo").
 * - other data is percent-decoded; there "%00" is a valid zero byte.
 * The decoded size is computed first and checked against max_size before anything is
 * allocated, so an oversized URI costs no memory (0 permits only empty data).
 * On success *data holds exactly *size bytes allocated from a (NULL = libc); the caller frees
 * them with kiln_free(a, *data, *size) — that same size. Empty data gives *data = NULL and
 * *size = 0 (kiln_free of NULL is a no-op).
 * media_type (may be NULL when media_type_size is 0) receives the type/subtype without
 * parameters, lower-cased ("image/png"); "text/plain" when the URI names none (RFC 2397 §2).
 * Errors: KILN_E_USAGE (uri is not a data URI), KILN_E_IMPORT_FAILED naming the URI (no ',',
 * bad base64, bad escape), KILN_E_LIMIT (larger than max_size, or media type longer than
 * media_type_size - 1), KILN_E_OUT_OF_MEMORY. On failure *data is NULL and *size 0. */
kiln_result kiln_uri_decode_data(const char *uri, size_t max_size, const kiln_allocator *a,
                                 uint8_t **data, size_t *size, char *media_type,
                                 size_t media_type_size, kiln_error *err);

/* Resolves a relative URI reference from a .gltf (a buffer or image file) to the real path of
 * the file, which must lie inside base_dir (the glTF's folder). uri is refused when it has a
 * scheme ("http:", "file:", "data:", "C:", any [a-zA-Z][a-zA-Z0-9+.-]*: before the first '/'),
 * a query or fragment (a raw '?' or '#'; "%3F" is a literal '?' in a file name), a backslash
 * (raw or decoded), is empty or absolute ("/..." or "//host/...") after percent-decoding, names
 * base_dir itself or a folder ("a/"), or leads outside base_dir — lexically ("../x",
 * "a/../../x") or through a symlink — comparing both with symlinks resolved (kiln_path_resolve).
 * ".." that stays inside ("a/../b") is fine. Raw spaces and UTF-8 are accepted.
 * base_dir may be relative (to the current folder). out receives the resolved absolute path:
 * open that one, not a re-join, so what is opened is what was checked (a later symlink swap in
 * the tree is not guarded against). The file need not exist yet.
 * Errors: KILN_E_OUTPUT_REFUSED naming the URI for every refusal above; KILN_E_IMPORT_FAILED
 * for a bad percent escape; KILN_E_LIMIT when a path does not fit out_size or KILN_PATH_MAX;
 * KILN_E_ASSET_IO when base_dir cannot be resolved. */
kiln_result kiln_uri_resolve_file(const char *base_dir, const char *uri, char *out, size_t out_size,
                                  kiln_error *err);

#endif
