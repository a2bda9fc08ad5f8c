// ISA-L's raw inflate (igzip) and its version macros; nothing else of the library is used.
#include <isa-l.h>

/// The version of ISA-L's headers this build was made against (ISA-L has no run-time version call).
static inline unsigned stepimport_isal_version(void) { return ISAL_VERSION; }
