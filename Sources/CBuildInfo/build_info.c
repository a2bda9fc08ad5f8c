#include "build_info.h"

#ifndef STEPIMPORT_COMMIT
#define STEPIMPORT_COMMIT ""
#endif

const char *stepimport_build_commit(void) {
    return STEPIMPORT_COMMIT;
}
