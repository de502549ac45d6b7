// SPDX-License-Identifier: MIT
// Small queries over Gumbo's tree shared by the markdown writer: attribute
// lookup, which elements are blocks or boilerplate, the text below a node
// (iterative, so hostile nesting depth cannot exhaust the stack), and the
// title, <base> and content scope of a document.
#pragma once

#include <gumbo.h>

#include <string>
#include <string_view>

namespace hermes::web {

// One HTML5 parse, with Gumbo's error list off: Gumbo copies the whole stack
// of open elements into every parse error, so hostile nesting costs
// quadratic memory and time (20,000 unclosed elements: 6 GB, minutes).
class ParsedHtml {
 public:
  explicit ParsedHtml(std::string_view html);
  ~ParsedHtml();
  ParsedHtml(const ParsedHtml&) = delete;
  ParsedHtml& operator=(const ParsedHtml&) = delete;
  const GumboNode* root() const { return output_->root; }

 private:
  GumboOutput* output_;
};

std::string_view attribute(const GumboNode* element, const char* name);
bool has_class_token(const GumboNode* element, std::string_view token);
// Boilerplate and hidden elements: never rendered.
bool is_dropped(const GumboNode* element);
// Elements that start a block of their own in markdown.
bool is_block(GumboTag tag);
// Every text below `node`, verbatim (`br` as a newline).
void append_raw_text(const GumboNode* node, std::string& out);
// The same, whitespace collapsed.
std::string collapsed_text(const GumboNode* node);

struct PageFrame {
  const GumboNode* scope = nullptr;  // single <main>/[role=main], single <article>, or <body>
  std::string title;
  std::string base_href;  // <base href>, as written
};
PageFrame frame_of(const GumboNode* root);

}  // namespace hermes::web
