#include "ccurl_shim.h"
