// SPDX-License-Identifier: MIT
// The evaluator's walk over the tree: lists, pipelines, loops, functions
// and simple commands, with the limits that keep hostile input bounded.
#include "shell/analyze.h"

#include "shell/evaluator.h"
#include "shell/parser.h"

namespace hermes::shell {

std::string_view Command::name() const {
  return word < argv.size() ? base_name(argv[word]) : std::string_view();
}

std::vector<std::string> Command::args() const {
  if (word >= argv.size()) return {};
  return {argv.begin() + static_cast<long>(word) + 1, argv.end()};
}

void Evaluator::step() {
  if (++steps_ > limits_.max_steps || out_.commands.size() > limits_.max_commands) {
    throw LimitExceeded("too many commands");
  }
}

void Evaluator::run_script(std::string_view text, const Context& ctx) {
  if (text.size() > limits_.max_input) throw LimitExceeded("input too large");
  Parser parser(
      text,
      [this](const std::string& name) -> const std::string* {
        auto it = out_.env.aliases.find(name);
        return it == out_.env.aliases.end() ? nullptr : &it->second;
      },
      nesting_);
  bool background = false;
  while (NodePtr node = parser.next(background)) {
    Context c = ctx;
    c.background = c.background || background;
    run(node, c);
  }
}

void Evaluator::run_nested(const std::string& text, const Context& ctx, const std::string& via,
                           std::vector<std::string> positional, bool subshell) {
  if (++nesting_ > limits_.max_calls) throw LimitExceeded("nesting too deep");
  Environment saved = out_.env;
  std::vector<std::string> saved_positional = positional_;
  if (subshell) positional_ = std::move(positional);
  Context c = ctx;
  c.via = via;
  c.pipeline = 0;
  c.stage = 0;
  c.stages = 1;
  run_script(text, c);
  positional_ = std::move(saved_positional);
  if (subshell) out_.env = std::move(saved);
  --nesting_;
}

Context Evaluator::with_redirects(const std::vector<Redirect>& redirects, Context ctx) {
  for (const Redirect& r : redirects) {
    if (r.heredoc) {
      ctx.input = Input{Input::Kind::kHereDoc, expand_string(r.heredoc->body), {}};
      if (!is_static(*ctx.input.text)) ctx.input.text.reset();
    } else if (r.op == "<<<") {
      ctx.input = Input{Input::Kind::kHereString, expand_string(r.target) + "\n", {}};
      if (!is_static(*ctx.input.text)) ctx.input.text.reset();
    } else if (r.op == "<" || r.op == "<>") {
      ctx.input = Input{Input::Kind::kFile, std::nullopt, {expand_string(r.target)}};
    } else if (r.op != "<&") {
      int fd = r.fd >= 0 ? r.fd : 1;
      ctx.outputs.push_back(Output{fd, r.op, expand_string(r.target)});
    }
  }
  return ctx;
}

std::optional<std::string> Evaluator::run(const NodePtr& node, const Context& outer) {
  step();
  Context ctx = node->kind == Node::Kind::kSimple ? outer : with_redirects(node->redirects, outer);
  switch (node->kind) {
    case Node::Kind::kSimple:
      return run_simple(*node, ctx);
    case Node::Kind::kList:
      return run_list(*node, ctx);
    case Node::Kind::kPipeline:
      return run_pipeline(*node, ctx);
    case Node::Kind::kAndOr: {
      std::optional<std::string> all = std::string();
      for (size_t i = 0; i < node->children.size(); ++i) {
        auto o = run(node->children[i], ctx);
        bool joined = i == 0 || node->ops[i - 1] == "&&";
        all = all && o && joined ? std::optional(*all + *o) : std::nullopt;
      }
      return all;
    }
    case Node::Kind::kSubshell: {
      Environment saved = out_.env;
      auto o = run(node->children[0], ctx);
      out_.env = std::move(saved);
      return o;
    }
    case Node::Kind::kGroup:
      return run(node->children[0], ctx);
    case Node::Kind::kIf:
    case Node::Kind::kLoop:
      for (const NodePtr& child : node->children) run(child, ctx);
      return std::nullopt;
    case Node::Kind::kFor:
      return run_for(*node, ctx);
    case Node::Kind::kCase:
      expand_string(node->words[0]);
      for (const auto& arm : node->patterns) expand_words(arm);
      for (const NodePtr& child : node->children) run(child, ctx);
      return std::nullopt;
    case Node::Kind::kFunction:
      out_.env.functions[node->name] = node->children[0];
      return std::string();
    case Node::Kind::kArith:
      expand_string(node->words[0]);
      return std::string();
  }
  return std::nullopt;
}

std::optional<std::string> Evaluator::run_list(const Node& node, const Context& ctx) {
  std::optional<std::string> all = std::string();
  for (size_t i = 0; i < node.children.size(); ++i) {
    Context c = ctx;
    c.background = ctx.background || (i < node.ops.size() && node.ops[i] == "&");
    auto o = run(node.children[i], c);
    all = all && o && !c.background ? std::optional(*all + *o) : std::nullopt;
  }
  return all;
}

std::optional<std::string> Evaluator::run_pipeline(const Node& node, const Context& ctx) {
  int id = next_pipeline_++;
  std::optional<std::string> previous;
  std::vector<std::string> sources;
  for (size_t i = 0; i < node.children.size(); ++i) {
    Context c = ctx;
    c.pipeline = id;
    c.stage = static_cast<int>(i);
    c.stages = static_cast<int>(node.children.size());
    if (i > 0) c.input = Input{Input::Kind::kPipe, previous, sources};
    size_t before = out_.commands.size();
    previous = run(node.children[i], c);
    sources.clear();
    for (size_t k = before; k < out_.commands.size(); ++k) {
      if (out_.commands[k].via == c.via) sources.emplace_back(out_.commands[k].name());
    }
  }
  return previous;
}

std::optional<std::string> Evaluator::run_for(const Node& node, const Context& ctx) {
  if (node.name.empty()) {  // for (( …))
    for (const NodePtr& child : node.children) run(child, ctx);
    return std::nullopt;
  }
  std::vector<std::string> items = node.for_in ? expand_words(node.words) : positional_;
  constexpr size_t kRounds = 16;
  if (items.size() > kRounds) {
    items.resize(kRounds);
    items.push_back(std::string(1, kUnknown));
  }
  if (items.empty()) items.push_back("");
  for (const std::string& item : items) {
    step();
    assign(node.name, item);
    run(node.children[0], ctx);
  }
  return std::nullopt;
}

std::optional<std::string> Evaluator::call_function(const std::string& name, NodePtr body,
                                                    const std::vector<std::string>& args,
                                                    const Context& ctx) {
  bool spawns = ctx.background || ctx.stages > 1;
  for (size_t i = 0; i < calls_.size(); ++i) {
    if (calls_[i] != name) continue;
    // Recursion that forks: each call starts copies of itself.
    bool forks = spawns;
    for (size_t k = i + 1; k < call_spawns_.size(); ++k) forks = forks || call_spawns_[k];
    if (forks) out_.fork_bomb = true;
    return std::nullopt;
  }
  if (static_cast<int>(calls_.size()) >= limits_.max_calls) throw LimitExceeded("calls too deep");
  calls_.push_back(name);
  call_spawns_.push_back(spawns);
  std::vector<std::string> saved = std::exchange(positional_, args);
  Context c = ctx;
  c.via = "function " + name;
  auto o = run(body, c);
  positional_ = std::move(saved);
  calls_.pop_back();
  call_spawns_.pop_back();
  return o;
}

void Evaluator::assign(const std::string& name, std::string value) {
  out_.env.vars[name] = checked(std::move(value));
}

std::optional<std::string> Evaluator::run_simple(const Node& node, const Context& outer) {
  std::vector<std::string> argv = expand_words(node.words);
  std::vector<std::pair<std::string, std::string>> prefix;
  for (const Assignment& a : node.assigns) {
    std::string value = a.array ? std::string(1, kUnknown) : expand_string(a.value);
    if (a.append) value = lookup(a.name).value_or("") + value;
    if (argv.empty()) {
      assign(a.name, std::move(value));
    } else {
      prefix.emplace_back(a.name, std::move(value));
    }
  }
  Context ctx = with_redirects(node.redirects, outer);
  if (argv.empty()) {
    if (!node.redirects.empty()) run_argv({}, ctx);
    return std::string();
  }
  return run_argv(std::move(argv), std::move(ctx), std::move(prefix));
}

std::optional<std::string> Evaluator::run_argv(
    std::vector<std::string> argv, Context ctx,
    std::vector<std::pair<std::string, std::string>> prefix) {
  step();
  Command cmd;
  cmd.argv = std::move(argv);
  cmd.env = std::move(prefix);
  cmd.word = command_word(cmd.argv, cmd.env);
  cmd.outputs = ctx.outputs;
  cmd.input = ctx.input;
  cmd.cwd = out_.env.cwd;
  cmd.background = ctx.background;
  cmd.pipeline = ctx.pipeline;
  cmd.stage = ctx.stage;
  cmd.stages = ctx.stages;
  cmd.via = ctx.via;
  out_.commands.push_back(cmd);
  if (cmd.word >= cmd.argv.size()) return std::string();
  auto fn = out_.env.functions.find(cmd.argv[0]);
  if (cmd.word == 0 && fn != out_.env.functions.end()) {
    return call_function(cmd.argv[0], fn->second, cmd.args(), ctx);
  }
  std::optional<std::string> output;
  if (cmd.word == 0 && run_builtin(cmd.argv, ctx, output)) return output;
  run_runners(cmd, ctx);
  bool redirected = false;
  for (const Output& o : cmd.outputs) redirected = redirected || o.fd == 1;
  if (redirected) return std::string();
  std::vector<std::string> effective(cmd.argv.begin() + static_cast<long>(cmd.word),
                                     cmd.argv.end());
  for (const std::string& w : effective) {
    if (!is_static(w)) return std::nullopt;
  }
  return static_output(effective, cmd.input.text);
}

Analysis analyze(std::string_view command, const Environment& session, const Limits& limits) {
  Analysis out;
  out.env = session;
  Evaluator evaluator(out, limits);
  try {
    evaluator.run_script(command, Context{});
  } catch (const LimitExceeded&) {
    out.limit_exceeded = true;
  } catch (const SyntaxError&) {
    out.syntax_error = true;
  } catch (const std::length_error&) {
    out.limit_exceeded = true;
  } catch (const std::bad_alloc&) {
    out.limit_exceeded = true;
  }
  return out;
}

Environment load_snapshot(std::string_view script) {
  Limits limits;
  limits.max_input = 4 * 1024 * 1024;
  limits.max_commands = 1 << 16;  // one per exported variable, alias, setting
  Analysis a = analyze(script, {}, limits);
  return std::move(a.env);
}

void merge_definitions(Environment& base, const Environment& later) {
  for (const auto& [name, body] : later.functions) base.functions[name] = body;
  for (const auto& [name, value] : later.aliases) base.aliases[name] = value;
  for (const std::string& name : later.exported) {
    auto it = later.vars.find(name);
    if (it == later.vars.end()) continue;
    base.vars[name] = it->second;
    base.exported.insert(name);
  }
}

}  // namespace hermes::shell
