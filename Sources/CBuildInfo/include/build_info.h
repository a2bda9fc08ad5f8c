// What the build was made from, for `stepimport --version`.
#ifndef STEPIMPORT_BUILD_INFO_H
#define STEPIMPORT_BUILD_INFO_H

#ifdef __cplusplus
extern "C" {
#endif

/// The git commit the binary was built from, as `scripts/package` passes it
/// (`swift build -Xcc -DSTEPIMPORT_COMMIT='"<hash>"'`); "" for a build that did not say.
const char *stepimport_build_commit(void);

#ifdef __cplusplus
}
#endif

#endif
