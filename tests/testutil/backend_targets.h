// SPDX-License-Identifier: MIT
// The backends a test can aim at, each as the configuration that selects it:
// plain local, portable-shell local, ssh to the test sshd, a bubblewrap
// sandbox and docker through the test shim (tests/backend/docker_shim).
#pragma once

#include <string>
#include <vector>

namespace hermes::testing {

enum class BackendKind { kLocal, kPortable, kSsh, kSandbox, kDocker };

// Every kind, native local first.
std::vector<BackendKind> all_backend_kinds();
// `local`, `portable`, `ssh`, `sandbox`, `docker_shim` (usable in test names).
std::string kind_name(BackendKind kind);

// YAML that makes the session use `kind` with `work` as its working
// directory (the sandbox workspace; a docker volume mounted at the same path;
// the ssh target is this host, so paths are the same there too). `extra` is
// appended under `terminal:`, indented by two spaces per line.
std::string backend_yaml(BackendKind kind, const std::string& work, const std::string& extra = "");

// Why `kind` cannot run on this machine (not root, no sshd, bubblewrap
// refused); empty when it can. Starts the shared sshd for kSsh.
std::string unavailable_reason(BackendKind kind);

// Puts the docker shim first on PATH and points its state at a fresh
// directory (once per process); returns that state directory.
const std::string& use_docker_shim();

// The first `docker` on PATH that is not the shim; empty when none.
std::string real_docker();

}  // namespace hermes::testing
