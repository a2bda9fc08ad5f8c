// libcurl, loaded when first needed, and typed wrappers for its variadic calls, which Swift
// cannot call.
//
// libcurl is not linked: it is opened with dlopen by `ccurl_load`, which the caller calls before
// any other function here, so that the commands that send nothing do not load it and the thirty
// libraries it brings (TLS, Kerberos, LDAP, ...): they cost about 6 ms at every start.
// Swift calls libcurl only through these `ccurl_` functions; before libcurl is loaded, or when
// it cannot be, each returns its failure value (NULL, CURLE_FAILED_INIT, CURLUE_OUT_OF_MEMORY).
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

/// Loads libcurl once per process from `path` (a file name or path for dlopen; NULL or "" for
/// `libcurl.so.4`): the first call loads, and later calls return its result whatever their path.
/// 0 when it is loaded with every function used here, -1 when not (`ccurl_load_error` says
/// why). Safe to call from several threads at once.
int ccurl_load(const char *path);

/// Why `ccurl_load` failed (dlopen's or dlsym's words); empty when it did not, or before it ran.
const char *ccurl_load_error(void);

/// Runs curl_global_init(CURL_GLOBAL_DEFAULT) once per process and returns its result,
/// the same result on every later call; CURLE_FAILED_INIT when libcurl is not loaded.
/// Safe to call from several threads at once.
CURLcode ccurl_global_init_once(void);

/// libcurl's functions of the same names without the first `c`.
const char *ccurl_version(void);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
void ccurl_easy_reset(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line);
void ccurl_slist_free_all(struct curl_slist *list);
CURLU *ccurl_url(void);
void ccurl_url_cleanup(CURLU *handle);
CURLUcode ccurl_url_set(CURLU *handle, CURLUPart part, const char *content, unsigned int flags);
CURLUcode ccurl_url_get(CURLU *handle, CURLUPart part, char **content, unsigned int flags);
const char *ccurl_url_strerror(CURLUcode code);
void ccurl_free(void *pointer);

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
