#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""What checkpoints add to a terminal call, end to end: the server over MCP
stdio with `--root` a tree of FILES files, the same commands with
checkpoints on and off, and the difference of the medians.

    bench/checkpoint_stdio.py BUILD_DIR [--files 100000] [--calls 30] [--backend sandbox]

`--backend docker_shim` runs docker through the tests' stand-in
(tests/backend/docker_shim: each exec under bubblewrap), the tree bound at
its own path, as no container engine runs on the machines this was built on.

Commands: one that changes 3 files, one that changes nothing. With
checkpoints on, every call is checked to have recorded exactly what it
changed. The first call of a session (the whole walk that arms the watch,
and hashes the tree, or copies it into the store where commands are not
captured) is reported apart, with the bytes the store holds after it.
Prints one JSON line per measure; latencies are client-side round trips in
ms.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time


def make_tree(root, files):
    for i in range(files):
        d = os.path.join(root, "d%d" % (i % 50), "s%d" % (i // 50 % 40))
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "f%d.txt" % i), "w") as f:
            f.write("line %d\n" % i)


SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "backend",
                    "docker_shim")


def terminal_yaml(backend, root):
    if backend == "docker_shim":
        return "  backend: docker\n  cwd: %s\n  docker_volumes:\n    - %s:%s\n" % (root, root, root)
    return "  backend: %s\n  sandbox_workspace: %s\n" % (backend, root)


class Server:
    def __init__(self, binary, root, checkpoints, files, backend):
        self.home = tempfile.mkdtemp(prefix="hermes-cpbench-")
        with open(os.path.join(self.home, "config.yaml"), "w") as f:
            f.write("approvals:\n  yolo: true\ncheckpoints:\n  enabled: %s\n"
                    "  max_scan_entries: %d\nterminal:\n%s"
                    % ("true" if checkpoints else "false", 2 * files + 4096,
                       terminal_yaml(backend, root)))
        env = dict(os.environ, HERMES_HOME=self.home)
        if backend == "docker_shim":
            env["PATH"] = SHIM + ":" + env.get("PATH", "")
            env["HERMES_DOCKER_SHIM_STATE"] = os.path.join(self.home, "shim")
        self.proc = subprocess.Popen(
            [binary, "mcp", "--root", root], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=env, bufsize=0)
        self.next_id = 0
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "1"}})
        self.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def request(self, method, params):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        return json.loads(self.proc.stdout.readline())

    def call(self, tool, arguments):
        reply = self.request("tools/call", {"name": tool, "arguments": arguments})
        return json.loads(reply["result"]["content"][0]["text"])

    def timed(self, command):
        start = time.perf_counter()
        out = self.call("terminal", {"command": command})
        elapsed = (time.perf_counter() - start) * 1000
        if out.get("exit_code") != 0:
            raise SystemExit("terminal failed: %s" % out)
        return elapsed

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(30)
        shutil.rmtree(self.home, ignore_errors=True)


def change_command(i):
    return " && ".join("echo %d > d%d/s0/f%d.txt" % (i, k, k) for k in range(3))


def last_paths(server):
    return server.call("checkpoint", {"action": "list"})["checkpoints"][-1]["paths"]


def tree_bytes(path):
    total = 0
    for folder, _, names in os.walk(path):
        for name in names:
            st = os.lstat(os.path.join(folder, name))
            total += st.st_blocks * 512
    return total


def measure(binary, root, checkpoints, files, calls, backend):
    server = Server(binary, root, checkpoints, files, backend)
    first = server.timed("true")
    store = tree_bytes(os.path.join(server.home, "checkpoints"))
    changed, unchanged = [], []
    for i in range(calls):
        changed.append(server.timed(change_command(i)))
        if checkpoints and len(last_paths(server)) != 3:
            raise SystemExit("a checkpoint missed the 3 changed files")
        unchanged.append(server.timed("true"))
        if checkpoints and last_paths(server):
            raise SystemExit("a checkpoint of an unchanged tree lists paths")
    server.close()
    return first, statistics.median(changed), statistics.median(unchanged), store


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--files", type=int, default=100000)
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--backend", default="local", choices=["local", "sandbox", "docker_shim"])
    args = parser.parse_args()
    binary = os.path.join(args.build, "src", "cli", "hermes-tools")
    root = tempfile.mkdtemp(prefix="hermes-cpbench-tree-")
    try:
        make_tree(root, args.files)
        on = measure(binary, root, True, args.files, args.calls, args.backend)
        off = measure(binary, root, False, args.files, args.calls, args.backend)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    for name, index in (("first_call_ms", 0), ("three_files_ms", 1), ("no_change_ms", 2)):
        print(json.dumps({"figure": "terminal_" + name, "files": args.files,
                          "backend": args.backend,
                          "checkpoints_on": round(on[index], 2),
                          "checkpoints_off": round(off[index], 2),
                          "added": round(on[index] - off[index], 2)}))
    print(json.dumps({"figure": "store_bytes_after_first_call", "files": args.files,
                      "backend": args.backend, "bytes": on[3]}))


if __name__ == "__main__":
    main()
