// SPDX-License-Identifier: MIT
#include "tools/execute_code/kernel_driver.h"

namespace hermes::execute_code {
namespace {

// SIGINT raises KeyboardInterrupt only while a cell runs, so an interrupt
// that arrives as a cell ends cannot break the protocol. The control socket
// moves off fd 0 (to a descriptor children do not inherit) and stdin becomes
// /dev/null, as for a per-call script.
constexpr std::string_view kDriver =
    R"PY("""execute_code kernel (generated): runs cells in one namespace."""
import builtins
import io
import linecache
import os
import signal
import socket
import sys
import traceback
import types

_in_cell = False
_MAX_IMAGES = 16


def _on_sigint(signum, frame):
    if _in_cell:
        raise KeyboardInterrupt


def _limit_memory(limit):
    if limit > 0:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _control():
    conn = socket.socket(fileno=os.dup(0))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    return conn


def _exit_reply(code):
    if code is None:
        return "done ok"
    if isinstance(code, int):
        return "done ok" if code == 0 else "done exit %d" % code
    print(code, file=sys.stderr)
    return "done exit 1"


def _run(code, number, namespace):
    global _in_cell
    name = "<cell %d>" % number
    try:
        compiled = compile(code, name, "exec")
    except (SyntaxError, ValueError, OverflowError) as exc:
        sys.stderr.write("".join(traceback.format_exception_only(type(exc), exc)))
        return "done exit 1"
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    _in_cell = True
    try:
        exec(compiled, namespace)
        return "done ok"
    except SystemExit as exc:
        return _exit_reply(exc.code)
    except KeyboardInterrupt:
        return "done interrupted"
    except BaseException:
        kind, value, tb = sys.exc_info()
        traceback.print_exception(kind, value, tb.tb_next)
        return "done exit 1"
    finally:
        _in_cell = False


def _flush():
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except Exception:
            pass


def _figures():
    """PNGs of the figures a cell left open in matplotlib, which are then closed."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return []
    out = []
    try:
        for number in plt.get_fignums():
            buf = io.BytesIO()
            plt.figure(number).savefig(buf, format="png")
            out.append(buf.getvalue())
        plt.close("all")
    except Exception as exc:
        print("hermes: a figure could not be rendered: %s" % exc, file=sys.stderr)
    return out


def _images():
    shown = getattr(sys.modules.get("hermes_tools"), "_shown", [])
    taken = list(shown)
    shown.clear()
    return (taken + _figures())[:_MAX_IMAGES]


def main():
    _limit_memory(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    signal.signal(signal.SIGINT, _on_sigint)
    conn = _control()
    requests = conn.makefile("rb")
    module = types.ModuleType("__main__")
    module.__builtins__ = builtins
    sys.modules["__main__"] = module
    sys.argv = [""]
    number = 0
    while True:
        header = requests.readline()
        if not header:
            return
        code = requests.read(int(header)).decode("utf-8", "surrogateescape")
        number += 1
        try:
            reply = _run(code, number, module.__dict__)
        except KeyboardInterrupt:
            reply = "done interrupted"
        _flush()
        out = b"".join(b"image %d\n" % len(png) + png for png in _images())
        conn.sendall(out + reply.encode() + b"\n")


main()
)PY";

}  // namespace

std::string_view kernel_driver_source() { return kDriver; }

}  // namespace hermes::execute_code
