// SPDX-License-Identifier: MIT
// Notebook, .docx and .xlsx extraction with pugixml over ZipArchive members,
// and pdftotext run as a bounded child (argv, no shell).
#include "tools/read_file/documents.h"

#include "core/strings.h"
#include "json/json.h"
#include "json/json_parse.h"
#include "proc/run.h"
#include "tools/read_file/zip_archive.h"

#include <pugixml.hpp>

#include <algorithm>
#include <map>
#include <vector>

namespace hermes::read_file {
namespace {

constexpr size_t kMaxRows = 5000;
constexpr size_t kMaxColumns = 256;

std::string cell_source(const Json& cell, const char* key) {
  auto it = cell.find(key);
  if (it == cell.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  std::string out;
  if (it->is_array())
    for (const Json& part : *it)
      if (part.is_string()) out += part.get<std::string>();
  return out;
}

Result<pugi::xml_document> parse_xml(const std::string& text, const std::string& name) {
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
  if (!parsed)
    return Error::InvalidArgument(name + " is not well-formed XML (" + parsed.description() + ")");
  return doc;
}

// Local name without the namespace prefix (`w:p` → `p`).
std::string_view local(const pugi::xml_node& node) {
  std::string_view name = node.name();
  size_t colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

void paragraph_text(const pugi::xml_node& node, std::string& out) {
  for (pugi::xml_node child : node.children()) {
    std::string_view name = local(child);
    if (name == "t")
      out += child.text().get();
    else if (name == "tab")
      out += '\t';
    else if (name == "br" || name == "cr")
      out += '\n';
    else if (name != "p")
      paragraph_text(child, out);
  }
}

void collect_paragraphs(const pugi::xml_node& node, std::vector<std::string>& lines) {
  for (pugi::xml_node child : node.children()) {
    if (local(child) == "p") {
      std::string text;
      paragraph_text(child, text);
      lines.push_back(std::move(text));
      collect_paragraphs(child, lines);  // text boxes nest paragraphs
    } else {
      collect_paragraphs(child, lines);
    }
  }
}

// Concatenated text of every `t` below `node` (rich-text runs included).
std::string all_text(const pugi::xml_node& node) {
  std::string out;
  for (pugi::xml_node child : node.children()) {
    if (local(child) == "t")
      out += child.text().get();
    else if (local(child) != "rPh")
      out += all_text(child);
  }
  return out;
}

// `BC12` → 54 (0-based column of the letters).
size_t column_index(std::string_view ref) {
  size_t col = 0;
  for (char c : ref) {
    if (c < 'A' || c > 'Z') break;
    col = col * 26 + static_cast<size_t>(c - 'A' + 1);
  }
  return col ? col - 1 : 0;
}

std::string cell_value(const pugi::xml_node& c, const std::vector<std::string>& shared) {
  std::string type = c.attribute("t").as_string();
  pugi::xml_node v = c.child("v");
  if (type == "s") {
    size_t i = static_cast<size_t>(v.text().as_ullong(~0ull));
    return i < shared.size() ? shared[i] : "";
  }
  if (type == "inlineStr") return all_text(c.child("is"));
  if (type == "b") return std::string(v.text().get()) == "1" ? "TRUE" : "FALSE";
  return v.text().get();
}

std::string sheet_rows(const pugi::xml_document& doc, const std::vector<std::string>& shared) {
  std::string out;
  size_t rows = 0;
  for (pugi::xml_node row : doc.document_element().child("sheetData").children("row")) {
    if (rows++ == kMaxRows) break;
    std::vector<std::string> cells;
    size_t next = 0;
    for (pugi::xml_node c : row.children("c")) {
      const char* ref = c.attribute("r").as_string();
      size_t col = *ref ? column_index(ref) : next;
      next = col + 1;
      if (col >= kMaxColumns) continue;
      if (cells.size() <= col) cells.resize(col + 1);
      cells[col] = cell_value(c, shared);
    }
    while (!cells.empty() && cells.back().empty()) cells.pop_back();
    if (cells.empty()) continue;
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) line += (i ? "\t" : "") + cells[i];
    out += line + "\n";
  }
  return out;
}

Result<std::vector<std::string>> shared_strings(ZipArchive& zip) {
  std::vector<std::string> out;
  if (!zip.has("xl/sharedStrings.xml")) return out;
  HERMES_ASSIGN_OR_RETURN(std::string xml, zip.read("xl/sharedStrings.xml"));
  HERMES_ASSIGN_OR_RETURN(pugi::xml_document doc, parse_xml(xml, "sharedStrings.xml"));
  for (pugi::xml_node si : doc.document_element().children("si")) out.push_back(all_text(si));
  return out;
}

// Relationship id → member path under xl/.
Result<std::map<std::string, std::string>> workbook_targets(ZipArchive& zip) {
  HERMES_ASSIGN_OR_RETURN(std::string xml, zip.read("xl/_rels/workbook.xml.rels"));
  HERMES_ASSIGN_OR_RETURN(pugi::xml_document doc, parse_xml(xml, "workbook.xml.rels"));
  std::map<std::string, std::string> out;
  for (pugi::xml_node rel : doc.document_element().children("Relationship")) {
    std::string target = rel.attribute("Target").as_string();
    if (starts_with(target, "/"))
      target = target.substr(1);
    else
      target = "xl/" + target;
    out[rel.attribute("Id").as_string()] = target;
  }
  return out;
}

bool tool_on_path(const std::string& name) {
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin";
  for (const std::string& dir : split(path, ':')) {
    if (::access((dir + "/" + name).c_str(), X_OK) == 0) return true;
  }
  return false;
}

Result<std::string> pdf_text(const std::string& path, std::stop_token stop) {
  proc::SpawnOptions options;
  options.argv = {"pdftotext", "-enc", "UTF-8", "-layout", path, "-"};
  HERMES_ASSIGN_OR_RETURN(proc::ChildProcess child, proc::spawn(options));
  std::string output;
  proc::RunLimits limits;
  limits.timeout = std::chrono::seconds(60);
  proc::RunOutcome outcome = proc::run_bounded(child, limits, stop, [&](std::string_view bytes) {
    if (output.size() < (64u << 20)) output.append(bytes);
  });
  if (outcome.end != proc::RunEnd::kExited) return Error::Timeout("pdftotext did not finish");
  if (outcome.status.code != 0) {
    return Error::InvalidArgument("pdftotext failed: " + trim(output.substr(0, 300)));
  }
  return pdf_pages_text(output);
}

}  // namespace

std::optional<DocumentKind> document_kind(const std::string& ext) {
  if (ext == ".ipynb") return DocumentKind::kNotebook;
  if (ext == ".docx") return DocumentKind::kDocx;
  if (ext == ".xlsx") return DocumentKind::kXlsx;
  // Looked up per call, on the PATH of the moment (a stat per PATH entry).
  if (ext == ".pdf" && tool_on_path("pdftotext")) return DocumentKind::kPdf;
  return std::nullopt;
}

Result<std::string> notebook_text(const std::string& json_text) {
  // Bounded like every JSON the server reads: a hostile notebook nested a
  // million deep is refused, not walked.
  auto parsed = parse_json(json_text);
  if (!parsed || !parsed->is_object()) return Error::InvalidArgument("not a JSON notebook");
  const Json& nb = *parsed;
  std::vector<const Json*> cells;
  if (auto it = nb.find("cells"); it != nb.end() && it->is_array()) {
    for (const Json& c : *it) cells.push_back(&c);
  } else if (auto ws = nb.find("worksheets"); ws != nb.end() && ws->is_array()) {
    for (const Json& sheet : *ws)
      if (auto sc = sheet.find("cells"); sc != sheet.end() && sc->is_array())
        for (const Json& c : *sc) cells.push_back(&c);
  } else {
    return Error::InvalidArgument("notebook has no cells");
  }
  std::string out;
  int markdown = 0, code = 0;
  for (const Json* cell : cells) {
    if (!cell->is_object()) return Error::InvalidArgument("malformed cell");
    auto type_it = cell->find("cell_type");
    std::string type =
        type_it != cell->end() && type_it->is_string() ? type_it->get<std::string>() : "";
    if (type == "markdown")
      out += "# ── Markdown cell " + std::to_string(++markdown) + " ──\n";
    else if (type == "code")
      out += "# ── Code cell " + std::to_string(++code) + " ──\n";
    else
      out += "# ── Raw cell ──\n";
    std::string source = cell_source(*cell, "source");
    if (source.empty()) source = cell_source(*cell, "input");
    out += source + "\n\n";
  }
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out + "\n";
}

Result<std::string> docx_text(const std::string& path) {
  HERMES_ASSIGN_OR_RETURN(ZipArchive zip, ZipArchive::open(path));
  HERMES_ASSIGN_OR_RETURN(std::string xml, zip.read("word/document.xml"));
  HERMES_ASSIGN_OR_RETURN(pugi::xml_document doc, parse_xml(xml, "document.xml"));
  std::vector<std::string> lines;
  collect_paragraphs(doc.document_element(), lines);
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

Result<std::string> xlsx_text(const std::string& path) {
  HERMES_ASSIGN_OR_RETURN(ZipArchive zip, ZipArchive::open(path));
  HERMES_ASSIGN_OR_RETURN(std::vector<std::string> shared, shared_strings(zip));
  HERMES_ASSIGN_OR_RETURN(auto targets, workbook_targets(zip));
  HERMES_ASSIGN_OR_RETURN(std::string xml, zip.read("xl/workbook.xml"));
  HERMES_ASSIGN_OR_RETURN(pugi::xml_document book, parse_xml(xml, "workbook.xml"));
  std::string out;
  for (pugi::xml_node sheet : book.document_element().child("sheets").children("sheet")) {
    std::string state = sheet.attribute("state").as_string();
    if (state == "hidden" || state == "veryHidden") continue;
    auto target = targets.find(sheet.attribute("r:id").as_string());
    if (target == targets.end()) return Error::InvalidArgument("sheet without a part");
    HERMES_ASSIGN_OR_RETURN(std::string sheet_xml, zip.read(target->second));
    HERMES_ASSIGN_OR_RETURN(pugi::xml_document doc, parse_xml(sheet_xml, target->second));
    std::string rows = sheet_rows(doc, shared);
    out += "# ── Sheet: " + std::string(sheet.attribute("name").as_string()) + " ──\n";
    out += (rows.empty() ? "(empty)\n" : rows) + "\n";
  }
  return out;
}

std::string pdf_pages_text(const std::string& raw) {
  std::vector<std::string> pages = {""};
  for (char c : raw) {
    if (c == '\f')
      pages.emplace_back();
    else
      pages.back() += c;
  }
  if (pages.size() > 1 && trim(pages.back()).empty()) pages.pop_back();
  std::vector<size_t> empty;
  std::string text;
  for (size_t i = 0; i < pages.size(); ++i) {
    if (trim(pages[i]).empty()) {
      empty.push_back(i + 1);
      continue;
    }
    text += pages[i];
    if (!text.empty() && text.back() != '\n') text += '\n';
  }
  // "Many": at least a quarter of the pages (and at least one) came back empty.
  if (empty.empty() || empty.size() * 4 < pages.size()) return text;
  std::string list;
  for (size_t i = 0; i < empty.size(); ++i) list += (i ? ", " : "") + std::to_string(empty[i]);
  text += "\nEXTRACTION COVERAGE WARNING: " + std::to_string(empty.size()) + " of " +
          std::to_string(pages.size()) + " page(s) returned no text (pages " + list +
          "). PDF extraction reads the text layer only, so these are probably scanned or image "
          "pages. Do not treat this extraction as complete: render those pages with pdftoppm and "
          "inspect them with vision_analyze, or OCR them.\n";
  return text;
}

Result<std::string> extract_document(const std::string& path, DocumentKind kind,
                                     std::stop_token stop) {
  if (kind == DocumentKind::kPdf) return pdf_text(path, stop);
  if (kind == DocumentKind::kXlsx) return xlsx_text(path);
  return docx_text(path);
}

}  // namespace hermes::read_file
