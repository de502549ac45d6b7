// SPDX-License-Identifier: MIT
// libcurl, loaded on first use rather than at start. Linked directly it
// brought some 25 shared libraries (GnuTLS, Kerberos, LDAP, libssh2, …) into
// every process and ran their initialisers: about 4 MB of a server's 13 MB
// resident set before any call, for tools most sessions never use. The web
// tools reach libcurl only through this table.
#pragma once

#include <curl/curl.h>

namespace hermes::web {

struct CurlLibrary {
  CURL* (*easy_init)();
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...);
  CURLcode (*easy_perform)(CURL*);
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...);
  void (*easy_cleanup)(CURL*);
  const char* (*easy_strerror)(CURLcode);
  curl_slist* (*slist_append)(curl_slist*, const char*);
  void (*slist_free_all)(curl_slist*);
  CURLU* (*url)();
  void (*url_cleanup)(CURLU*);
  CURLUcode (*url_get)(const CURLU*, CURLUPart, char**, unsigned int);
  CURLUcode (*url_set)(CURLU*, CURLUPart, const char*, unsigned int);
  void (*free)(void*);
};

// The library, loaded and globally initialised once (thread-safe); nullptr
// when it cannot be loaded (then every fetch fails and no URL parses).
const CurlLibrary* curl_library();

}  // namespace hermes::web
