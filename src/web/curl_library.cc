// SPDX-License-Identifier: MIT
#include "web/curl_library.h"

#include "core/log.h"

#include <dlfcn.h>

#include <mutex>

namespace hermes::web {
namespace {

// Every symbol is looked up; a missing one leaves the library unusable.
template <typename Fn>
bool bind(void* handle, Fn& slot, const char* name) {
  slot = reinterpret_cast<Fn>(::dlsym(handle, name));
  return slot != nullptr;
}

bool bind_all(void* h, CurlLibrary& c) {
  return bind(h, c.easy_init, "curl_easy_init") && bind(h, c.easy_setopt, "curl_easy_setopt") &&
         bind(h, c.easy_perform, "curl_easy_perform") &&
         bind(h, c.easy_getinfo, "curl_easy_getinfo") &&
         bind(h, c.easy_cleanup, "curl_easy_cleanup") &&
         bind(h, c.easy_strerror, "curl_easy_strerror") &&
         bind(h, c.slist_append, "curl_slist_append") &&
         bind(h, c.slist_free_all, "curl_slist_free_all") && bind(h, c.url, "curl_url") &&
         bind(h, c.url_cleanup, "curl_url_cleanup") && bind(h, c.url_get, "curl_url_get") &&
         bind(h, c.url_set, "curl_url_set") && bind(h, c.free, "curl_free");
}

const CurlLibrary* load() {
  static CurlLibrary library{};
  void* handle = ::dlopen(HERMES_CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
  CURLcode (*global_init)(long) = nullptr;
  if (!handle || !bind_all(handle, library) || !bind(handle, global_init, "curl_global_init")) {
    const char* why = ::dlerror();
    log::warn(std::string("web tools unavailable: cannot load " HERMES_CURL_SONAME ": ") +
              (why ? why : "a symbol is missing"));
    return nullptr;
  }
  // Kept loaded for the process's life (never dlclose'd).
  if (global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return nullptr;
  return &library;
}

}  // namespace

const CurlLibrary* curl_library() {
  static std::once_flag once;
  static const CurlLibrary* library = nullptr;
  std::call_once(once, [] { library = load(); });
  return library;
}

}  // namespace hermes::web
