// Debian builds libxml2 with ICU. Its headers then pull in ICU's, which clash
// with the copy of ICU that Foundation carries. The parser API we use needs
// nothing from ICU, so hide it before the rest of libxml2 is seen.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
