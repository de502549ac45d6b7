// SPDX-License-Identifier: MIT
#include "web/html_markdown.h"

#include "core/strings.h"
#include "web/html_tree.h"
#include "web/markdown_table.h"
#include "web/markdown_text.h"
#include "web/url.h"

#include <gumbo.h>

#include <utility>
#include <vector>

namespace hermes::web {
namespace {

// Beyond this nesting depth a subtree is rendered as its plain text: hostile
// pages nest tens of thousands of elements.
constexpr int kMaxDepth = 256;

const GumboVector& children(const GumboNode* n) { return n->v.element.children; }
const GumboNode* child(const GumboNode* n, unsigned i) {
  return static_cast<const GumboNode*>(children(n).data[i]);
}
bool is_text_node(const GumboNode* n) {
  return n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE ||
         n->type == GUMBO_NODE_CDATA;
}
bool is_element_node(const GumboNode* n) {
  return n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE;
}
GumboTag tag_of(const GumboNode* n) { return n->v.element.tag; }

// Inline text with its edge whitespace taken off and remembered, so
// `a<b> b </b>c` becomes `a **b** c`.
struct Trimmed {
  std::string text;
  bool space_before = false;
  bool space_after = false;
};

Trimmed trim_edges(std::string text) {
  Trimmed out;
  size_t first = text.find_first_not_of(" \n");
  if (first == std::string::npos) {
    out.space_before = !text.empty();
    return out;
  }
  size_t last = text.find_last_not_of(" \n");
  out.space_before = first > 0;
  out.space_after = last + 1 < text.size();
  out.text = text.substr(first, last + 1 - first);
  return out;
}

void put_wrapped(std::string& out, const Trimmed& t, std::string_view open,
                 std::string_view close) {
  if (t.space_before) append_collapsed(out, " ");
  if (!t.text.empty()) {
    out += open;
    out += t.text;
    out += close;
  }
  if (t.space_after) append_collapsed(out, " ");
}

std::string single_line(std::string text) {
  for (char& c : text)
    if (c == '\n') c = ' ';
  return text;
}

// The language a highlighter named in `node`'s classes: `language-x` and
// `lang-x`, or around a <pre> Sphinx's `highlight-x` and GitHub's
// `highlight-source-x` (Sphinx's `highlight-default` names none).
std::string class_language(const GumboNode* node, bool wrapper) {
  for (const std::string& token : split(attribute(node, "class"), ' ')) {
    if (!wrapper && starts_with(token, "language-")) return token.substr(9);
    if (!wrapper && starts_with(token, "lang-")) return token.substr(5);
    if (!wrapper || !starts_with(token, "highlight-")) continue;
    std::string name = token.substr(10);
    if (starts_with(name, "source-")) name = name.substr(7);
    if (name != "default") return name;
  }
  return "";
}

std::string code_language(const GumboNode* pre) {
  std::string found = class_language(pre, false);
  for (unsigned i = 0; i < children(pre).length && found.empty(); ++i)
    if (is_element_node(child(pre, i)) && tag_of(child(pre, i)) == GUMBO_TAG_CODE)
      found = class_language(child(pre, i), false);
  const GumboNode* up = pre->parent;
  for (int level = 0; level < 2 && found.empty() && up && up->type == GUMBO_NODE_ELEMENT; ++level) {
    found = class_language(up, true);
    up = up->parent;
  }
  return found;
}

// A heading's permalink (Sphinx's `¶`, rustdoc's `§`, an icon): a
// `#fragment` link whose text is only such a mark.
bool is_permalink_mark(std::string_view text) {
  constexpr std::string_view kMarks[] = {"\u00B6", "\u00A7", "#", "\U0001F517", "\u200B", " "};
  for (bool progress = true; progress && !text.empty();) {
    progress = false;
    for (std::string_view mark : kMarks)
      if (starts_with(text, mark)) {
        text.remove_prefix(mark.size());
        progress = true;
      }
  }
  return text.empty();
}

// `align` or a `text-align` style: GFM can say left, center and right.
Alignment cell_alignment(const GumboNode* cell) {
  std::string value = to_lower(trim(attribute(cell, "align")));
  std::string style = to_lower(attribute(cell, "style"));
  if (size_t at = style.find("text-align"); value.empty() && at != std::string::npos) {
    size_t colon = style.find(':', at);
    if (colon != std::string::npos)
      value = trim(style.substr(colon + 1, style.find(';', colon) - colon - 1));
  }
  if (value == "left" || value == "start") return Alignment::kLeft;
  if (value == "center") return Alignment::kCenter;
  if (value == "right" || value == "end") return Alignment::kRight;
  return Alignment::kNone;
}

class Converter {
 public:
  explicit Converter(std::string base) : base_(std::move(base)) {}

  // The blocks below `node`, separated by a blank line (one newline when
  // `tight`, inside list items).
  std::string blocks(const GumboNode* node, int depth, bool tight = false) {
    if (depth > kMaxDepth) return collapsed_text(node);
    std::string joined, para;
    auto flush = [&](std::string block) {
      block = trim(block);
      if (block.empty()) return;
      if (!joined.empty()) joined += tight ? "\n" : "\n\n";
      joined += block;
    };
    for (unsigned i = 0; i < children(node).length; ++i) {
      const GumboNode* c = child(node, i);
      if (is_element_node(c) && !is_dropped(c) && is_block(tag_of(c))) {
        flush(std::exchange(para, std::string()));
        flush(block(c, depth + 1));
      } else {
        inline_node(para, c, depth + 1);
      }
    }
    flush(std::move(para));
    return joined;
  }

  // The inline markdown of `node` appended to `out`.
  void inline_node(std::string& out, const GumboNode* node, int depth) {
    if (is_text_node(node)) return append_collapsed(out, node->v.text.text);
    if (!is_element_node(node) || is_dropped(node)) return;
    if (depth > kMaxDepth) return append_collapsed(out, collapsed_text(node));
    switch (tag_of(node)) {
      case GUMBO_TAG_BR:
        while (!out.empty() && out.back() == ' ') out.pop_back();
        out += '\n';
        return;
      case GUMBO_TAG_A:
        return link(out, node, depth);
      case GUMBO_TAG_IMG:
        return image(out, node);
      case GUMBO_TAG_STRONG:
      case GUMBO_TAG_B:
        return put_wrapped(out, inner(node, depth), "**", "**");
      case GUMBO_TAG_EM:
      case GUMBO_TAG_I:
        return put_wrapped(out, inner(node, depth), "*", "*");
      case GUMBO_TAG_DEL:
      case GUMBO_TAG_S:
      case GUMBO_TAG_STRIKE:
        return put_wrapped(out, inner(node, depth), "~~", "~~");
      case GUMBO_TAG_CODE:
      case GUMBO_TAG_KBD:
      case GUMBO_TAG_SAMP:
      case GUMBO_TAG_TT:
        return code(out, node);
      default:
        break;
    }
    bool spaced = is_block(tag_of(node));  // a block inside inline content
    if (spaced) append_collapsed(out, " ");
    for (unsigned i = 0; i < children(node).length; ++i)
      inline_node(out, child(node, i), depth + 1);
    if (spaced) append_collapsed(out, " ");
  }

 private:
  std::string block(const GumboNode* el, int depth) {
    switch (tag_of(el)) {
      case GUMBO_TAG_H1:
      case GUMBO_TAG_H2:
      case GUMBO_TAG_H3:
      case GUMBO_TAG_H4:
      case GUMBO_TAG_H5:
      case GUMBO_TAG_H6:
        return heading(el, depth);
      case GUMBO_TAG_HR:
        return "---";
      case GUMBO_TAG_BLOCKQUOTE: {
        std::string body = blocks(el, depth);
        return body.empty() ? "" : prefix_lines(body, "> ", "> ");
      }
      case GUMBO_TAG_PRE:
        return preformatted(el);
      case GUMBO_TAG_UL:
        return list(el, depth, false);
      case GUMBO_TAG_OL:
        return list(el, depth, true);
      case GUMBO_TAG_DL:
        return blocks(el, depth, true);
      case GUMBO_TAG_DT: {
        std::string term = single_line(trim(inline_of(el, depth)));
        return term.empty() ? "" : "**" + term + "**";
      }
      case GUMBO_TAG_DD: {
        std::string body = blocks(el, depth, true);
        return body.empty() ? "" : prefix_lines(body, ": ", "  ");
      }
      case GUMBO_TAG_TABLE:
        return table(el, depth);
      default:
        return blocks(el, depth);
    }
  }

  std::string inline_of(const GumboNode* el, int depth) {
    std::string out;
    for (unsigned i = 0; i < children(el).length; ++i) inline_node(out, child(el, i), depth + 1);
    return out;
  }

  Trimmed inner(const GumboNode* el, int depth) {
    // A leading sentinel keeps the first whitespace visible to trim_edges.
    std::string text = "\x01";
    for (unsigned i = 0; i < children(el).length; ++i) inline_node(text, child(el, i), depth + 1);
    text.erase(0, 1);
    return trim_edges(std::move(text));
  }

  std::string heading(const GumboNode* el, int depth) {
    std::string text = single_line(trim(inline_of(el, depth)));
    if (text.empty()) return "";
    int level = tag_of(el) - GUMBO_TAG_H1 + 1;
    return std::string(static_cast<size_t>(level), '#') + " " + text;
  }

  std::string preformatted(const GumboNode* el) {
    std::string text;
    append_raw_text(el, text);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    std::string fence = backtick_fence(text, 3);
    return fence + code_language(el) + "\n" + text + "\n" + fence;
  }

  std::string list(const GumboNode* el, int depth, bool ordered) {
    int64_t number = ordered ? parse_int(attribute(el, "start")).value_or(1) : 0;
    std::string out;
    for (unsigned i = 0; i < children(el).length; ++i) {
      const GumboNode* item = child(el, i);
      if (!is_element_node(item) || is_dropped(item)) continue;
      bool is_item = tag_of(item) == GUMBO_TAG_LI;
      std::string body = is_item ? blocks(item, depth + 1, true) : block(item, depth + 1);
      if (body.empty()) continue;
      if (!out.empty()) out += '\n';
      if (!is_item) {  // a list nested directly in a list: indent it under the previous item
        out += prefix_lines(body, ordered ? "   " : "  ", ordered ? "   " : "  ");
        continue;
      }
      std::string marker = ordered ? std::to_string(number++) + ". " : "- ";
      out += prefix_lines(body, marker, ordered ? "   " : "  ");
    }
    return out;
  }

  std::string table(const GumboNode* el, int depth) {
    TableBuilder builder;
    if (!collect_rows(el, depth, builder)) return blocks(el, depth);  // holds a table: flatten
    return builder.render();
  }

  // False when the table holds another table.
  bool collect_rows(const GumboNode* node, int depth, TableBuilder& builder) {
    for (unsigned i = 0; i < children(node).length; ++i) {
      const GumboNode* c = child(node, i);
      if (!is_element_node(c)) continue;
      GumboTag tag = tag_of(c);
      if (tag == GUMBO_TAG_TABLE) return false;
      if (tag == GUMBO_TAG_THEAD || tag == GUMBO_TAG_TBODY || tag == GUMBO_TAG_TFOOT) {
        if (!collect_rows(c, depth + 1, builder)) return false;
      } else if (tag == GUMBO_TAG_TR) {
        if (!collect_cells(c, depth + 1, builder)) return false;
      } else if (tag == GUMBO_TAG_CAPTION) {
        builder.set_caption(single_line(blocks(c, depth + 1)));
      }
    }
    return true;
  }

  bool collect_cells(const GumboNode* row, int depth, TableBuilder& builder) {
    builder.start_row();
    for (unsigned i = 0; i < children(row).length; ++i) {
      const GumboNode* cell = child(row, i);
      if (!is_element_node(cell) || (tag_of(cell) != GUMBO_TAG_TD && tag_of(cell) != GUMBO_TAG_TH))
        continue;
      if (contains_table(cell)) return false;
      int span = static_cast<int>(parse_int(attribute(cell, "colspan")).value_or(1));
      builder.add_cell(single_line(blocks(cell, depth + 1)), tag_of(cell) == GUMBO_TAG_TH, span,
                       cell_alignment(cell));
    }
    return true;
  }

  static bool contains_table(const GumboNode* cell) {
    std::vector<const GumboNode*> stack{cell};
    while (!stack.empty()) {
      const GumboNode* n = stack.back();
      stack.pop_back();
      if (!is_element_node(n)) continue;
      if (n != cell && tag_of(n) == GUMBO_TAG_TABLE) return true;
      for (unsigned i = 0; i < children(n).length; ++i) stack.push_back(child(n, i));
    }
    return false;
  }

  void link(std::string& out, const GumboNode* el, int depth) {
    Trimmed t = inner(el, depth);
    t.text = single_line(std::move(t.text));
    std::string href = trim(attribute(el, "href"));
    bool dead =
        href.empty() || href[0] == '#' || starts_with(to_lower(href.substr(0, 11)), "javascript:");
    if (dead && !href.empty() && href[0] == '#' && is_permalink_mark(t.text)) return;
    if (dead) return put_wrapped(out, t, "", "");
    std::string target = absolute(href);
    if (t.text.empty()) t.text = target;
    put_wrapped(out, t, "[", "](" + target + ")");
  }

  void image(std::string& out, const GumboNode* el) {
    std::string src = trim(attribute(el, "src"));
    if (src.empty()) return;
    std::string alt;
    append_collapsed(alt, attribute(el, "alt"));
    out += "![" + trim(alt) + "](" + absolute(src) + ")";
  }

  void code(std::string& out, const GumboNode* el) {
    std::string raw;
    append_raw_text(el, raw);
    std::string text = "\x01";
    append_collapsed(text, raw);
    text.erase(0, 1);
    Trimmed t = trim_edges(std::move(text));
    if (!t.text.empty()) t.text = code_span(t.text);
    put_wrapped(out, t, "", "");
  }

  std::string absolute(const std::string& href) {
    bool plain = (starts_with(href, "https://") || starts_with(href, "http://")) &&
                 href.find_first_of(" \t\n") == std::string::npos;
    if (plain || starts_with(href, "data:") || starts_with(href, "mailto:")) return href;
    return resolve_url(base_, href).value_or(href);
  }

  std::string base_;
};

}  // namespace

HtmlDocument html_to_markdown(std::string_view html, const std::string& page_url) {
  ParsedHtml doc(html);
  PageFrame frame = frame_of(doc.root());
  std::string base = frame.base_href.empty()
                         ? page_url
                         : resolve_url(page_url, frame.base_href).value_or(page_url);
  Converter converter(base);
  return {frame.title, tidy_markdown(converter.blocks(frame.scope, 0))};
}

}  // namespace hermes::web
