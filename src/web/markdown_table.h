// SPDX-License-Identifier: MIT
// GFM pipe tables: the header is the first row holding a <th> (else the
// first row), `colspan` repeats empty cells, `|` is escaped, rows are
// padded to the widest, and the header cells' alignment marks the columns.
#pragma once

#include <string>
#include <vector>

namespace hermes::web {

enum class Alignment { kNone, kLeft, kCenter, kRight };

class TableBuilder {
 public:
  void set_caption(std::string caption) { caption_ = std::move(caption); }
  void start_row() { rows_.push_back({}); }
  void add_cell(std::string text, bool header, int colspan, Alignment align = Alignment::kNone);
  std::string render() const;

 private:
  struct Row {
    std::vector<std::string> cells;
    std::vector<Alignment> aligns;  // one per cell
    bool has_header_cell = false;
  };
  std::string caption_;
  std::vector<Row> rows_;
};

}  // namespace hermes::web
