// SPDX-License-Identifier: MIT
// read_file's JSON edge (read_file_json.cc): the arguments (int() coercion of offset/limit) and the
// contract's JSON for an output. The typed boundary is read_file.h, which has no JSON in it.
#pragma once

#include "core/result.h"
#include "json/json.h"
#include "tools/read_file/read_file.h"

namespace hermes::read_file {

Result<ReadFileParams> parse_read_file_params(const Json& args);
Json read_file_json(const ReadFileOutput& output);
// Whether a call on `args` is brief for the call pool: a read of an
// absolute path whose real path is not a PDF (pdftotext may take a minute).
bool reads_briefly(const Json& args, registry::BriefFindings& found);

}  // namespace hermes::read_file
