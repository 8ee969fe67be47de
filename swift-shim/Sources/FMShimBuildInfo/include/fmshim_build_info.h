/*
 * Not part of the ABI: what the C compiler saw when the package was built,
 * for the package's own tests. The shim library does not contain it.
 */
#ifndef FMSHIM_BUILD_INFO_H
#define FMSHIM_BUILD_INFO_H

#include <stdint.h>
#if defined(__APPLE__)
#include <Availability.h>
#endif

/* The newest macOS the SDK in use declares, as 260400 for 26.4; 0 outside Apple's SDKs. */
static inline int32_t fmshim_build_sdk_version(void) {
#ifdef __MAC_OS_X_VERSION_MAX_ALLOWED
    return __MAC_OS_X_VERSION_MAX_ALLOWED;
#else
    return 0;
#endif
}

#endif /* FMSHIM_BUILD_INFO_H */
