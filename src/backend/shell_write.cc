// SPDX-License-Identifier: MIT
// ShellFileSystem::write_atomic: atomic_write's steps as one script — follow
// links hop by hop, make missing parents, content over stdin through
// `base64 -d` into a temp file beside the target, copy mode and owner, sync,
// `mv -f` over the target. An EXIT trap removes the temp file on any failure.
#include "backend/shell_file_system.h"
#include "core/base64.h"
#include "core/strings.h"

namespace hermes::backend {
namespace {

// On failure the script prints the failed step (as the native error names
// it) then NUL; on success `OK`, the written path, whether it existed, the
// SHA-256 and stat line of the file read back, and each directory made, all
// NUL-terminated.
constexpr const char* kWriteScript = R"sh(
fail() { printf '%s\0' "$1"; exit 1; }
t=$p; n=0
while [ -L "$t" ]; do
  n=$((n + 1))
  if [ $n -gt 40 ]; then printf '\0'; echo "too many levels of symbolic links: $t" >&2; exit 1; fi
  l=$(readlink -- "$t"; printf x); l=${l%$'\n'x}
  case $l in /*) t=$l ;; *) t=${t%/*}/$l ;; esac
done
d=${t%/*}; d=${d:-/}
set --; q=$d
while [ ! -e "$q" ]; do set -- "$q" "$@"; q=${q%/*}; q=${q:-/}; done
if [ ! -d "$q" ]; then printf '\0'; echo "not a directory: $q" >&2; exit 1; fi
for q do mkdir -- "$q" || fail "mkdir \"$q\""; done
tmp=$(mktemp -- "$d/.hermes-tmp.XXXXXX") || fail "create temp file in \"$d\""
trap '[ -n "$tmp" ] && rm -f -- "$tmp"' EXIT
if [ -e "$t" ]; then
  e=1; chmod "$(stat -c %a -- "$t")" -- "$tmp"
  chown "$(stat -c %u:%g -- "$t")" -- "$tmp" 2>/dev/null  # best effort, as natively
else
  e=0; chmod "$(printf %o $((0666 & ~$(umask))))" -- "$tmp"
fi
base64 -d > "$tmp" || fail write
sync -- "$tmp" 2>/dev/null || :  # best effort: old coreutils sync takes no file
if [ -d "$t" ]; then printf 'rename to "%s"\0' "$t"; echo "mv: Is a directory" >&2; exit 1; fi
mv -f -- "$tmp" "$t" || fail "rename to \"$t\""
tmp=
printf 'OK\0%s\0%s\0' "$t" "$e"
sha256sum < "$t" | cut -c1-64 | tr -d '\n'; printf '\0'
stat -L -c "$F" -- "$t" | tr -d '\n'; printf '\0'
for q do printf '%s\0' "$q"; done
)sh";

}  // namespace

Result<fs::AtomicWriteOutcome> ShellFileSystem::write_atomic(const std::string& path,
                                                             std::string_view bytes,
                                                             const fs::AtomicWriteOptions&) const {
  forget();
  std::string script = "p=" + shell_quote(path) + "\nF=" + kShellStatFormat + "\n" + kWriteScript;
  HERMES_ASSIGN_OR_RETURN(backend::BashOutcome out, exec(script, base64_encode(bytes)));
  std::vector<std::string> fields = nul_fields(out.output);
  if (out.exit_code != 0 || fields.size() < 5 || fields[0] != "OK") {
    return command_error(fields.empty() ? "write" : fields[0], out.stderr_text);
  }
  fs::AtomicWriteOutcome outcome;
  outcome.written_path = fields[1];
  outcome.created = fields[2] == "0";
  outcome.created_dirs.assign(fields.begin() + 5, fields.end());
  // What commit_write and the read tracker ask next, already read back.
  std::lock_guard lock(memo_mu_);
  if (fields[3].size() == 64) sha_memo_[outcome.written_path] = fields[3];
  if (auto info = parse_stat_line(fields[4])) {
    memo_.insert_or_assign(MemoKey{true, outcome.written_path}, *info);
  }
  return outcome;
}

}  // namespace hermes::backend
