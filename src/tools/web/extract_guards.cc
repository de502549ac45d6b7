// SPDX-License-Identifier: MIT
#include "tools/web/extract_guards.h"

#include "core/redact.h"
#include "core/strings.h"
#include "web/url.h"

#include <re2/re2.h>

#include <array>

namespace hermes::web_tools {
namespace {

constexpr std::array<std::string_view, 20> kSensitiveParams = {"access_token",
                                                               "api_key",
                                                               "apikey",
                                                               "auth_token",
                                                               "authorization",
                                                               "awsaccesskeyid",
                                                               "client_secret",
                                                               "credential",
                                                               "credentials",
                                                               "jwt",
                                                               "password",
                                                               "passwd",
                                                               "secret",
                                                               "session_id",
                                                               "signature",
                                                               "token",
                                                               "x_amz_security_token",
                                                               "x_amz_signature",
                                                               "x-amz-security-token",
                                                               "x-amz-signature"};

bool has_token(const std::string& text) {
  return redact_secrets(text, {RedactMode::kOutput, false}) != text;
}

// The first query parameter with a value whose name is sensitive, as written.
std::optional<std::string> sensitive_param(const std::string& url) {
  size_t q = url.find('?');
  if (q == std::string::npos) return std::nullopt;
  std::string query = url.substr(q + 1, url.find('#', q) - q - 1);
  for (const std::string& pair : split(query, '&')) {
    size_t eq = pair.find('=');
    if (eq == std::string::npos || eq + 1 >= pair.size()) continue;
    std::string name = pair.substr(0, eq);
    std::string key = to_lower(web::percent_decode(name));
    if (std::find(kSensitiveParams.begin(), kSensitiveParams.end(), key) != kSensitiveParams.end())
      return name;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> secret_in_url(const std::string& raw, const std::string& normalized) {
  for (const std::string& form :
       {raw, web::percent_decode(raw), normalized, web::percent_decode(normalized)}) {
    if (has_token(form))
      return "Blocked: URL contains what appears to be an API key or token. Secrets must not be "
             "sent in URLs.";
  }
  if (auto name = sensitive_param(raw)) {
    return "Blocked: URL contains a credential-like query parameter (" + *name +
           "). Web extract backends are third-party readers; remove the sensitive query parameter "
           "or use a local "
           "browser session when this access is explicitly required.";
  }
  return std::nullopt;
}

std::string replace_inline_images(const std::string& text) {
  if (text.find("data:image/") == std::string::npos) return text;
  static const RE2 kWithAlt(R"(!\[([^\]]*)\]\(\s*data:image/[^;]+;base64,[A-Za-z0-9+/=\s]+\))");
  static const RE2 kParenthesised(R"(\(\s*data:image/[^;]+;base64,[A-Za-z0-9+/=\s]+\))");
  static const RE2 kBare(R"(data:image/[^;]+;base64,[A-Za-z0-9+/=]+)");
  std::string out;
  size_t pos = 0;
  re2::StringPiece m[2];
  while (pos <= text.size() && kWithAlt.Match(text, pos, text.size(), RE2::UNANCHORED, m, 2)) {
    size_t start = static_cast<size_t>(m[0].data() - text.data());
    out.append(text, pos, start - pos);
    std::string label = trim(std::string_view(m[1].data(), m[1].size()));
    out += label.empty() ? "[IMAGE]" : "[IMAGE: " + label + "]";
    pos = start + m[0].size();
  }
  out.append(text, std::min(pos, text.size()), std::string::npos);
  RE2::GlobalReplace(&out, kParenthesised, "[IMAGE]");
  RE2::GlobalReplace(&out, kBare, "[IMAGE]");
  return out;
}

}  // namespace hermes::web_tools
