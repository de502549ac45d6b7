// SPDX-License-Identifier: MIT
// persist_allowlist_key with yaml-cpp (comments in config.yaml are not
// preserved, as upstream's rewrite does not preserve them either).
#include "tools/approval/allowlist_store.h"

#include "core/capped_read.h"
#include "core/config.h"

#include <yaml-cpp/yaml.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

namespace hermes::approval {
namespace {

Result<YAML::Node> load_config(const std::string& path) {
  auto text = read_capped_file(path, kMaxConfigFileBytes);
  if (!text && text.error().code == ErrorCode::kNotFound) return YAML::Node(YAML::NodeType::Map);
  if (!text) return text.error();
  try {
    YAML::Node root = YAML::Load(*text);
    if (root.IsNull()) return YAML::Node(YAML::NodeType::Map);
    if (!root.IsMap()) return Error::InvalidArgument(path + " is not a YAML mapping");
    return root;
  } catch (const YAML::Exception& e) {
    return Error::InvalidArgument(path + ": " + e.what());
  }
}

Status write_atomically(const std::string& path, const std::string& text) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Error::FromErrno(errno, "open \"" + tmp + "\"");
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ok = ::close(fd) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return Error::FromErrno(err, "write \"" + path + "\"");
  }
  return {};
}

}  // namespace

Status persist_allowlist_key(const std::string& home, const std::string& key) {
  if (home.empty()) return Error::InvalidArgument("no HERMES_HOME");
  ::mkdir(home.c_str(), 0700);
  std::string path = home + "/config.yaml";
  HERMES_ASSIGN_OR_RETURN(YAML::Node root, load_config(path));
  YAML::Node list = root["command_allowlist"];
  if (list && list.IsSequence()) {
    for (const YAML::Node& entry : list) {
      if (entry.IsScalar() && entry.as<std::string>() == key) return {};
    }
  } else {
    root["command_allowlist"] = YAML::Node(YAML::NodeType::Sequence);
  }
  root["command_allowlist"].push_back(key);
  YAML::Emitter out;
  out << root;
  return write_atomically(path, std::string(out.c_str()) + "\n");
}

}  // namespace hermes::approval
