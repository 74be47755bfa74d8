/* rt_verify.c — one error code for "these are not the bytes that were recorded", whichever
 * check found it. The format readers report a container or pack checksum mismatch as
 * KILN_E_FORMAT_INVALID, like any malformed field (the cook relies on that); the runtime tells
 * the two apart after a reader failed by recomputing the checksum the reader checks: when it
 * does not match, the bytes were damaged after they were written (KILN_E_CACHE_CORRUPT, naming
 * the check and the file or entry); when it matches, the file was written malformed and the
 * reader's KILN_E_FORMAT_INVALID stands. Manifest digests and sizes are checked as
 * KILN_E_CACHE_CORRUPT where they are read (rt_decode.c). Only failure paths come here. */
#include <string.h>

#include "core/error.h"
#include "core/hash.h"
#include "core/reader.h"
#include "runtime/rt_context.h"

kiln_result krt_verify_classify(const krt_asset *a, const krt_source *src, bool verify,
                                kiln_result r, kiln_error *e)
{
    if (r != KILN_E_FORMAT_INVALID) return r;
    if (src->pack) {
        /* The stored bytes' XXH3-64 is what the packer recorded. A payload that matches it but
         * does not decompress, or decompresses to other bytes than its checksum, was written
         * that way: malformed. */
        kiln_pack_entry pe = kiln_pack_entry_at(src->pack, src->entry);
        if (!pe.stored || kiln_xxh3_64(pe.stored, pe.stored_size) == pe.stored_checksum) return r;
        /* the entry first: a long pack path would cut it off (err->path has the pack) */
        kiln_error_set(e, KILN_E_CACHE_CORRUPT,
                       "pack entry %.*s (%016llx): its stored bytes do not match their XXH3-64: "
                       "the pack %s is damaged",
                       (int)(pe.name_size > 120 ? 120 : pe.name_size), pe.name,
                       (unsigned long long)pe.asset_id, src->path);
        kiln_error_at_path(e, src->path);
        kiln_error_at_offset(e, pe.offset);
        return KILN_E_CACHE_CORRUPT;
    }
    /* A loose container (files of kinds without a checksum of their own, KTX2, are checked
     * against the manifest's digest before they are parsed). Without verification the checksum
     * is not part of the contract. */
    const uint8_t *p = a->dec.file;
    size_t size = a->dec.file_size;
    if (!verify || (a->ops->flags & KRT_TYPE_OPS_DIGEST) || !p ||
        size < KILN_CONTAINER_HEADER_SIZE || memcmp(p, "KILN", 4) != 0 ||
        kiln_load_u32le(p + 4) != KILN_CONTAINER_VERSION ||
        kiln_xxh3_64_field_zeroed(p, size, 24) == kiln_load_u64le(p + 24))
        return r;
    kiln_error_set(e, KILN_E_CACHE_CORRUPT,
                   "%s: the container checksum (XXH3-64) does not match its bytes: the file is "
                   "damaged",
                   src->path);
    kiln_error_at_path(e, src->path);
    kiln_error_at_offset(e, 24);
    return KILN_E_CACHE_CORRUPT;
}

kiln_result krt_verify_classify_pack(const krt_pack_mount *pm, const char *path, kiln_result r,
                                     kiln_error *e)
{
    if (r != KILN_E_FORMAT_INVALID) return r;
    const uint8_t *p = pm->map.data;
    size_t size = pm->map.size;
    if (!p || size < KILN_PACK_HEADER_SIZE || memcmp(p, "KPAK", 4) != 0 ||
        kiln_load_u32le(p + 4) != KILN_PACK_VERSION)
        return r;
    uint64_t data_offset = kiln_load_u64le(p + 40); /* the checksum covers [0, data_offset) */
    if (data_offset < KILN_PACK_HEADER_SIZE || data_offset > size ||
        kiln_xxh3_64_field_zeroed(p, (size_t)data_offset, 48) == kiln_load_u64le(p + 48))
        return r;
    kiln_error_set(e, KILN_E_CACHE_CORRUPT,
                   "%s: the table of contents' checksum (XXH3-64) does not match its bytes: the "
                   "pack is damaged",
                   path);
    kiln_error_at_path(e, path);
    kiln_error_at_offset(e, 48);
    return KILN_E_CACHE_CORRUPT;
}
