// SPDX-License-Identifier: MIT
// Document extraction through read_file: notebooks written as JSON, .docx
// and .xlsx written with libzip by the test, malformed containers, and the
// PDF coverage warning.
#include "tools/read_file/documents.h"

#include "backend/local_backend.h"
#include "backend/shell_file_system.h"
#include "tools/read_file/document_copy.h"
#include "tools/read_file/harness.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zip.h>

#include <map>
#include <vector>

namespace hermes::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Writes a zip with the given members (name → content).
void write_zip(const std::string& path, const std::map<std::string, std::string>& members) {
  int err = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  ASSERT_NE(archive, nullptr);
  for (const auto& [name, content] : members) {
    zip_source_t* src = zip_source_buffer(archive, content.data(), content.size(), 0);
    ASSERT_GE(zip_file_add(archive, name.c_str(), src, ZIP_FL_OVERWRITE), 0);
  }
  ASSERT_EQ(zip_close(archive), 0);
}

constexpr const char* kW =
    "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"";

TEST(Documents, Notebook) {
  ReadFileHarness h;
  h.dir().write("n.ipynb", R"json({"cells": [
    {"cell_type": "markdown", "source": ["# Title\n", "text"]},
    {"cell_type": "code", "source": "print(1)"},
    {"cell_type": "raw", "source": "raw"},
    {"cell_type": "code", "source": ["x = 2"]}], "nbformat": 4})json");
  Json r = h.read("n.ipynb");
  EXPECT_EQ(
      r["content"],
      "1|# ── Markdown cell 1 ──\n2|# Title\n3|text\n4|\n5|# ── Code cell 1 ──\n6|print(1)\n7|\n"
      "8|# ── Raw cell ──\n9|raw\n10|\n11|# ── Code cell 2 ──\n12|x = 2");
  EXPECT_EQ(r["extracted_document"], true);
  EXPECT_EQ(r["total_lines"], 12);
  h.dir().write("typed.ipynb", R"({"cells": [{"cell_type": 7, "source": ["x"]}]})");
  EXPECT_EQ(h.read("typed.ipynb")["content"], "1|# ── Raw cell ──\n2|x");
  h.dir().write("bad.ipynb", "not json\n");
  EXPECT_EQ(h.read("bad.ipynb")["content"], "1|not json");  // falls through to text
  h.dir().write("old.ipynb",
                R"({"worksheets": [{"cells": [{"cell_type": "code", "input": "a"}]}]})");
  EXPECT_EQ(h.read("old.ipynb")["content"], "1|# ── Code cell 1 ──\n2|a");
  // Nested past the parser's depth bound: refused as a notebook and shown as
  // text, without the server walking it.
  std::string deep =
      "{\"cells\": [{\"cell_type\": \"code\", \"source\": " + std::string(200000, '[') +
      std::string(200000, ']') + "}]}";
  h.dir().write("deep.ipynb", deep);
  Json deep_read = h.read("deep.ipynb");
  EXPECT_TRUE(deep_read.value("content", "").starts_with("1|{\"cells\": [{")) << deep_read;
}

TEST(Documents, Docx) {
  ReadFileHarness h;
  std::string doc =
      std::string("<w:document ") + kW +
      "><w:body><w:p><w:r><w:t>Hello</w:t></w:r><w:r><w:tab/><w:t>world</w:t></w:r></w:p>"
      "<w:p><w:r><w:t>one</w:t><w:br/><w:t>two</w:t></w:r></w:p>"
      "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
      "</w:body></w:document>";
  write_zip(h.dir().file("d.docx"), {{"word/document.xml", doc}});
  Json r = h.read("d.docx");
  EXPECT_EQ(r["content"], "1|Hello\tworld\n2|one\n3|two\n4|cell");
  EXPECT_EQ(r["extracted_document"], true);
  h.dir().write("broken.docx", "PK\x03\x04 not really");
  EXPECT_THAT(h.read("broken.docx")["error"].get<std::string>(),
              StartsWith("Cannot read 'broken.docx' (.docx): document extraction failed — "));
  write_zip(h.dir().file("noxml.docx"), {{"word/document.xml", "<w:document"}});
  EXPECT_THAT(h.read("noxml.docx")["error"].get<std::string>(),
              HasSubstr("document extraction failed"));
}

TEST(Documents, Xlsx) {
  ReadFileHarness h;
  const std::string ns =
      "xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
      "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"";
  write_zip(
      h.dir().file("b.xlsx"),
      {{"xl/workbook.xml",
        "<workbook " + ns +
            "><sheets>"
            "<sheet name=\"Data\" sheetId=\"1\" r:id=\"rId1\"/>"
            "<sheet name=\"Hidden\" sheetId=\"2\" state=\"hidden\" r:id=\"rId2\"/>"
            "<sheet name=\"Empty\" sheetId=\"3\" r:id=\"rId3\"/></sheets></workbook>"},
       {"xl/_rels/workbook.xml.rels",
        "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
        "<Relationship Id=\"rId1\" Target=\"worksheets/sheet1.xml\"/>"
        "<Relationship Id=\"rId2\" Target=\"worksheets/sheet2.xml\"/>"
        "<Relationship Id=\"rId3\" Target=\"/xl/worksheets/sheet3.xml\"/></Relationships>"},
       {"xl/sharedStrings.xml",
        "<sst " + ns + "><si><t>name</t></si><si><r><t>A</t></r><r><t>da</t></r></si></sst>"},
       {"xl/worksheets/sheet1.xml",
        "<worksheet " + ns +
            "><sheetData>"
            "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c><c r=\"C1\"><v>3.5</v></c></row>"
            "<row r=\"2\"><c r=\"A2\" t=\"s\"><v>1</v></c><c r=\"B2\" t=\"b\"><v>1</v></c>"
            "<c r=\"C2\" t=\"e\"><v>#DIV/0!</v></c><c r=\"D2\" "
            "t=\"inlineStr\"><is><t>in</t></is></c></row>"
            "</sheetData></worksheet>"},
       {"xl/worksheets/sheet2.xml", "<worksheet " + ns + "><sheetData/></worksheet>"},
       {"xl/worksheets/sheet3.xml", "<worksheet " + ns + "><sheetData/></worksheet>"}});
  Json r = h.read("b.xlsx");
  EXPECT_EQ(
      r["content"],
      "1|# ── Sheet: Data ──\n2|name\t\t3.5\n3|Ada\tTRUE\t#DIV/0!\tin\n4|\n5|# ── Sheet: Empty ──\n"
      "6|(empty)\n7|");
  EXPECT_EQ(r["extracted_document"], true);
}

TEST(Documents, ZipBombRatioRefused) {
  ReadFileHarness h;
  write_zip(h.dir().file("bomb.docx"), {{"word/document.xml", std::string(4 << 20, 'a')}});
  EXPECT_THAT(h.read("bomb.docx")["error"].get<std::string>(),
              HasSubstr("compression ratio above 200"));
}

// A two-page PDF: page 1 has a text layer, page 2 is blank (like a scan).
std::string two_page_pdf() {
  const std::string stream = "BT /F1 12 Tf 20 100 Td (Hello PDF) Tj ET";
  const std::vector<std::string> objects = {
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R "
      "/Resources << /Font << /F1 6 0 R >> >> >>",
      "<< /Length " + std::to_string(stream.size()) + " >>\nstream\n" + stream + "\nendstream",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"};
  std::string pdf = "%PDF-1.4\n";
  std::vector<size_t> offsets;
  for (size_t i = 0; i < objects.size(); ++i) {
    offsets.push_back(pdf.size());
    pdf += std::to_string(i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n";
  }
  size_t xref = pdf.size();
  pdf += "xref\n0 " + std::to_string(objects.size() + 1) + "\n0000000000 65535 f \n";
  for (size_t off : offsets) {
    std::string n = std::to_string(off);
    pdf += std::string(10 - n.size(), '0') + n + " 00000 n \n";
  }
  pdf += "trailer\n<< /Size " + std::to_string(objects.size() + 1) +
         " /Root 1 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return pdf;
}

TEST(Documents, PdfThroughPdftotext) {
  if (!read_file::document_kind(".pdf")) GTEST_SKIP() << "pdftotext not installed";
  ReadFileHarness h;
  h.dir().write("scan.pdf", two_page_pdf());
  Json r = h.read("scan.pdf");
  std::string content = r["content"];
  EXPECT_THAT(content, StartsWith("1|Hello PDF\n"));
  EXPECT_THAT(content,
              HasSubstr("EXTRACTION COVERAGE WARNING: 1 of 2 page(s) returned no text (pages 2)."));
  EXPECT_EQ(r["extracted_document"], true);
  h.dir().write("fake.pdf", "%PDF-1.4 garbage");
  EXPECT_THAT(h.read("fake.pdf")["error"].get<std::string>(),
              StartsWith("Cannot read 'fake.pdf' (.pdf): document extraction failed — "));
}

// A document on another machine is copied to the host and extracted there:
// the same text, the same failures.
TEST(Documents, CopiedFromABackendExtractsTheSame) {
  TempDir dir;
  backend::ShellFileSystem fs(std::make_shared<backend::LocalBackend>(/*portable_files=*/true), {});
  std::string doc = std::string("<w:document ") + kW +
                    "><w:body><w:p><w:r><w:t>Hi there</w:t></w:r></w:p></w:body></w:document>";
  write_zip(dir.file("d.docx"), {{"word/document.xml", doc}});
  std::vector<std::pair<std::string, read_file::DocumentKind>> files = {
      {dir.file("d.docx"), read_file::DocumentKind::kDocx},
      {dir.write("bad.xlsx", "PK junk"), read_file::DocumentKind::kXlsx}};
  if (read_file::document_kind(".pdf"))
    files.emplace_back(dir.write("p.pdf", two_page_pdf()), read_file::DocumentKind::kPdf);
  for (const auto& [path, kind] : files) {
    auto local = read_file::extract_document(path, kind, {});
    auto copied = read_file::extract_document_copy(fs, path, 100, kind, {});
    ASSERT_EQ(bool(local), bool(copied)) << path;
    if (local)
      EXPECT_EQ(*local, *copied) << path;
    else
      EXPECT_EQ(local.error().message, copied.error().message) << path;
  }
  EXPECT_EQ(*read_file::extract_document_copy(fs, dir.file("d.docx"), 100,
                                              read_file::DocumentKind::kDocx, {}),
            "Hi there\n");
  auto huge = read_file::extract_document_copy(fs, dir.file("d.docx"), 65ull << 20,
                                               read_file::DocumentKind::kDocx, {});
  EXPECT_EQ(huge.error().code, ErrorCode::kTooLarge);
  EXPECT_EQ(read_file::extract_document_copy(fs, dir.file("gone.docx"), 1,
                                             read_file::DocumentKind::kDocx, {})
                .error()
                .code,
            ErrorCode::kNotFound);
}

TEST(Documents, PdfCoverageWarning) {
  std::string text = read_file::pdf_pages_text("page one\n\f\f   \fpage four\n\f");
  EXPECT_THAT(text, StartsWith("page one\npage four\n"));
  EXPECT_THAT(
      text,
      HasSubstr("EXTRACTION COVERAGE WARNING: 2 of 4 page(s) returned no text (pages 2, 3)."));
  EXPECT_THAT(text, HasSubstr("pdftoppm"));
  EXPECT_EQ(read_file::pdf_pages_text("a\fb\fc\fd\fe\f"), "a\nb\nc\nd\ne\n");
}

}  // namespace
}  // namespace hermes::testing
