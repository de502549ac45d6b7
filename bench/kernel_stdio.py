#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""execute_code's kernel over MCP stdio, side by side with the per-call
interpreter (code_execution.kernel: false): warm `print(1)` latency, the first
call of a session, the RSS of an idle kernel, and the processes left after
sessions end (stdin EOF) or the server gets SIGTERM. A tool call from a cell
is in execute_code_bench (BM_RpcRoundTrip*).

    bench/kernel_stdio.py BUILD_DIR [--calls 200] [--sessions 1000] [--prestart]

--prestart measures only the first call of a session whose kernel was
pre-started (code_execution.prestart_kernel: the client lists the tools
right after initialize, as clients do, then calls at once), against a
session without it.

Prints one JSON line per measure. Latencies are client-side round trips
through a pipe (this script's own JSON work included), p50 and p99 in ms.
"""
import argparse
import json
import os
import signal
import subprocess
import tempfile
import time


def descendants(root):
    """The live processes under `root` (by /proc parent links)."""
    parent = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            parent[int(name)] = int(fields[1])
    out = []
    for pid in parent:
        up = parent.get(pid)
        while up and up > 1:
            if up == root:
                out.append(pid)
                break
            up = parent.get(up)
    return out


class Server:
    def __init__(self, binary, kernel, prestart=False):
        self.home = tempfile.mkdtemp(prefix="hermes-kbench-")
        with open(os.path.join(self.home, "config.yaml"), "w") as f:
            f.write("code_execution:\n  kernel: %s\n  prestart_kernel: %s\n"
                    % ("true" if kernel else "false", "true" if prestart else "false"))
        self.proc = subprocess.Popen(
            [binary, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=dict(os.environ, HERMES_HOME=self.home), bufsize=0)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message):
        self.proc.stdin.write((json.dumps(message) + "\n").encode())

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return json.loads(self.proc.stdout.readline())

    def run(self, code):
        reply = self.request("tools/call", {"name": "execute_code", "arguments": {"code": code}})
        return json.loads(reply["result"]["content"][0]["text"])

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(30)


def percentiles(samples):
    samples = sorted(samples)
    return {"p50_ms": round(samples[len(samples) // 2] * 1000, 3),
            "p99_ms": round(samples[min(len(samples) - 1, len(samples) * 99 // 100)] * 1000, 3)}


def timed(server, code, calls):
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        out = server.run(code)
        samples.append(time.perf_counter() - start)
        assert out["status"] == "success", out
    return samples


def report(**fields):
    print(json.dumps(fields), flush=True)


def warm_print(binary, calls):
    for kernel in (False, True):
        server = Server(binary, kernel)
        server.run("print(1)")
        report(measure="warm print(1)", kernel=kernel, calls=calls,
               **percentiles(timed(server, "print(1)", calls)))
        server.close()


def first_call(binary, rounds):
    for kernel in (False, True):
        samples = []
        for _ in range(rounds):
            server = Server(binary, kernel)
            samples += timed(server, "print(1)", 1)
            server.close()
        report(measure="first call of a session", kernel=kernel, rounds=rounds,
               **percentiles(samples))


def first_call_prestarted(binary, rounds):
    """The first call after initialize and tools/list, with and without a
    pre-started kernel: at once, and after the client idled 0.3 s (a model
    choosing its first call); the tools/list round trip is not counted."""
    for pause in (0.0, 0.3):
        for prestart in (False, True):
            samples = []
            for _ in range(rounds):
                server = Server(binary, True, prestart)
                server.request("tools/list", {})
                time.sleep(pause)
                samples += timed(server, "print(1)", 1)
                server.close()
            report(measure="first call after tools/list", pause_s=pause,
                   prestart_kernel=prestart, rounds=rounds, **percentiles(samples))


def idle_rss(binary):
    server = Server(binary, True)
    pid = int(server.run("import os\nprint(os.getpid())")["output"])
    with open("/proc/%d/status" % pid) as f:
        rss = next(line.split()[1] for line in f if line.startswith("VmRSS:"))
    report(measure="idle kernel RSS", rss_kb=int(rss))
    server.close()


# A cell that starts a daemon in a session of its own and prints both pids.
SPAWN_DAEMON = ("import os, subprocess\n"
                "d = subprocess.Popen(['sleep', '300'], start_new_session=True)\n"
                "print(os.getpid(), d.pid)")


def still_running(pids, wait=2.0):
    deadline = time.monotonic() + wait
    while True:
        alive = [p for p in pids if os.path.exists("/proc/%d" % p)]
        if not alive or time.monotonic() >= deadline:
            return alive
        time.sleep(0.05)


def leaks(binary, sessions):
    """Kernel and daemon pids still running after each session's stdin EOF,
    and after a server's SIGTERM; the bench's own leftover children."""
    started, left = 0, []
    for _ in range(sessions):
        server = Server(binary, True)
        pids = [int(p) for p in server.run(SPAWN_DAEMON)["output"].split()]
        started += len(pids)
        server.close()
        left += still_running(pids)
    server = Server(binary, True)
    pids = [int(p) for p in server.run(SPAWN_DAEMON)["output"].split()]
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(30)
    report(measure="processes left", sessions_closed=sessions, started=started,
           left_after_stdin_eof=len(left), left_after_sigterm=len(still_running(pids)),
           bench_children=len(descendants(os.getpid())))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--prestart", action="store_true")
    args = parser.parse_args()
    binary = os.path.join(args.build, "src/cli/hermes-tools")
    if args.prestart:
        first_call_prestarted(binary, 20)
        return
    warm_print(binary, args.calls)
    first_call(binary, 20)
    idle_rss(binary)
    leaks(binary, args.sessions)


if __name__ == "__main__":
    main()
