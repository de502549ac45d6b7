// SPDX-License-Identifier: MIT
#include "tools/execute_code/stub_module.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace hermes::execute_code {
namespace {

// The module's fixed head: imports, the lock that keeps threads from
// interleaving calls, and the decoding of a result into a dict.
constexpr std::string_view kHeader = R"PY("""Hermes tools for execute_code scripts (generated)."""
import json
import os
import shlex
import socket
import threading
import time

_lock = threading.Lock()


def _decode(text):
    result = json.loads(text)
    if isinstance(result, str):
        try:
            return json.loads(result)
        except ValueError:
            return result
    return result
)PY";

// One Unix-socket connection; the path and token come from the environment
// the server sets for the interpreter.
constexpr std::string_view kSocketClient = R"PY(
_SOCKET_PATH = os.environ.get("HERMES_RPC_SOCKET", "")
_TOKEN = os.environ.get("HERMES_RPC_TOKEN", "")
_sock = None


def _connect():
    global _sock
    if _sock is None:
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.settimeout(300)
        conn.connect(_SOCKET_PATH)
        _sock = conn
    return _sock


def _call(tool, args):
    global _sock
    request = (json.dumps({"tool": tool, "args": args, "token": _TOKEN}) + "\n").encode("utf-8")
    with _lock:
        conn = _connect()
        try:
            conn.sendall(request)
            chunks = []
            while True:
                chunk = conn.recv(1 << 16)
                if not chunk:
                    raise RuntimeError("Agent process disconnected")
                chunks.append(chunk)
                if chunk.endswith(b"\n"):
                    break
        except BaseException:
            # An interrupted call (a kernel's KeyboardInterrupt) leaves its
            # answer unread: the next call starts on a new connection.
            _sock = None
            conn.close()
            raise
    return _decode(b"".join(chunks).decode("utf-8", "replace"))
)PY";

// Request and response files in HERMES_RPC_DIR (docs/tools/execute_code.md): the
// host polls the directory through the backend, so a request is renamed into
// place whole and the response is awaited with a growing interval.
constexpr std::string_view kFileClient = R"PY(
_RPC_DIR = os.environ.get("HERMES_RPC_DIR", "")
_RPC_TIMEOUT = 300
_seq = 0


def _await_response(path, tool):
    delay = 0.05
    deadline = time.monotonic() + _RPC_TIMEOUT
    while True:
        time.sleep(delay)
        if os.path.exists(path):
            return
        if time.monotonic() >= deadline:
            raise RuntimeError("RPC timeout: no response for %s after %ds" % (tool, _RPC_TIMEOUT))
        delay = min(delay * 1.2, 0.25)


def _call(tool, args):
    global _seq
    payload = {"tool": tool, "args": args}
    try:
        # The host's JSON parser refuses lone surrogates; refuse them here
        # rather than leave a request that is never answered.
        json.dumps(payload, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        return {"error": "Invalid RPC request: %s" % exc}
    with _lock:
        _seq += 1
        request = os.path.join(_RPC_DIR, "req_%06d" % _seq)
        response = os.path.join(_RPC_DIR, "res_%06d" % _seq)
        with open(request + ".tmp", "w", encoding="utf-8") as f:
            f.write(json.dumps(payload))
        os.rename(request + ".tmp", request)
        _await_response(response, tool)
        with open(response, encoding="utf-8", errors="replace") as f:
            text = f.read()
        os.unlink(response)
    return _decode(text)
)PY";

// A kernel on a backend's target (kernel_driver.h, kStream): its driver
// sets `_link`, which sends the request on the backend's stream and returns
// the answer line.
constexpr std::string_view kStreamClient = R"PY(
_link = None


def _call(tool, args):
    if _link is None:
        raise RuntimeError("Agent process disconnected")
    request = json.dumps({"tool": tool, "args": args})
    with _lock:
        return _decode(_link(request))
)PY";

constexpr std::string_view kHelpers = R"PY(

def json_parse(text):
    """json.loads that tolerates control characters and a leading BOM."""
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("utf-8", "replace")
    return json.loads(text.lstrip("\ufeff"), strict=False)


def shell_quote(s):
    """shlex.quote(s): safe to interpolate into a shell command."""
    return shlex.quote(s)


def retry(fn, max_attempts=3, delay=2):
    """Calls fn() until it succeeds, backing off exponentially; re-raises the last error."""
    last = None
    for attempt in range(max_attempts):
        try:
            return fn()
        except Exception as exc:
            last = exc
            if attempt + 1 < max_attempts:
                time.sleep(delay * (2 ** attempt))
    raise last


_shown = []
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def show(image):
    """Shows a PNG (a file path or the bytes) to the model as an image when the cell ends."""
    if isinstance(image, (bytes, bytearray, memoryview)):
        data = bytes(image)
    else:
        with open(image, "rb") as f:
            data = f.read()
    if not data.startswith(_PNG_SIGNATURE):
        raise ValueError("show() takes a PNG image")
    _shown.append(data)
)PY";

constexpr std::array<std::string_view, 35> kPythonKeywords = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

bool is_identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  bool word_chars = std::all_of(name.begin(), name.end(),
                                [](unsigned char c) { return std::isalnum(c) || c == '_'; });
  return word_chars &&
         std::find(kPythonKeywords.begin(), kPythonKeywords.end(), name) == kPythonKeywords.end();
}

std::string python_type(const Json& property) {
  auto type = property.find("type");
  if (type == property.end() || !type->is_string()) return "";
  static const std::array<std::pair<std::string_view, std::string_view>, 6> kTypes = {
      {{"string", "str"},
       {"integer", "int"},
       {"number", "float"},
       {"boolean", "bool"},
       {"array", "list"},
       {"object", "dict"}}};
  for (const auto& [json_type, py_type] : kTypes) {
    if (*type == json_type) return std::string(py_type);
  }
  return "";
}

// A scalar JSON value as a Python literal; None for anything else. JSON
// string escapes are valid Python string escapes.
std::string python_literal(const Json& value) {
  if (value.is_boolean()) return value.get<bool>() ? "True" : "False";
  if (value.is_number() || value.is_string()) return dump_json(value);
  return "None";
}

std::string render_stub(const StubSignature& signature) {
  std::string out = "\n\ndef " + render_signature(signature) + ":\n";
  out += "    return _call(" + dump_json(Json(signature.tool)) + ", {";
  for (size_t i = 0; i < signature.params.size(); ++i) {
    const std::string& name = signature.params[i].name;
    out += (i ? ", \"" : "\"") + name + "\": " + name;
  }
  out += "})\n";
  return out;
}

}  // namespace

StubSignature signature_from_schema(const std::string& tool, const Json& schema,
                                    const std::set<std::string>& hidden) {
  StubSignature signature{tool, {}};
  auto properties = schema.find("properties");
  if (properties == schema.end() || !properties->is_object()) return signature;
  std::set<std::string> required;
  if (auto it = schema.find("required"); it != schema.end() && it->is_array()) {
    for (const Json& name : *it) {
      if (name.is_string()) required.insert(name.get<std::string>());
    }
  }
  // Required with a default (patch's `mode`) goes last, so positional calls
  // keep the upstream order: patch("f", "old", "new").
  std::vector<StubParam> optional, defaulted;
  for (const auto& [name, property] : properties->items()) {
    if (hidden.count(name) || !is_identifier(name)) continue;
    StubParam param{name, python_type(property), ""};
    auto fallback = property.find("default");
    bool is_required = required.count(name) > 0;
    if (is_required && fallback == property.end()) {
      signature.params.push_back(std::move(param));
      continue;
    }
    param.default_value = fallback == property.end() ? "None" : python_literal(*fallback);
    (is_required ? defaulted : optional).push_back(std::move(param));
  }
  // Python wants parameters with defaults after those without.
  for (StubParam& param : optional) signature.params.push_back(std::move(param));
  for (StubParam& param : defaulted) signature.params.push_back(std::move(param));
  return signature;
}

std::string render_signature(const StubSignature& signature) {
  std::string out = signature.tool + "(";
  for (size_t i = 0; i < signature.params.size(); ++i) {
    const StubParam& param = signature.params[i];
    if (i) out += ", ";
    out += param.name;
    if (!param.type.empty()) out += ": " + param.type;
    if (!param.default_value.empty()) out += " = " + param.default_value;
  }
  return out + ")";
}

std::string generate_module(const std::vector<StubSignature>& tools, RpcTransport transport) {
  std::string out(kHeader);
  out += transport == RpcTransport::kSocket  ? kSocketClient
         : transport == RpcTransport::kFiles ? kFileClient
                                             : kStreamClient;
  out += kHelpers;
  for (const StubSignature& signature : tools) out += render_stub(signature);
  return out;
}

}  // namespace hermes::execute_code
