// SPDX-License-Identifier: MIT
// The V4A parser and hunk applier on arbitrary patch text, over a small
// in-memory tree: each Update's hunks are applied (fuzzy matcher included)
// to the text its path names, Adds and Moves change the tree for the
// operations after them. Never a crash, a hang or a sanitizer report.
#include "tools/patch/v4a/hunks.h"
#include "tools/patch/v4a/parser.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace {

using hermes::v4a::FileOp;
using hermes::v4a::OpKind;
using Tree = std::map<std::string, std::string>;

Tree seed_tree() {
  return {{"a.txt", "alpha\nbeta\ngamma\n    indented\n"},
          {"b.txt", "one\r\ntwo\r\nthree\r\n"},
          {"c.py", "def f():\n    return 1\n\n\ndef g():\n    return 1\n"}};
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

void apply(const FileOp& op, Tree& tree) {
  switch (op.kind) {
    case OpKind::kAdd:
      tree[op.path] = joined(op.add_lines);
      return;
    case OpKind::kDelete:
      tree.erase(op.path);
      return;
    case OpKind::kMove:
    case OpKind::kUpdate: {
      auto result = hermes::v4a::apply_hunks(tree[op.path], op.hunks);
      if (auto* done = std::get_if<hermes::v4a::HunkOutcome>(&result))
        tree[op.path] = done->content;
      if (!op.move_to.empty()) tree[op.move_to] = std::move(tree[op.path]);
      return;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16384) return 0;  // the matcher is quadratic by design; keep runs fast
  auto ops = hermes::v4a::parse_patch(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!ops) return 0;
  Tree tree = seed_tree();
  for (const FileOp& op : *ops) apply(op, tree);
  return 0;
}
