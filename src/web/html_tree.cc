// SPDX-License-Identifier: MIT
#include "web/html_tree.h"

#include "core/strings.h"
#include "web/markdown_text.h"

#include <vector>

namespace hermes::web {

namespace {

GumboOptions quiet_options() {
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;
  return options;
}
const GumboOptions kQuiet = quiet_options();

bool is_element(const GumboNode* n) {
  return n->type == GUMBO_NODE_ELEMENT || n->type == GUMBO_NODE_TEMPLATE;
}

bool is_text(const GumboNode* n) {
  return n->type == GUMBO_NODE_TEXT || n->type == GUMBO_NODE_WHITESPACE ||
         n->type == GUMBO_NODE_CDATA;
}

bool dropped_tag(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_HEAD:
    case GUMBO_TAG_SCRIPT:
    case GUMBO_TAG_STYLE:
    case GUMBO_TAG_NOSCRIPT:
    case GUMBO_TAG_TEMPLATE:
    case GUMBO_TAG_SVG:
    case GUMBO_TAG_CANVAS:
    case GUMBO_TAG_IFRAME:
    case GUMBO_TAG_OBJECT:
    case GUMBO_TAG_EMBED:
    case GUMBO_TAG_FORM:
    case GUMBO_TAG_BUTTON:
    case GUMBO_TAG_INPUT:
    case GUMBO_TAG_SELECT:
    case GUMBO_TAG_TEXTAREA:
    case GUMBO_TAG_NAV:
    case GUMBO_TAG_ASIDE:
    case GUMBO_TAG_FOOTER:
    case GUMBO_TAG_MATH:
      return true;
    default:
      return false;
  }
}

// Pre-order walk with an explicit stack; `visit` returns false to skip a
// node's children.
template <class Visit>
void walk(const GumboNode* root, Visit visit) {
  std::vector<const GumboNode*> stack{root};
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (!visit(n) || !is_element(n)) continue;
    const GumboVector& kids = n->v.element.children;
    for (unsigned i = kids.length; i-- > 0;)
      stack.push_back(static_cast<const GumboNode*>(kids.data[i]));
  }
}

bool has_tag(const GumboNode* n, GumboTag tag) { return is_element(n) && n->v.element.tag == tag; }

const GumboNode* first_tag(const GumboNode* root, GumboTag tag) {
  const GumboNode* found = nullptr;
  walk(root, [&](const GumboNode* n) {
    if (!found && has_tag(n, tag)) found = n;
    return !found;
  });
  return found;
}

std::string og_title(const GumboNode* root) {
  std::string title;
  walk(root, [&](const GumboNode* n) {
    if (title.empty() && has_tag(n, GUMBO_TAG_META) && attribute(n, "property") == "og:title")
      append_collapsed(title, attribute(n, "content"));
    return title.empty();
  });
  return trim(title);
}

std::string title_of(const GumboNode* root) {
  if (const GumboNode* t = first_tag(root, GUMBO_TAG_TITLE)) {
    if (std::string text = collapsed_text(t); !text.empty()) return text;
  }
  if (std::string og = og_title(root); !og.empty()) return og;
  const GumboNode* h1 = first_tag(root, GUMBO_TAG_H1);
  return h1 ? collapsed_text(h1) : "";
}

bool is_main(const GumboNode* n) {
  return has_tag(n, GUMBO_TAG_MAIN) || (is_element(n) && attribute(n, "role") == "main");
}

}  // namespace

ParsedHtml::ParsedHtml(std::string_view html)
    : output_(gumbo_parse_with_options(&kQuiet, html.data(), html.size())) {}

ParsedHtml::~ParsedHtml() { gumbo_destroy_output(&kQuiet, output_); }

std::string_view attribute(const GumboNode* element, const char* name) {
  const GumboAttribute* a = gumbo_get_attribute(&element->v.element.attributes, name);
  return a ? std::string_view(a->value) : std::string_view();
}

bool has_class_token(const GumboNode* element, std::string_view token) {
  std::string_view classes = attribute(element, "class");
  for (size_t at = classes.find(token); at != std::string_view::npos;
       at = classes.find(token, at + 1)) {
    bool start = at == 0 || classes[at - 1] == ' ';
    bool end = at + token.size() == classes.size() || classes[at + token.size()] == ' ';
    if (start && end) return true;
  }
  return false;
}

bool is_dropped(const GumboNode* element) {
  if (dropped_tag(element->v.element.tag)) return true;
  if (gumbo_get_attribute(&element->v.element.attributes, "hidden")) return true;
  if (attribute(element, "aria-hidden") == "true") return true;
  std::string_view role = attribute(element, "role");
  return role == "navigation" || role == "banner" || role == "contentinfo";
}

bool is_block(GumboTag tag) {
  switch (tag) {
    case GUMBO_TAG_P:
    case GUMBO_TAG_DIV:
    case GUMBO_TAG_SECTION:
    case GUMBO_TAG_ARTICLE:
    case GUMBO_TAG_HEADER:
    case GUMBO_TAG_MAIN:
    case GUMBO_TAG_FIGURE:
    case GUMBO_TAG_FIGCAPTION:
    case GUMBO_TAG_ADDRESS:
    case GUMBO_TAG_H1:
    case GUMBO_TAG_H2:
    case GUMBO_TAG_H3:
    case GUMBO_TAG_H4:
    case GUMBO_TAG_H5:
    case GUMBO_TAG_H6:
    case GUMBO_TAG_HR:
    case GUMBO_TAG_BLOCKQUOTE:
    case GUMBO_TAG_PRE:
    case GUMBO_TAG_UL:
    case GUMBO_TAG_OL:
    case GUMBO_TAG_LI:
    case GUMBO_TAG_DL:
    case GUMBO_TAG_DT:
    case GUMBO_TAG_DD:
    case GUMBO_TAG_TABLE:
    case GUMBO_TAG_CAPTION:
    case GUMBO_TAG_THEAD:
    case GUMBO_TAG_TBODY:
    case GUMBO_TAG_TFOOT:
    case GUMBO_TAG_TR:
    case GUMBO_TAG_TD:
    case GUMBO_TAG_TH:
    case GUMBO_TAG_BODY:
    case GUMBO_TAG_HTML:
    case GUMBO_TAG_CENTER:
    case GUMBO_TAG_DETAILS:
    case GUMBO_TAG_SUMMARY:
    case GUMBO_TAG_FIELDSET:
    case GUMBO_TAG_LEGEND:
    case GUMBO_TAG_HGROUP:
    case GUMBO_TAG_MENU:
      return true;
    default:
      return false;
  }
}

void append_raw_text(const GumboNode* node, std::string& out) {
  walk(node, [&](const GumboNode* n) {
    if (is_text(n)) out += n->v.text.text;
    if (has_tag(n, GUMBO_TAG_BR)) out += '\n';
    return true;
  });
}

std::string collapsed_text(const GumboNode* node) {
  std::string out;
  walk(node, [&](const GumboNode* n) {
    if (is_text(n)) append_collapsed(out, n->v.text.text);
    return !is_element(n) || n == node || !dropped_tag(n->v.element.tag);
  });
  return trim(out);
}

PageFrame frame_of(const GumboNode* root) {
  PageFrame frame;
  frame.title = title_of(root);
  if (const GumboNode* base = first_tag(root, GUMBO_TAG_BASE))
    frame.base_href = attribute(base, "href");
  const GumboNode* main = nullptr;
  const GumboNode* article = nullptr;
  int mains = 0, articles = 0;
  walk(root, [&](const GumboNode* n) {
    if (is_main(n) && ++mains == 1) main = n;
    if (has_tag(n, GUMBO_TAG_ARTICLE) && ++articles == 1) article = n;
    return true;
  });
  frame.scope = mains == 1 ? main : articles == 1 ? article : first_tag(root, GUMBO_TAG_BODY);
  if (!frame.scope) frame.scope = root;
  return frame;
}

}  // namespace hermes::web
