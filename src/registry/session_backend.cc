// SPDX-License-Identifier: MIT
#include "registry/session_backend.h"

#include "registry/session.h"

#include <mutex>

namespace hermes::registry {
namespace {

class BackendState final : public SessionState {
 public:
  Result<std::shared_ptr<backend::Backend>> get(const Services& services) {
    std::lock_guard lock(mu_);
    if (!backend_) {
      HERMES_ASSIGN_OR_RETURN(backend_, services.backends(services.config));
    }
    return backend_;
  }

 private:
  std::mutex mu_;
  std::shared_ptr<backend::Backend> backend_;  // mu_
};

}  // namespace

Result<std::shared_ptr<backend::Backend>> session_backend(CallContext& ctx) {
  HERMES_ASSIGN_OR_RETURN(std::shared_ptr<backend::Backend> backend,
                          ctx.session.state<BackendState>().get(ctx.services));
  HERMES_TRY(backend->start(ctx.stop));
  return backend;
}

}  // namespace hermes::registry
