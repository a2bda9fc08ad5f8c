// Placeholder: the libcurl shim is being written.
#include <curl/curl.h>
