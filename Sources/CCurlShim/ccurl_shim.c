#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>
#include <curl/options.h>

#include "ccurl_shim.h"

// The libcurl functions used, found by dlsym once `load` opened the library.
static struct {
    CURLcode (*global_init)(long flags);
    char *(*version)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    const struct curl_easyoption *(*easy_option_by_id)(CURLoption id);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *handle);
    CURLUcode (*url_set)(CURLU *handle, CURLUPart part, const char *content, unsigned int flags);
    CURLUcode (*url_get)(CURLU *handle, CURLUPart part, char **content, unsigned int flags);
    const char *(*url_strerror)(CURLUcode code);
    void (*free)(void *pointer);
} curl;

// `tried` and `load_error` are written under `load_lock`, once; `loaded` is set (release) after
// every field of `curl` is, so a wrapper that reads it (acquire) sees them all.
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int tried = 0;
static atomic_int loaded = 0;
static char load_error[512] = "";

static int ready(void) {
    return atomic_load_explicit(&loaded, memory_order_acquire);
}

static void load(const char *path) {
    const char *name = path != NULL && path[0] != '\0' ? path : "libcurl.so.4";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why != NULL ? why : name);
        return;
    }
    // POSIX lets a dlsym result be stored as a function pointer through its bytes.
#define FIND(field, symbol)                                                                    \
    do {                                                                                       \
        void *found = dlsym(library, symbol);                                                  \
        if (found == NULL) {                                                                   \
            snprintf(load_error, sizeof load_error, "%s has no %s (libcurl 7.80 or later is needed)", name, symbol); \
            memset(&curl, 0, sizeof curl);                                                     \
            dlclose(library);                                                                  \
            return;                                                                            \
        }                                                                                      \
        memcpy(&curl.field, &found, sizeof found);                                             \
    } while (0)
    FIND(global_init, "curl_global_init");
    FIND(version, "curl_version");
    FIND(easy_init, "curl_easy_init");
    FIND(easy_cleanup, "curl_easy_cleanup");
    FIND(easy_reset, "curl_easy_reset");
    FIND(easy_perform, "curl_easy_perform");
    FIND(easy_strerror, "curl_easy_strerror");
    FIND(easy_setopt, "curl_easy_setopt");
    FIND(easy_getinfo, "curl_easy_getinfo");
    FIND(easy_option_by_id, "curl_easy_option_by_id");
    FIND(slist_append, "curl_slist_append");
    FIND(slist_free_all, "curl_slist_free_all");
    FIND(url, "curl_url");
    FIND(url_cleanup, "curl_url_cleanup");
    FIND(url_set, "curl_url_set");
    FIND(url_get, "curl_url_get");
    FIND(url_strerror, "curl_url_strerror");
    FIND(free, "curl_free");
#undef FIND
    atomic_store_explicit(&loaded, 1, memory_order_release);
}

int ccurl_load(const char *path) {
    pthread_mutex_lock(&load_lock);
    if (!tried) {
        tried = 1;
        load(path);
    }
    pthread_mutex_unlock(&load_lock);
    return ready() ? 0 : -1;
}

const char *ccurl_load_error(void) {
    pthread_mutex_lock(&load_lock);
    const char *why = load_error;
    pthread_mutex_unlock(&load_lock);
    return why;
}

static pthread_once_t global_init_once = PTHREAD_ONCE_INIT;
static CURLcode global_init_result = CURLE_FAILED_INIT;

static void global_init(void) {
    if (ready()) {
        global_init_result = curl.global_init(CURL_GLOBAL_DEFAULT);
    }
}

CURLcode ccurl_global_init_once(void) {
    if (pthread_once(&global_init_once, global_init) != 0) {
        return CURLE_FAILED_INIT;
    }
    return global_init_result;
}

const char *ccurl_version(void) {
    return ready() ? curl.version() : NULL;
}

CURL *ccurl_easy_init(void) {
    return ready() ? curl.easy_init() : NULL;
}

void ccurl_easy_cleanup(CURL *handle) {
    if (ready()) {
        curl.easy_cleanup(handle);
    }
}

void ccurl_easy_reset(CURL *handle) {
    if (ready()) {
        curl.easy_reset(handle);
    }
}

CURLcode ccurl_easy_perform(CURL *handle) {
    return ready() ? curl.easy_perform(handle) : CURLE_FAILED_INIT;
}

const char *ccurl_easy_strerror(CURLcode code) {
    return ready() ? curl.easy_strerror(code) : "libcurl could not be loaded";
}

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line) {
    return ready() ? curl.slist_append(list, line) : NULL;
}

void ccurl_slist_free_all(struct curl_slist *list) {
    if (ready()) {
        curl.slist_free_all(list);
    }
}

CURLU *ccurl_url(void) {
    return ready() ? curl.url() : NULL;
}

void ccurl_url_cleanup(CURLU *handle) {
    if (ready()) {
        curl.url_cleanup(handle);
    }
}

CURLUcode ccurl_url_set(CURLU *handle, CURLUPart part, const char *content, unsigned int flags) {
    return ready() ? curl.url_set(handle, part, content, flags) : CURLUE_OUT_OF_MEMORY;
}

CURLUcode ccurl_url_get(CURLU *handle, CURLUPart part, char **content, unsigned int flags) {
    return ready() ? curl.url_get(handle, part, content, flags) : CURLUE_OUT_OF_MEMORY;
}

const char *ccurl_url_strerror(CURLUcode code) {
    return ready() ? curl.url_strerror(code) : "libcurl could not be loaded";
}

void ccurl_free(void *pointer) {
    if (ready()) {
        curl.free(pointer);
    }
}

// Whether libcurl documents `option` as taking a value of `type` (or `other_type`).
static int option_takes(CURLoption option, curl_easytype type, curl_easytype other_type) {
    if (!ready()) {
        return 0;
    }
    const struct curl_easyoption *description = curl.easy_option_by_id(option);
    return description != NULL && (description->type == type || description->type == other_type);
}

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    if (!option_takes(option, CURLOT_LONG, CURLOT_VALUES)) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    if (!option_takes(option, CURLOT_OFF_T, CURLOT_OFF_T)) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    // CURLOPT_POSTFIELDS keeps the caller's pointer instead of copying it.
    if (option == CURLOPT_POSTFIELDS || !option_takes(option, CURLOT_STRING, CURLOT_STRING)) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    if (!option_takes(option, CURLOT_OBJECT, CURLOT_CBPTR)) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    if (!option_takes(option, CURLOT_SLIST, CURLOT_SLIST)) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl.easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback) {
    if (!ready()) {
        return CURLE_FAILED_INIT;
    }
    if (option != CURLOPT_WRITEFUNCTION && option != CURLOPT_HEADERFUNCTION) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl.easy_setopt(handle, option, callback);
}

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    if (!ready()) {
        return CURLE_FAILED_INIT;
    }
    if ((info & CURLINFO_TYPEMASK) != CURLINFO_LONG) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl.easy_getinfo(handle, info, value);
}

CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    if (!ready()) {
        return CURLE_FAILED_INIT;
    }
    if ((info & CURLINFO_TYPEMASK) != CURLINFO_STRING) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    // libcurl's prototype says `char **`; the string is the handle's and must not be changed.
    return curl.easy_getinfo(handle, info, (char **)value);
}

CURLcode ccurl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    if (!ready()) {
        return CURLE_FAILED_INIT;
    }
    if ((info & CURLINFO_TYPEMASK) != CURLINFO_OFF_T) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl.easy_getinfo(handle, info, value);
}
