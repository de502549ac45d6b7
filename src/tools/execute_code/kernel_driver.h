// SPDX-License-Identifier: MIT
// The Python side of an execute_code kernel (docs/tools/execute_code.md,
// The kernel): `hermes_kernel.py`, run as `python3 hermes_kernel.py
// <memory limit in bytes, 0 for none>` with its control socket on stdin
// (on this host), or as `python3 -c <source> <limit>` with its one stream
// on stdin and stdout (on a backend's target).
#pragma once

#include <string>

namespace hermes::execute_code {

// The control protocol, one cell at a time. The host sends
// `<byte count>\n<code>`; the kernel runs the code in its one `__main__`
// namespace, flushes stdout and stderr (pipes the host reads), then answers
// with `image <byte count>\n<PNG>` for each image the cell showed, then one
// line: `done ok`, `done exit <code>` (SystemExit, or 1 for an uncaught
// exception whose traceback went to stderr) or `done interrupted`
// (KeyboardInterrupt: SIGINT while the cell ran) or `done memory` (an
// uncaught MemoryError: past the cap). EOF on stdin ends it.
//
// kStream: the same exchange as frames `<kind> <size>\n<bytes>` on one
// stream. In: `module` (hermes_tools.py, first), `cell`, `answer` (`<seq>
// <JSON>`), `interrupt`, `kill`. Out: `ready` (the kernel's pid), `out`,
// `err`, `call` (`<cell> <seq> <JSON request>`), `image`, `done` (`ok`,
// `exit <code>`, `interrupted`, `memory`).
enum class KernelLink { kSocket, kStream };
std::string kernel_driver_source(KernelLink link);

}  // namespace hermes::execute_code
