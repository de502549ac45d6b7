// SPDX-License-Identifier: MIT
#include "web/markdown_table.h"

#include <algorithm>

namespace hermes::web {
namespace {

constexpr int kMaxColspan = 64;

std::string escape_pipes(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string render_row(const std::vector<std::string>& cells, size_t width) {
  std::string out = "|";
  for (size_t i = 0; i < width; ++i) out += " " + (i < cells.size() ? cells[i] : "") + " |";
  return out;
}

std::string_view separator(Alignment align) {
  switch (align) {
    case Alignment::kLeft:
      return " :--- |";
    case Alignment::kCenter:
      return " :---: |";
    case Alignment::kRight:
      return " ---: |";
    case Alignment::kNone:
      break;
  }
  return " --- |";
}

}  // namespace

void TableBuilder::add_cell(std::string text, bool header, int colspan, Alignment align) {
  if (rows_.empty()) start_row();
  Row& row = rows_.back();
  row.cells.push_back(escape_pipes(text));
  row.aligns.push_back(align);
  row.has_header_cell |= header;
  for (int i = 1; i < std::clamp(colspan, 1, kMaxColspan); ++i) {
    row.cells.emplace_back();
    row.aligns.push_back(align);
  }
}

std::string TableBuilder::render() const {
  std::vector<const Row*> rows;
  for (const Row& r : rows_)
    if (!r.cells.empty()) rows.push_back(&r);
  if (rows.empty()) return caption_;
  auto header =
      std::find_if(rows.begin(), rows.end(), [](const Row* r) { return r->has_header_cell; });
  if (header == rows.end()) header = rows.begin();
  std::rotate(rows.begin(), header, header + 1);
  size_t width = 0;
  for (const Row* r : rows) width = std::max(width, r->cells.size());
  std::string out = caption_.empty() ? "" : caption_ + "\n\n";
  out += render_row(rows[0]->cells, width) + "\n|";
  for (size_t i = 0; i < width; ++i)
    out += separator(i < rows[0]->aligns.size() ? rows[0]->aligns[i] : Alignment::kNone);
  for (size_t i = 1; i < rows.size(); ++i) out += "\n" + render_row(rows[i]->cells, width);
  return out;
}

}  // namespace hermes::web
