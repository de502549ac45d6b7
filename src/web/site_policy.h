// SPDX-License-Identifier: MIT
// The website blocklist (`security.website_blocklist`): hosts the user does
// not want any web tool to read, whichever backend would fetch them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes {
class Config;
}  // namespace hermes

namespace hermes::web {

struct PolicyBlock {
  std::string host;
  std::string rule;
  std::string source;  // `config` or the rule file's absolute path

  std::string message() const;
};

class SitePolicy {
 public:
  SitePolicy() = default;
  // Rules from `security.website_blocklist.{enabled,domains,shared_files}`;
  // relative files are under the config home. A missing file is skipped
  // with a warning; a malformed block leaves the policy empty (fails open).
  static SitePolicy from_config(const Config& config);
  void add_rule(std::string_view rule, const std::string& source);

  // The rule that blocks `url`'s host, if any.
  std::optional<PolicyBlock> check(std::string_view url) const;
  bool empty() const { return rules_.empty(); }

 private:
  struct Rule {
    std::string pattern;
    std::string source;
  };
  void add_file(const std::string& path);
  std::vector<Rule> rules_;
};

}  // namespace hermes::web
