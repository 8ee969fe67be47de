/*
 * The C side of libfmshim declares nothing beyond fmshim.h: every function
 * is implemented in Swift (Sources/FMShim). This file makes the header a
 * C target of its own and checks the assumptions the ABI rests on.
 */
#include "fmshim.h"

_Static_assert(sizeof(int32_t) == 4, "int32_t is 4 bytes");
_Static_assert(sizeof(int64_t) == 8, "int64_t is 8 bytes");
_Static_assert(sizeof(void *) == 8, "the ABI is for 64-bit systems");
