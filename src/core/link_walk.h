// SPDX-License-Identifier: MIT
// The real path the file guards judge: every symbolic link followed, one
// component at a time, a dangling one included (its target is what a write
// would create), the missing tail kept as text (as `realpath -m`).
#pragma once

#include "core/result.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hermes {

// /proc magic links (fd/N, cwd, root, exe, ns/…: under /proc, a link whose
// text is absolute or holds a `:`) are not followed: they stay in the
// result, and the file system's walk refuses them at use. Fails only on a
// loop (more than 40 links).
Result<std::string> resolve_links(const std::string& absolute_path);

// Paths a walk must not look at (a mount whose server may not answer): true
// for a path and everything beneath it.
using StayOff = std::function<bool(std::string_view absolute_path)>;

// resolve_links, except that it fails (kUnavailable) rather than make a
// system call on a path `stay_off` names: each component is asked before it
// is looked at, the targets of links included.
Result<std::string> resolve_links(const std::string& absolute_path, const StayOff& stay_off);

// resolve_links of `real_dir`/`relative` when `real_dir` is already real:
// only the components of `relative` are looked at (a link among them may
// still lead anywhere).
Result<std::string> resolve_links_beneath(const std::string& real_dir, std::string_view relative);

// The non-empty components of a path, byte for byte (names may hold spaces
// and newlines).
std::vector<std::string> path_components(std::string_view path);

}  // namespace hermes
