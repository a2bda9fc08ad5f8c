#include <pthread.h>

#include <curl/curl.h>
#include <curl/options.h>

#include "ccurl_shim.h"

static pthread_once_t global_init_once = PTHREAD_ONCE_INIT;
static CURLcode global_init_result = CURLE_FAILED_INIT;

static void global_init(void) {
    global_init_result = curl_global_init(CURL_GLOBAL_DEFAULT);
}

CURLcode ccurl_global_init_once(void) {
    if (pthread_once(&global_init_once, global_init) != 0) {
        return CURLE_FAILED_INIT;
    }
    return global_init_result;
}

// Whether libcurl documents `option` as taking a value of `type` (or `other_type`).
static int option_takes(CURLoption option, curl_easytype type, curl_easytype other_type) {
    const struct curl_easyoption *description = curl_easy_option_by_id(option);
    return description != NULL && (description->type == type || description->type == other_type);
}

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value) {
    if (!option_takes(option, CURLOT_LONG, CURLOT_VALUES)) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl_easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    if (!option_takes(option, CURLOT_OFF_T, CURLOT_OFF_T)) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl_easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    // CURLOPT_POSTFIELDS keeps the caller's pointer instead of copying it.
    if (option == CURLOPT_POSTFIELDS || !option_takes(option, CURLOT_STRING, CURLOT_STRING)) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl_easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    if (!option_takes(option, CURLOT_OBJECT, CURLOT_CBPTR)) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl_easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    if (!option_takes(option, CURLOT_SLIST, CURLOT_SLIST)) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl_easy_setopt(handle, option, value);
}

CURLcode ccurl_setopt_data_callback(CURL *handle, CURLoption option, ccurl_data_callback callback) {
    if (option != CURLOPT_WRITEFUNCTION && option != CURLOPT_HEADERFUNCTION) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl_easy_setopt(handle, option, callback);
}

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    if ((info & CURLINFO_TYPEMASK) != CURLINFO_LONG) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl_easy_getinfo(handle, info, value);
}

CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    if ((info & CURLINFO_TYPEMASK) != CURLINFO_STRING) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    // libcurl's prototype says `char **`; the string is the handle's and must not be changed.
    return curl_easy_getinfo(handle, info, (char **)value);
}

CURLcode ccurl_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *value) {
    if ((info & CURLINFO_TYPEMASK) != CURLINFO_OFF_T) {
        return CURLE_BAD_FUNCTION_ARGUMENT;
    }
    return curl_easy_getinfo(handle, info, value);
}
