/* A C target needs a source file; everything is in include/fmshim_build_info.h. */
#include "fmshim_build_info.h"
