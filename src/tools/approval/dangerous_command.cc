// SPDX-License-Identifier: MIT
// The rule table. `kCommand` rules are anchored at a simple command's start
// (behind sudo/env/exec/nohup/… and a /path/ prefix) on quote-free text;
// `kText` rules search the whole command with quoted prose blanked;
// `kPlain` rules search the whole quote-free command.
#include "tools/approval/dangerous_command.h"

#include "tools/approval/command_checks.h"
#include "tools/approval/command_normalize.h"
#include "tools/approval/command_render.h"
#include "tools/approval/sql_where.h"

#include <re2/re2.h>

#include <memory>
#include <vector>

namespace hermes::approval {
namespace {

enum class Scope { kCommand, kText, kPlain };

struct Rule {
  const char* description;
  bool hardline;
  Scope scope;
  const char* pattern;
  // Optional: must also match (kCommand: same segment).
  const char* also = nullptr;
  // Optional: must not match.
  const char* unless = nullptr;
  // Optional: must also hold, for what a pattern cannot say.
  bool (*holds)(std::string_view text) = nullptr;
};

// Wrappers a command word may hide behind, and an optional /path/ prefix.
#define PRE                                                                                        \
  R"(^(?:(?:sudo|doas|env|exec|nohup|setsid|time|nice|stdbuf|command|ionice|)"                     \
  R"(busybox|chroot\s+\S+|timeout\s+\S+|watch|xargs)(?:\s+-{1,2}[\w=:.-]+(?:\s+[^\s-]\S*)?)*\s+|)" \
  R"([A-Za-z_]\w*=\S*\s+)*(?:[\w.~-]*/)*)"

#define RM_TARGETS_ROOT R"(\s(?:/+\.{0,2}/*|/+\*)(?:\s|$))"
#define SQL_CLIENT                                                                    \
  R"((?:^|[\s;&|(/])(?:psql|mysql|mariadb|sqlite3?|sqlcmd|duckdb|clickhouse-client|)" \
  R"(mongosh|mongo|cockroach|snowsql|bq|cqlsh|pgcli|mycli|litecli)\b)"
#define SYS_DIRS R"((?:home|root|etc|usr|var|bin|sbin|boot|lib|lib32|lib64|opt|srv|dev|proc|sys))"

const Rule kRules[] = {
    // Hardline tier.
    {"recursive delete of root filesystem", true, Scope::kCommand,
     PRE R"(rm\b.*\s(?:-[a-zA-Z]*[rR]|--recursive))", RM_TARGETS_ROOT},
    {"recursive delete of system directory", true, Scope::kCommand,
     PRE R"(rm\b.*\s(?:-[a-zA-Z]*[rR]|--recursive))", R"(\s/+)" SYS_DIRS R"(/*\*?(?:\s|$))"},
    {"recursive delete of home directory", true, Scope::kCommand,
     PRE R"(rm\b.*\s(?:-[a-zA-Z]*[rR]|--recursive))", R"(\s(?:~|\$\{?HOME\}?)/*\*?(?:\s|$))"},
    {"format filesystem (mkfs)", true, Scope::kCommand, PRE R"(mkfs(?:\.\w+)?\b)"},
    {"wipe raw block device", true, Scope::kCommand,
     PRE
     R"((?:wipefs\b.*\s(?:-[a-zA-Z]*a|--all\b)|sgdisk\b.*\s-[a-zA-Z]*Z|blkdiscard\b|shred\b.*\s/dev/))"},
    {"dd to raw block device", true, Scope::kCommand,
     PRE R"(dd\b.*\bof=/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|nbd|r?disk\d))"},
    {"redirect to raw block device", true, Scope::kPlain,
     R"(>\s*/dev/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|md\d|dm-\d|loop\d|nbd\d|r?disk\d))"},
    {"fork bomb", true, Scope::kPlain,
     R"((?:\w+|:)\s*\(\s*\)\s*\{\s*(?:\w+|:)\s*\|\s*(?:\w+|:)\s*&\s*;?\s*\})"},
    {"kill all processes", true, Scope::kCommand, PRE R"(kill\s+(?:-\S+\s+)*-1\s*$)"},
    {"system shutdown/reboot", true, Scope::kCommand, PRE R"((?:shutdown|reboot|poweroff|halt)\b)"},
    {"init 0/6 (shutdown/reboot)", true, Scope::kCommand, PRE R"(init\s+[06]\b)"},
    {"systemctl poweroff/reboot", true, Scope::kCommand,
     PRE R"(systemctl\s+(?:-\S+\s+)*(?:poweroff|reboot|halt|kexec)\b)"},
    {"telinit 0/6 (shutdown/reboot)", true, Scope::kCommand, PRE R"(telinit\s+[06]\b)"},
    // Deletes.
    {"recursive delete", false, Scope::kCommand, PRE R"(rm\s+(?:-\S+\s+)*-[a-zA-Z]*[rR])"},
    {"recursive delete (long flag)", false, Scope::kCommand, PRE R"(rm\b.*\s--recursive\b)"},
    {"recursive delete (flags after operands)", false, Scope::kCommand,
     PRE R"(rm\s+[^-\s]\S*.*\s-[a-zA-Z]*[rR])"},
    {"delete in root path", false, Scope::kCommand, PRE R"(rm\s+(?:-\S+\s+)*/)"},
    {"Windows recursive delete", false, Scope::kCommand,
     PRE R"((?:cmd(?:\.exe)?\s+/c\s+)?(?:del|erase|rd|rmdir)\s+.*/[sSqQ]\b)"},
    {"PowerShell recursive delete", false, Scope::kPlain, R"((?i)remove-item\b.*-recurse)"},
    {"encoded PowerShell command", false, Scope::kPlain,
     R"((?i)\b(?:powershell|pwsh)(?:\.exe)?\b.*\s-(?:e|ec|enc|encodedcommand)\s)"},
    {"PowerShell download and execute", false, Scope::kPlain,
     R"((?i)\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b.*\|\s*(?:iex|invoke-expression)\b)"},
    {"Windows force kill", false, Scope::kCommand, PRE R"(taskkill\b.*\s/[fF]\b)"},
    {"Windows disk or ACL tool", false, Scope::kCommand,
     PRE R"((?:diskpart|format\s+[a-zA-Z]:|icacls\b.*\s/grant|takeown\b|cacls\b))"},
    {"Windows registry delete", false, Scope::kCommand, PRE R"(reg(?:\.exe)?\s+delete\b)"},
    {"Windows service stop/delete", false, Scope::kCommand,
     PRE R"(sc(?:\.exe)?\s+(?:stop|delete)\b)"},
    // Permissions.
    {"world/other-writable permissions", false, Scope::kCommand,
     PRE
     R"(chmod\b.*\s(?:0?[0-7]?[0-7][0-7][2367]|[ugoa]*[oa][ugoa]*\+[rwxXst]*w[rwxXst]*)(?:\s|$))"},
    {"recursive chown to root", false, Scope::kCommand, PRE R"(chown\b.*\s-[a-zA-Z]*R)",
     R"(\sroot(?::\S*)?(?:\s|$))"},
    // Disks.
    {"disk copy", false, Scope::kCommand, PRE R"(dd\b.*\bif=)"},
    // Syncs that delete what the source lacks (an empty source empties the
    // destination), locally or in cloud storage.
    {"sync that deletes files", false, Scope::kCommand,
     PRE R"((?:rsync\b.*\s--(?:del|delete(?:-[\w-]+)?|remove-(?:source|sent)-files)(?:[\s=]|$)|)"
         R"(rclone\s+(?:-\S+\s+)*(?:sync|bisync|purge|delete|deletefile)\b|)"
         R"(aws\s+s3\s+sync\b.*\s--delete\b|s3cmd\s+sync\b.*\s--delete-removed\b|)"
         R"(gsutil\s+(?:-\S+\s+)*rsync\b.*\s-[a-zA-Z]*d|)"
         R"(gcloud\s+storage\s+rsync\b.*\s--delete-unmatched-destination-objects\b|)"
         R"(azcopy\s+sync\b.*\s--delete-destination(?:=true)?\b|mc\s+mirror\b.*\s--remove\b))"},
    // SQL: only with a database client in the command, so prose (commit
    // messages, greps of migrations) does not count.
    {"SQL DROP", false, Scope::kPlain,
     R"((?i)\bdrop\s+(?:table|database|schema|index|view|user)\b)", SQL_CLIENT},
    {"SQL DELETE without WHERE", false, Scope::kPlain, R"((?i)\bdelete\s+from\s+\S+)", SQL_CLIENT,
     R"((?i)\bdelete\s+from\s+[^\n]*\bwhere\b)"},
    {"SQL DELETE or UPDATE with an always-true WHERE", false, Scope::kPlain,
     R"((?i)\b(?:delete\s+from|update)\b[^\n]*\bwhere\b)", SQL_CLIENT, nullptr,
     has_always_true_where},
    {"SQL UPDATE without WHERE", false, Scope::kPlain, R"((?i)\bupdate\s+\S+\s+set\s)", SQL_CLIENT,
     R"((?i)\bupdate\s+[^\n]*\bwhere\b)"},
    {"SQL TRUNCATE", false, Scope::kPlain, R"((?i)\btruncate\s+(?:table\s+)?[\w."`]+\s*;?)",
     SQL_CLIENT},
    // System.
    {"overwrite system config", false, Scope::kPlain, R"(>\s*/etc/)"},
    {"stop/restart system service", false, Scope::kCommand,
     PRE
     R"((?:systemctl\s+(?:-\S+\s+)*(?:stop|restart|disable|mask|kill)\b|service\s+\S+\s+(?:stop|restart)\b))"},
    {"force kill all processes", false, Scope::kCommand,
     PRE R"(kill\s+-(?:9|KILL|SIGKILL)\s+-1\b)"},
    {"force kill processes by name", false, Scope::kCommand,
     PRE
     R"((?:pkill\s+(?:-\S+\s+)*-(?:9|KILL|SIGKILL)\b|killall\s+(?:-\S+\s+)*-(?:9|KILL|SIGKILL|r)\b))"},
    // Remote code.
    {"pipe remote content to shell", false, Scope::kText,
     R"(\b(?:curl|wget|fetch)\b[^|]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:\S*/)?(?:ba|z|k|da|a|fi)?sh\b)"},
    {"pipe content to shell", false, Scope::kText,
     R"(\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:\S*/)?(?:ba|z|k|da|a|fi)?sh\s*(?:-s\s*)?(?:$|[;&|)]))"},
    {"pipe remote content to interpreter", false, Scope::kText,
     R"(\b(?:curl|wget)\b[^|]*\|\s*(?:sudo\s+)?(?:\S*/)?(?:python[\d.]*|perl|ruby|node|php)\b)"},
    {"execute remote script via process substitution", false, Scope::kPlain,
     R"((?:\bsource|\.|(?:ba|z|k|da)?sh)\s+<\(\s*(?:curl|wget)\b)"},
    {"eval of remote content", false, Scope::kPlain, R"(\beval\b.*\$\(\s*(?:curl|wget)\b)"},
    {"cloud metadata endpoint access (instance credentials)", false, Scope::kPlain,
     R"((?i)169\.254\.169\.254|metadata\.google\.internal|100\.100\.100\.200|fd00:ec2::254)"},
    // Obfuscation.
    {"decoded content piped to shell", false, Scope::kText,
     R"((?:\bbase(?:64|32|16)\b[^|]*\s(?:-d|--decode|-D)\b|\bxxd\b[^|]*\s-r|\bopenssl\b[^|]*\s(?:-d|base64)\b|\becho\b[^|]*\|\s*tr\b)[^|]*\|\s*(?:sudo\s+)?(?:\S*/)?(?:ba|z|k|da|a)?sh\b)"},
    // Sensitive writes.
    {"write to sensitive system or credential file", false, Scope::kPlain,
     R"((?:>>?|\btee\s+(?:-a\s+)?)\s*(?:/etc/|/dev/sd|~/\.ssh/|/root/\.ssh/|~/\.hermes/(?:\.env|config\.yaml)|~/\.(?:bashrc|zshrc|profile|bash_profile|bash_login|zprofile|netrc|pgpass|npmrc|pypirc)\b))"},
    {"overwrite project .env or config.yaml", false, Scope::kPlain,
     R"((?:>|\btee\s+(?:-a\s+)?)\s*(?:[\w.~/-]*/)?(?:\.env[\w.-]*|config\.yaml)(?:\s|$))"},
    {"copy/move onto .env, config or credential path", false, Scope::kCommand,
     PRE
     R"((?:cp|mv|install)\b.*\s(?:[\w.~/-]*/)?(?:\.env[\w.-]*|config\.yaml|/etc/\S*|~/\.ssh/?\S*)\s*$)"},
    {"in-place edit of sensitive file", false, Scope::kCommand,
     PRE R"((?:sed|perl|ruby)\s+(?:-\S+\s+)*(?:-[a-zA-Z]*i|--in-place))",
     R"(\s(?:/etc/|~/\.ssh|[\w.~/-]*\.env\b|[\w.~/-]*config\.yaml|~/\.(?:bashrc|zshrc|profile|netrc|pgpass|npmrc|pypirc)))"},
    // find / xargs.
    {"xargs with rm", false, Scope::kText, R"(\bxargs\s+(?:-\S+\s+)*(?:sudo\s+)?(?:\S*/)?rm\b)"},
    {"find -exec/-execdir rm", false, Scope::kText,
     R"(\bfind\b.*\s-(?:exec|execdir|ok|okdir)\s+(?:sudo\s+)?(?:\S*/)?rm\b)"},
    {"find -delete", false, Scope::kText, R"(\bfind\b.*\s-delete\b)"},
    // Hermes self-protection.
    {"stop/restart the Hermes gateway", false, Scope::kCommand,
     PRE R"(hermes\b.*\bgateway\s+(?:stop|restart)\b)"},
    {"start the Hermes gateway in the background", false, Scope::kPlain,
     R"((?:\bnohup\s+(?:\S*/)?hermes\b[^;|]*\bgateway\s+run\b|\bhermes\b[^;|]*\bgateway\s+run\b[^;|]*&))"},
    {"Hermes self-update", false, Scope::kCommand, PRE R"(hermes\s+update\b)"},
    {"kill Hermes processes", false, Scope::kText,
     R"((?:\b(?:pkill|killall)\b[^|;&]*\b(?:hermes|gateway|cli\.py)\b|\bkill\b[^|;&]*\$\(\s*pgrep\b))"},
    {"launchctl change of a Hermes service", false, Scope::kCommand,
     PRE R"(launchctl\s+(?:bootout|kickstart|unload|remove|stop|disable)\b.*hermes)"},
    // Containers.
    {"docker remote host/context", false, Scope::kPlain,
     R"((?:\bdocker\s+(?:-H|--host|--context)\b|\bdocker\s+context\s+use\b|\bpodman\s+(?:--url|-r)\b|\bDOCKER_HOST=))"},
    {"stop/restart containers", false, Scope::kCommand,
     PRE
     R"((?:docker\s+(?:compose\s+)?|docker-compose\s+|podman\s+)(?:-\S+\s+)*(?:restart|stop|kill|down|rm)\b)"},
    // Git.
    {"git reset --hard (destroys uncommitted changes)", false, Scope::kCommand,
     PRE R"(git\s+(?:-\S+\s+)*reset\b.*\s--h(?:a(?:r(?:d)?)?)?\b)"},
    {"git force push", false, Scope::kCommand,
     PRE R"(git\s+(?:-\S+\s+)*push\b.*\s(?:--force\b|--force-with-lease\b|-[a-zA-Z]*f\b|\+\S))"},
    {"git clean with force (deletes untracked files)", false, Scope::kCommand,
     PRE R"(git\s+(?:-\S+\s+)*clean\b.*\s(?:-[a-zA-Z]*f|--force\b))"},
    {"git branch force delete", false, Scope::kCommand,
     PRE R"((?-i:git\s+(?:-\S+\s+)*branch\b.*\s(?:-D\b|--delete\s+--force|-[a-zA-Z]*D\b)))"},
    // Other.
    {"shell execution via heredoc", false, Scope::kText,
     R"((?:^|[\s;&|(])(?:\S*/)?(?:ba|z|k|da|a)?sh\s+(?:-\S+\s+)*<<)"},
    {"script execution via heredoc", false, Scope::kText,
     R"((?:^|[\s;&|(])(?:\S*/)?(?:python[\d.]*|node|perl|ruby|php)\s+(?:-\S+\s+)*-?\s*<<)"},
    {"chmod +x followed by immediate execution", false, Scope::kPlain,
     R"(\bchmod\s+(?:-\S+\s+)*[ugoa]*\+x\s+\S+\s*(?:&&|;|\n)\s*(?:\./|/|~/|bash\b|sh\b))"},
    {"sudo with stdin password, askpass or shell", false, Scope::kCommand,
     R"(^sudo\s+(?:-\S+\s+)*-[a-zA-Z]*[SAsa]\b)"},
    {"package manager uninstall", false, Scope::kCommand,
     PRE
     R"((?:(?:npm|pnpm)\s+(?:uninstall|remove|rm|un|r)\b|yarn\s+(?:global\s+)?remove\b|pip[\d.]*\s+uninstall\b|python[\d.]*\s+-m\s+pip\s+uninstall\b|brew\s+(?:uninstall|remove|rm)\b))"},
    // Structural.
    {"script execution via -e/-c flag", false, Scope::kText,
     R"((?:^|[\s;&|(`])(?:\S*/)?(?:python[\d.]*|pypy3?|node|nodejs|perl|ruby|php|pwsh|powershell|bun|deno|osascript|lua|Rscript)(?:\s+-\S+)*\s+-(?:c|e|E|r|-eval|-command|command|Command)\b)"},
    {"script execution via -e/-c flag", false, Scope::kText, R"((?:^|[\s;&|(`])deno\s+eval\b)"},
    {"shell command via -c/-lc flag", false, Scope::kText,
     R"((?:^|[\s;&|(`])(?:\S*/)?(?:ba|z|k|da|a|fi|tc|c)?sh\s+(?:-[a-zA-Z]+\s+)*-[a-zA-Z]*c[a-zA-Z]*(?:\s|$))"},
    {"shell command via eval", false, Scope::kCommand, R"(^(?:builtin\s+)?eval\s+\S)"},
    {"arbitrary program execution via rg --pre | sort --compress-program | ag --pager | man -P",
     false, Scope::kText,
     R"((?:\brg\b.*\s--pre[=\s]|\bsort\b.*\s--compress-program[=\s]|\bag\b.*\s--pager[=\s]|\bman\b.*\s-P\s))"},
};

#undef PRE
#undef RM_TARGETS_ROOT
#undef SYS_DIRS
#undef SQL_CLIENT

struct CompiledRule {
  const Rule* rule;
  std::unique_ptr<RE2> pattern, also, unless;
};

std::unique_ptr<RE2> compile(const char* pattern, bool case_sensitive) {
  if (!pattern) return nullptr;
  RE2::Options options;
  options.set_case_sensitive(case_sensitive);
  options.set_log_errors(false);
  options.set_posix_syntax(false);
  auto re = std::make_unique<RE2>(pattern, options);
  return re->ok() ? std::move(re) : nullptr;
}

const std::vector<CompiledRule>& compiled_rules() {
  static const std::vector<CompiledRule> kCompiled = [] {
    std::vector<CompiledRule> out;
    for (const Rule& rule : kRules) {
      // Case-insensitive matching, except rules that pin a case (`-D`).
      bool cs = std::string_view(rule.pattern).find("(?-i:") != std::string_view::npos;
      out.push_back(
          {&rule, compile(rule.pattern, cs), compile(rule.also, cs), compile(rule.unless, cs)});
    }
    return out;
  }();
  return kCompiled;
}

bool matches_text(const CompiledRule& r, const std::string& text) {
  if (!RE2::PartialMatch(text, *r.pattern)) return false;
  if (r.also && !RE2::PartialMatch(text, *r.also)) return false;
  if (r.unless && RE2::PartialMatch(text, *r.unless)) return false;
  return !r.rule->holds || r.rule->holds(text);
}

bool matches(const CompiledRule& r, const CommandTexts& texts) {
  if (!r.pattern) return false;
  switch (r.rule->scope) {
    case Scope::kText:
      return matches_text(r, texts.masked);
    case Scope::kPlain:
      return matches_text(r, texts.plain);
    case Scope::kCommand:
      for (const std::string& segment : texts.segments) {
        if (matches_text(r, segment)) return true;
      }
      return false;
  }
  return false;
}

bool is_verify_cleanup(std::string_view command) {
  static const RE2 kExempt(R"(rm -f /tmp/hermes-verify-[\w.-]+)");
  return RE2::FullMatch(command, kExempt);
}

// The rule table over rendered texts: the first hardline match, else the
// first dangerous one.
std::optional<Detection> match_rules(const std::vector<CommandTexts>& variants) {
  std::optional<Detection> first;
  for (const CompiledRule& r : compiled_rules()) {
    if (first && !r.rule->hardline) break;  // hardline rules come first
    for (const CommandTexts& texts : variants) {
      if (!matches(r, texts)) continue;
      if (r.rule->hardline) return Detection{r.rule->description, true};
      first = Detection{r.rule->description, false};
      break;
    }
  }
  return first;
}

std::optional<Detection> detect_in(const shell::Analysis& analysis, std::string_view command) {
  if (analysis.limit_exceeded) return Detection{"command parser limit exceeded", false};
  std::vector<CommandTexts> variants = render(analysis);
  // Past a syntax error bash stops too, but a reading that differs from
  // bash's must not hide what follows: the raw text is matched as well.
  if (analysis.syntax_error) {
    for (CommandTexts& t : command_variants(command)) variants.push_back(std::move(t));
  }
  std::optional<Detection> rules = match_rules(variants);
  if (rules && rules->hardline) return rules;
  std::optional<Detection> parsed = check_parsed(analysis);
  if (parsed && parsed->hardline) return parsed;
  if (rules) return rules;
  if (parsed) return parsed;
  if (analysis.syntax_error)
    return Detection{"shell syntax the approval parser cannot read", false};
  return std::nullopt;
}

}  // namespace

std::optional<Detection> detect_dangerous(std::string_view command,
                                          const shell::Environment& session,
                                          shell::Environment* after) {
  if (exceeds_parser_limits(command)) return Detection{"command parser limit exceeded", false};
  if (is_verify_cleanup(command)) return std::nullopt;
  shell::Analysis analysis = shell::analyze(fold_text(command), session);
  std::optional<Detection> found = detect_in(analysis, command);
  if (after) *after = std::move(analysis.env);
  return found;
}

std::vector<std::string> broken_rules() {
  std::vector<std::string> out;
  for (const CompiledRule& r : compiled_rules()) {
    if (!r.pattern || (r.rule->also && !r.also) || (r.rule->unless && !r.unless)) {
      out.push_back(r.rule->description);
    }
  }
  return out;
}

}  // namespace hermes::approval
