// SPDX-License-Identifier: MIT
// The Python side of an execute_code kernel (docs/tools/execute_code.md,
// The kernel): `hermes_kernel.py`, run as `python3 hermes_kernel.py
// <memory limit in bytes, 0 for none>` with its control socket on stdin.
#pragma once

#include <string_view>

namespace hermes::execute_code {

// The control protocol, one cell at a time. The host sends
// `<byte count>\n<code>`; the kernel runs the code in its one `__main__`
// namespace, flushes stdout and stderr (pipes the host reads), then answers
// with `image <byte count>\n<PNG>` for each image the cell showed, then one
// line: `done ok`, `done exit <code>` (SystemExit, or 1 for an uncaught
// exception whose traceback went to stderr) or `done interrupted`
// (KeyboardInterrupt: SIGINT while the cell ran). EOF on stdin ends it.
std::string_view kernel_driver_source();

}  // namespace hermes::execute_code
