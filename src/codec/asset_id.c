/* asset_id.c — kiln_asset_id: how artifacts name each other (shared with the runtime). */
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_state_t on the stack */
#include <xxhash.h>

#include "kiln/kiln_format.h"

KILN_API uint64_t kiln_asset_id(const char *guid, const char *label)
{
    XXH3_state_t state;
    XXH3_64bits_reset(&state);
    XXH3_64bits_update(&state, guid, strlen(guid));
    XXH3_64bits_update(&state, "#", 1);
    XXH3_64bits_update(&state, label, strlen(label));
    return XXH3_64bits_digest(&state);
}
