/* id_order.c — the order of id_order.h. */
#include "codec/id_order.h"

int kiln_id_place_order(const void *a, const void *b)
{
    const kiln_id_place *x = a, *y = b;
    if (x->id != y->id) return x->id < y->id ? -1 : 1;
    return x->place < y->place ? -1 : x->place > y->place;
}
