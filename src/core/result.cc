// SPDX-License-Identifier: MIT
#include "core/result.h"

#include <cerrno>
#include <cstring>

namespace hermes {

Error Error::FromErrno(int err, const std::string& context) {
  std::string message = context + ": " + std::strerror(err);
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return {ErrorCode::kNotFound, message};
    case EEXIST:
      return {ErrorCode::kAlreadyExists, message};
    case EACCES:
    case EPERM:
    case EROFS:
      return {ErrorCode::kPermissionDenied, message};
    case EFBIG:
    case ENAMETOOLONG:
      return {ErrorCode::kTooLarge, message};
    case ETIMEDOUT:
      return {ErrorCode::kTimeout, message};
    case EINVAL:
      return {ErrorCode::kInvalidArgument, message};
    default:
      return {ErrorCode::kIo, message};
  }
}

}  // namespace hermes
