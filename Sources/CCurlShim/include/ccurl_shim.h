// Typed wrappers for libcurl's variadic calls, which Swift cannot call.
//
// curl_easy_setopt and curl_easy_getinfo take their value through `...`, so the C compiler
// cannot check that the value matches the option. Each wrapper here takes one value type
// and refuses (CURLE_BAD_FUNCTION_ARGUMENT) an option or info of another type, instead of
// letting libcurl read a long where it expects a pointer.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <curl/curl.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Runs curl_global_init(CURL_GLOBAL_DEFAULT) once per process and returns its result,
/// the same result on every later call. Safe to call from several threads at once.
CURLcode ccurl_global_init_once(void);

/// curl_easy_setopt for options that take a `long` (CURLOT_LONG, CURLOT_VALUES).
CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);

/// curl_easy_setopt for options that take a `curl_off_t` (CURLOT_OFF_T).
CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);

/// curl_easy_setopt for options that take a NUL-terminated string (CURLOT_STRING).
/// libcurl copies the string, except for CURLOPT_POSTFIELDS, which this refuses:
/// use CURLOPT_COPYPOSTFIELDS.
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);

/// curl_easy_setopt for options that take an object or a callback's context pointer
/// (CURLOT_OBJECT, CURLOT_CBPTR), such as CURLOPT_CURLU, CURLOPT_ERRORBUFFER, CURLOPT_WRITEDATA.
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);

/// curl_easy_setopt for options that take a `struct curl_slist *` (CURLOT_SLIST).
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);

/// The signature shared by CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);

/// curl_easy_setopt for CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION only: the other
/// function options have other signatures.
CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback);

/// curl_easy_getinfo for infos that give a `long` (CURLINFO_LONG).
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);

/// curl_easy_getinfo for infos that give a string (CURLINFO_STRING). The string belongs
/// to the handle and may be NULL.
CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, const char **value);

/// curl_easy_getinfo for infos that give a `curl_off_t` (CURLINFO_OFF_T).
CURLcode ccurl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value);

#ifdef __cplusplus
}
#endif

#endif
