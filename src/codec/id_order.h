/* id_order.h — asset ids with their places, sorted by id and then place: how the pack (which
 * artifact keeps an id) and the runtime (which repeated reference stays) find repeats in n log n
 * whatever ids a file holds. */
#ifndef KILN_CODEC_ID_ORDER_H
#define KILN_CODEC_ID_ORDER_H

#include <stddef.h>
#include <stdint.h>

typedef struct kiln_id_place {
    uint64_t id;
    size_t place;
} kiln_id_place;

/* qsort comparator: by id, then by place (so each id's first place comes first). */
int kiln_id_place_order(const void *a, const void *b);

#endif
