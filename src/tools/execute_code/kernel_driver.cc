// SPDX-License-Identifier: MIT
#include "tools/execute_code/kernel_driver.h"

namespace hermes::execute_code {
namespace {

// What both links share: running a cell, its reply, its images. SIGINT
// raises KeyboardInterrupt only while a cell runs, so an interrupt that
// arrives as a cell ends cannot break the protocol, and only once a cell:
// the host repeats SIGINT until the cell answers, because one that lands
// just before a blocking call (time.sleep, a read) is only handled once
// that call returns; the repeat interrupts the call.
constexpr std::string_view kCore =
    R"PY("""execute_code kernel (generated): runs cells in one namespace."""
import builtins
import io
import linecache
import os
import signal
import sys
import traceback
import types

_in_cell = False
_interrupted = False
_MAX_IMAGES = 16


def _on_sigint(signum, frame):
    global _interrupted
    if _in_cell and not _interrupted:
        _interrupted = True
        raise KeyboardInterrupt


def _limit_memory(limit):
    if limit > 0:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _exit_reply(code):
    if code is None:
        return "done ok"
    if isinstance(code, int):
        return "done ok" if code == 0 else "done exit %d" % code
    print(code, file=sys.stderr)
    return "done exit 1"


def _run(code, number, namespace):
    global _in_cell, _interrupted
    name = "<cell %d>" % number
    try:
        compiled = compile(code, name, "exec")
    except (SyntaxError, ValueError, OverflowError) as exc:
        sys.stderr.write("".join(traceback.format_exception_only(type(exc), exc)))
        return "done exit 1"
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    _interrupted = False
    _in_cell = True
    try:
        exec(compiled, namespace)
        return "done ok"
    except SystemExit as exc:
        return _exit_reply(exc.code)
    except KeyboardInterrupt:
        return "done interrupted"
    except MemoryError:
        # Past the memory cap the kernel may be half-broken: the host stops
        # it and the next call starts a fresh one.
        traceback.print_exc()
        return "done memory"
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
)PY";

// The control socket moves off fd 0 (to a descriptor children do not
// inherit) and stdin becomes /dev/null, as for a per-call script.
constexpr std::string_view kSocketMain = R"PY(

import socket


def _control():
    conn = socket.socket(fileno=os.dup(0))
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    return conn


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

// Everything on the launcher's one stream (docs/tools/execute_code.md, The
// kernel on other backends): frames `<kind> <size>\n<bytes>`. The process
// forks at once: the child is the kernel, the parent its pump, the stream's
// only writer. The kernel's fds 1 and 2 are pipes the pump forwards as
// `out` / `err` frames (so what a cell's children write comes back too),
// and its own frames reach the pump whole on a third pipe; before passing
// one on, the pump forwards the output written so far, so a cell's output
// always precedes its `done`. Output written just before the kernel dies
// (os._exit, a crash) is still in the pipes, which the pump holds: it
// forwards it, then the kernel's status as `gone` (an exit code, or minus
// the signal number). In the kernel, stdin becomes /dev/null and a reader
// thread takes the host's frames: `cell` for the main loop, `answer` for a
// tool call in flight, `interrupt` (SIGINT to the kernel's process group),
// and `kill`; `kill` or EOF ends the kernel's process group and every
// descendant it can find.
constexpr std::string_view kStreamMain = R"PY(

import queue
import select
import threading


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _forward(fd, kind):
    """Frames what `fd` holds now; False at EOF."""
    while True:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return True
        if not data:
            return False
        _write_all(1, kind + b" %d\n" % len(data) + data)


def _pump(kernel, pipes, frames):
    """The parent: forwards output and the kernel's frames until it ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    buffered = b""
    open_pipes = dict(pipes)
    try:
        while True:
            ready, _, _ = select.select([frames] + list(open_pipes), [], [])
            for fd in ready:
                if fd in open_pipes and not _forward(fd, open_pipes[fd]):
                    del open_pipes[fd]
            if frames not in ready:
                continue
            data = os.read(frames, 65536)
            if not data:
                break
            buffered += data
            while True:
                header, newline, rest = buffered.partition(b"\n")
                if not newline or len(rest) < int(header.split()[1]):
                    break
                end = len(header) + 1 + int(header.split()[1])
                for fd in list(open_pipes):
                    if not _forward(fd, open_pipes[fd]):
                        del open_pipes[fd]
                _write_all(1, buffered[:end])
                buffered = buffered[end:]
        for fd in list(open_pipes):
            _forward(fd, open_pipes[fd])
        _, status = os.waitpid(kernel, 0)
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        _write_all(1, b"gone %d\n%d" % (len(b"%d" % code), code))
    except OSError:
        pass
    os._exit(0)


class _Stream:
    def __init__(self, frames):
        self._in = os.fdopen(os.dup(0), "rb")
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        self._frames = frames
        # Frames go out whole through one writer thread, so a KeyboardInterrupt
        # in the middle of a send cannot cut one; bounded, so output nobody
        # reads between calls backs up into the pipes as on this host.
        self._outbox = queue.Queue(64)
        self._cells = []
        self._cells_ready = threading.Condition()
        self._answers = {}
        self._answered = threading.Condition()

    def send(self, kind, data):
        self._outbox.put(kind + b" %d\n" % len(data) + data)

    def write_loop(self):
        while True:
            try:
                _write_all(self._frames, self._outbox.get())
            except OSError:
                _end_all()

    def read_frame(self):
        header = self._in.readline()
        try:
            kind, size = header.split()
            return kind, self._in.read(int(size))
        except ValueError:
            return None, None

    def read_loop(self):
        while True:
            kind, data = self.read_frame()
            if kind is None or kind == b"kill":
                _end_all()
            elif kind == b"cell":
                with self._cells_ready:
                    self._cells.append(data)
                    self._cells_ready.notify()
            elif kind == b"answer":
                seq, _, text = data.partition(b" ")
                with self._answered:
                    self._answers[int(seq)] = text
                    self._answered.notify_all()
            elif kind == b"interrupt":
                os.killpg(os.getpgrp(), signal.SIGINT)

    def next_cell(self):
        with self._cells_ready:
            while not self._cells:
                self._cells_ready.wait()
            return self._cells.pop(0)

    def await_answer(self, seq):
        with self._answered:
            while seq not in self._answers:
                self._answered.wait()
            return self._answers.pop(seq)


_stream = None
_cell = 0
_seq = 0


def _descendants():
    children = {}
    try:
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open("/proc/%s/stat" % entry) as f:
                        ppid = int(f.read().rpartition(")")[2].split()[1])
                except (OSError, ValueError, IndexError):
                    continue
                children.setdefault(ppid, []).append(int(entry))
    except OSError:
        return []
    out, todo = [], [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def _end_all():
    """The host is gone or asked: nothing of the kernel may outlive it."""
    for pid in _descendants():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.killpg(os.getpgrp(), signal.SIGKILL)
    finally:
        os._exit(137)


def _link(request):
    """hermes_tools' transport: a `call` frame, answered by an `answer` frame."""
    global _seq
    _seq += 1
    seq = _seq
    _stream.send(b"call", b"%d %d " % (_cell, seq) + request.encode("utf-8", "surrogatepass"))
    return _stream.await_answer(seq).decode("utf-8", "replace")


def _load_tools(source):
    module = types.ModuleType("hermes_tools")
    module.__file__ = "<hermes_tools>"
    sys.modules["hermes_tools"] = module
    exec(compile(source, "hermes_tools.py", "exec"), module.__dict__)
    module._link = _link


def _split():
    """Forks; returns in the kernel with the fd its frames go to."""
    pipes = {}
    for fd, kind in ((1, b"out"), (2, b"err")):
        read, write = os.pipe()
        pipes[read] = (write, fd, kind)
    frames_read, frames_write = os.pipe()
    kernel = os.fork()
    if kernel:
        os.close(frames_write)
        for read, (write, _, _) in pipes.items():
            os.close(write)
            os.set_blocking(read, False)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        _pump(kernel, {read: kind for read, (_, _, kind) in pipes.items()}, frames_read)
    os.close(frames_read)
    for read, (write, fd, _) in pipes.items():
        os.close(read)
        os.dup2(write, fd)
        os.close(write)
    return frames_write


def _without_sigint(loop):
    # The process's SIGINT then always reaches the main thread, the one a
    # blocking call of the cell's can be interrupted in.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    loop()


def main():
    global _stream, _cell
    frames = _split()
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    signal.signal(signal.SIGINT, _on_sigint)
    _stream = _Stream(frames)
    kind, source = _stream.read_frame()
    if kind != b"module":
        return
    _load_tools(source.decode("utf-8"))
    for loop in (_stream.read_loop, _stream.write_loop):
        threading.Thread(target=_without_sigint, args=(loop,), daemon=True).start()
    # After the threads: their stacks count against the cap.
    _limit_memory(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
    module = types.ModuleType("__main__")
    module.__builtins__ = builtins
    sys.modules["__main__"] = module
    sys.argv = [""]
    _stream.send(b"ready", b"%d" % os.getpid())
    while True:
        code = _stream.next_cell().decode("utf-8", "surrogateescape")
        _cell += 1
        try:
            reply = _run(code, _cell, module.__dict__)
        except KeyboardInterrupt:
            reply = "done interrupted"
        _flush()
        for png in _images():
            _stream.send(b"image", png)
        _stream.send(b"done", reply[5:].encode())


main()
)PY";

}  // namespace

std::string kernel_driver_source(KernelLink link) {
  return std::string(kCore) + std::string(link == KernelLink::kSocket ? kSocketMain : kStreamMain);
}

}  // namespace hermes::execute_code
