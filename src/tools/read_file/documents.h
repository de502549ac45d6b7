// SPDX-License-Identifier: MIT
// Document extraction to plain text (docs/tools/read_file.md): Jupyter notebooks
// (JSON), .docx and .xlsx (zip + XML, with zip-bomb limits) natively, and PDF
// through `pdftotext` when it is installed.
#pragma once

#include "core/result.h"

#include <optional>
#include <stop_token>
#include <string>

namespace hermes::read_file {

enum class DocumentKind { kNotebook, kDocx, kXlsx, kPdf };

// The kind for an extension (`.ipynb`, `.docx`, `.xlsx`, `.pdf`), or nullopt;
// `.pdf` only when pdftotext is on PATH.
std::optional<DocumentKind> document_kind(const std::string& ext);

// The text of a .docx, .xlsx or .pdf; an error's message is the reason
// extraction failed. (Notebooks are JSON text: see notebook_text.)
Result<std::string> extract_document(const std::string& path, DocumentKind kind,
                                     std::stop_token stop);
// A notebook's cells as text; fails for malformed JSON (the caller then
// reads the file as plain text).
Result<std::string> notebook_text(const std::string& json_text);
Result<std::string> docx_text(const std::string& path);
Result<std::string> xlsx_text(const std::string& path);
// pdftotext output (pages split by form feeds) with the coverage warning
// appended when many pages are empty.
std::string pdf_pages_text(const std::string& raw);

}  // namespace hermes::read_file
