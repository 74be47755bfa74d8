// Every public header at once, compiled as C++11 with -pedantic (and the project's warnings as
// errors): what an engine on an older C++ standard includes. The inline helpers are used so
// that they are compiled, not only declared.
#include "kiln/kiln.h"
#include "kiln/kiln_format.h"
#include "kiln/kiln_rt.h"
#include "kiln/kiln_scene.h"

int cxx11_handle_parts(uint64_t id, uint32_t *slot)
{
    krt_handle h;
    h.id = id;
    *slot = krt_handle_slot(h);
    return static_cast<int>(krt_handle_type(h));
}
