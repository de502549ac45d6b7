// SPDX-License-Identifier: MIT
// Parity cases for the file tools: reads (pagination, CRLF, BOM, unicode
// names, refusals), writes (CRLF/BOM preservation, parents, staleness),
// patches (exact, fuzzy, V4A) and searches. Each returns the tool results
// and the bytes the host sees afterwards.
#include <vector>

#include "parity/parity_env.h"

namespace hermes::testing {
namespace {

Json read(ParityEnv& e, const std::string& path, int offset = 0, int limit = 0) {
  Json args{{"path", path}};
  if (offset) args["offset"] = offset;
  if (limit) args["limit"] = limit;
  return e.call("read_file", args);
}
Json write(ParityEnv& e, const std::string& path, const std::string& content) {
  return e.call("write_file", {{"path", path}, {"content", content}});
}
Json replace(ParityEnv& e, const std::string& path, const std::string& old_s,
             const std::string& new_s, bool all = false) {
  return e.call("patch", {{"mode", "replace"},
                          {"path", path},
                          {"old_string", old_s},
                          {"new_string", new_s},
                          {"replace_all", all}});
}
Json v4a(ParityEnv& e, const std::string& body) {
  return e.call("patch",
                {{"mode", "patch"}, {"patch", "*** Begin Patch\n" + body + "*** End Patch\n"}});
}
Json search(ParityEnv& e, Json args) { return e.call("search_files", args); }

// rg walks directories in parallel: cases over several files compare
// content, count and files-only results in path order.
Json search_any_order(ParityEnv& e, Json args) { return in_path_order(search(e, std::move(args))); }

std::string numbered(int n) {
  std::string s;
  for (int i = 1; i <= n; ++i) s += "line " + std::to_string(i) + "\n";
  return s;
}

const std::string kSrc =
    "def greet(name):\n    print('hello', name)\n\n\ndef main():\n    greet('world')\n";

std::vector<ParityCase> read_cases() {
  return {
      {"read_simple",
       [](ParityEnv& e) {
         e.write("a.txt", "one\ntwo\nthree\n");
         return read(e, "a.txt");
       }},
      {"read_absolute",
       [](ParityEnv& e) {
         e.write("a.txt", "abs\n");
         return read(e, e.path("a.txt"));
       }},
      {"read_pagination",
       [](ParityEnv& e) {
         e.write("n.txt", numbered(50));
         return Json::array(
             {read(e, "n.txt", 1, 10), read(e, "n.txt", 11, 10), read(e, "n.txt", 45, 10)});
       }},
      {"read_offset_past_end",
       [](ParityEnv& e) {
         e.write("n.txt", numbered(5));
         return read(e, "n.txt", 100, 10);
       }},
      {"read_crlf",
       [](ParityEnv& e) {
         e.write("w.txt", "one\r\ntwo\r\nthree\r\n");
         return read(e, "w.txt");
       }},
      {"read_bom",
       [](ParityEnv& e) {
         e.write("b.txt",
                 "\xEF\xBB\xBF"
                 "bom first\nsecond\n");
         return read(e, "b.txt");
       }},
      {"read_unicode_name",
       [](ParityEnv& e) {
         e.write("naïve 文件.txt", "ünïcödé\n");
         return read(e, "naïve 文件.txt");
       }},
      {"read_space_name",
       [](ParityEnv& e) {
         e.write("dir with space/it's.txt", "q\n");
         return read(e, "dir with space/it's.txt");
       }},
      {"read_empty",
       [](ParityEnv& e) {
         e.write("empty.txt", "");
         return read(e, "empty.txt");
       }},
      {"read_no_trailing_newline",
       [](ParityEnv& e) {
         e.write("t.txt", "a\nb");
         return read(e, "t.txt");
       }},
      {"read_missing",
       [](ParityEnv& e) {
         e.write("present.txt", "x\n");
         return read(e, "absent.txt");
       }},
      {"read_directory",
       [](ParityEnv& e) {
         e.write("d/x.txt", "x\n");
         return read(e, "d");
       }},
      {"read_binary",
       [](ParityEnv& e) {
         e.write("bin.dat", std::string("\x00\x01\x02\xff\x00zz", 7));
         return read(e, "bin.dat");
       }},
      {"read_long_line",
       [](ParityEnv& e) {
         e.write("long.txt", std::string(5000, 'x') + "\nshort\n");
         return read(e, "long.txt");
       }},
      {"read_invalid_utf8",
       [](ParityEnv& e) {
         e.write("bad.txt", "caf\xe9 ok\n");
         return read(e, "bad.txt");
       }},
      {"read_twice_dedup",
       [](ParityEnv& e) {
         e.write("a.txt", "same\n");
         return Json::array({read(e, "a.txt"), read(e, "a.txt")});
       }},
  };
}

std::vector<ParityCase> write_cases() {
  return {
      {"write_new",
       [](ParityEnv& e) {
         return Json::array({write(e, "new.txt", "fresh\n"), e.read("new.txt")});
       }},
      {"write_parents",
       [](ParityEnv& e) {
         return Json::array({write(e, "a/b/c.txt", "deep\n"), e.read("a/b/c.txt")});
       }},
      {"write_unicode_name",
       [](ParityEnv& e) {
         return Json::array({write(e, "ß/日本.md", "# 見出し\n"), e.read("ß/日本.md")});
       }},
      {"write_after_read",
       [](ParityEnv& e) {
         e.write("f.txt", "old\n");
         return Json::array({read(e, "f.txt"), write(e, "f.txt", "new\n"), e.read("f.txt")});
       }},
      {"write_unread_existing",
       [](ParityEnv& e) {
         e.write("f.txt", "old\n");
         return Json::array({write(e, "f.txt", "new\n"), e.read("f.txt")});
       }},
      {"write_crlf_preserved",
       [](ParityEnv& e) {
         e.write("w.txt", "a\r\nb\r\n");
         return Json::array({read(e, "w.txt"), write(e, "w.txt", "a\nb\nc\n"), e.read("w.txt")});
       }},
      {"write_bom_preserved",
       [](ParityEnv& e) {
         e.write("b.txt", "\xEF\xBB\xBFx\n");
         return Json::array({read(e, "b.txt"), write(e, "b.txt", "y\n"), e.read("b.txt")});
       }},
      {"write_empty",
       [](ParityEnv& e) {
         return Json::array({write(e, "e.txt", ""), e.read("e.txt").size()});
       }},
      {"write_then_read",
       [](ParityEnv& e) {
         return Json::array({write(e, "r.txt", "1\n2\n"), read(e, "r.txt")});
       }},
      {"write_to_directory",
       [](ParityEnv& e) {
         e.write("d/x", "");
         return write(e, "d", "nope");
       }},
      {"write_stale_after_change",
       [](ParityEnv& e) {
         e.write("s.txt", "v1\n");
         Json r = read(e, "s.txt");
         e.write("s.txt", "v2 changed elsewhere\n");
         return Json::array({r, write(e, "s.txt", "mine\n"), e.read("s.txt")});
       }},
      {"write_large",
       [](ParityEnv& e) {
         std::string big = numbered(20000);
         return Json::array({write(e, "big.txt", big), e.read("big.txt") == big});
       }},
  };
}

std::vector<ParityCase> patch_cases() {
  return {
      {"patch_exact",
       [](ParityEnv& e) {
         e.write("p.py", kSrc);
         return Json::array(
             {read(e, "p.py"), replace(e, "p.py", "'hello'", "'hi'"), e.read("p.py")});
       }},
      {"patch_fuzzy_indent",
       [](ParityEnv& e) {
         e.write("p.py", kSrc);
         return Json::array({read(e, "p.py"),
                             replace(e, "p.py", "print('hello', name)", "print('hey', name)"),
                             e.read("p.py")});
       }},
      {"patch_fuzzy_whitespace",
       [](ParityEnv& e) {
         e.write("p.py", kSrc);
         return Json::array({read(e, "p.py"),
                             replace(e, "p.py", "def   main():\n  greet('world')",
                                     "def main():\n    greet('you')"),
                             e.read("p.py")});
       }},
      {"patch_not_found",
       [](ParityEnv& e) {
         e.write("p.py", kSrc);
         return Json::array(
             {read(e, "p.py"), replace(e, "p.py", "no such text", "x"), e.read("p.py")});
       }},
      {"patch_ambiguous",
       [](ParityEnv& e) {
         e.write("r.txt", "x = 1\nx = 1\n");
         return Json::array(
             {read(e, "r.txt"), replace(e, "r.txt", "x = 1", "x = 2"), e.read("r.txt")});
       }},
      {"patch_replace_all",
       [](ParityEnv& e) {
         e.write("r.txt", "x = 1\nx = 1\n");
         return Json::array(
             {read(e, "r.txt"), replace(e, "r.txt", "x = 1", "x = 2", true), e.read("r.txt")});
       }},
      {"patch_crlf_preserved",
       [](ParityEnv& e) {
         e.write("c.txt", "alpha\r\nbeta\r\ngamma\r\n");
         return Json::array(
             {read(e, "c.txt"), replace(e, "c.txt", "beta", "BETA"), e.read("c.txt")});
       }},
      {"patch_bom_preserved",
       [](ParityEnv& e) {
         e.write("c.txt",
                 "\xEF\xBB\xBF"
                 "alpha\nbeta\n");
         return Json::array(
             {read(e, "c.txt"), replace(e, "c.txt", "beta", "BETA"), e.read("c.txt")});
       }},
      {"patch_unicode",
       [](ParityEnv& e) {
         e.write("ü.txt", "grüß gott\nñandú\n");
         return Json::array(
             {read(e, "ü.txt"), replace(e, "ü.txt", "ñandú", "émeu"), e.read("ü.txt")});
       }},
      {"patch_missing_file", [](ParityEnv& e) { return replace(e, "ghost.txt", "a", "b"); }},
      {"patch_delete_text",
       [](ParityEnv& e) {
         e.write("d.txt", "keep\ndrop\nkeep2\n");
         return Json::array({read(e, "d.txt"), replace(e, "d.txt", "drop\n", ""), e.read("d.txt")});
       }},
      {"v4a_update",
       [](ParityEnv& e) {
         e.write("v.py", kSrc);
         return Json::array({read(e, "v.py"),
                             v4a(e,
                                 "*** Update File: v.py\n@@ def greet(name):\n-    print('hello', "
                                 "name)\n+    print('howdy', name)\n"),
                             e.read("v.py")});
       }},
      {"v4a_add_file",
       [](ParityEnv& e) {
         return Json::array(
             {v4a(e, "*** Add File: added/new.txt\n+first\n+second\n"), e.read("added/new.txt")});
       }},
      {"v4a_delete_file",
       [](ParityEnv& e) {
         e.write("gone.txt", "bye\n");
         return Json::array(
             {read(e, "gone.txt"), v4a(e, "*** Delete File: gone.txt\n"), e.read("gone.txt")});
       }},
      {"v4a_multi_hunk",
       [](ParityEnv& e) {
         e.write("m.txt", numbered(30));
         return Json::array({read(e, "m.txt"),
                             v4a(e,
                                 "*** Update File: m.txt\n@@\n line 2\n-line 3\n+LINE 3\n line "
                                 "4\n@@\n line 27\n-line 28\n+LINE 28\n line 29\n"),
                             e.read("m.txt")});
       }},
      {"v4a_bad_context",
       [](ParityEnv& e) {
         e.write("m.txt", numbered(5));
         return Json::array(
             {read(e, "m.txt"),
              v4a(e, "*** Update File: m.txt\n@@\n nothing like this\n-line 9\n+x\n"),
              e.read("m.txt")});
       }},
      {"v4a_crlf",
       [](ParityEnv& e) {
         e.write("w.txt", "one\r\ntwo\r\nthree\r\n");
         return Json::array({read(e, "w.txt"),
                             v4a(e, "*** Update File: w.txt\n@@\n one\n-two\n+TWO\n three\n"),
                             e.read("w.txt")});
       }},
  };
}

std::vector<ParityCase> search_cases() {
  auto tree = [](ParityEnv& e) {
    e.write("src/app.py", "import os\n\ndef handler(event):\n    return os.getcwd()\n");
    e.write("src/util.js", "export function handler() { return 42; }\n");
    e.write("docs/readme.md", "# Handler\nsee handler docs\n");
    e.write("ünï/cödé.txt", "ünïcödé handler\n");
  };
  return {
      {"search_content",
       [tree](ParityEnv& e) {
         tree(e);
         return search(e, {{"pattern", "def handler"}});
       }},
      {"search_regex",
       [tree](ParityEnv& e) {
         tree(e);
         return search_any_order(e, {{"pattern", "return [0-9]+"}});
       }},
      {"search_file_glob",
       [tree](ParityEnv& e) {
         tree(e);
         return search_any_order(e, {{"pattern", "handler"}, {"file_glob", "*.py"}});
       }},
      {"search_context",
       [tree](ParityEnv& e) {
         tree(e);
         return search_any_order(e, {{"pattern", "getcwd"}, {"context", 1}});
       }},
      {"search_no_match",
       [tree](ParityEnv& e) {
         tree(e);
         return search(e, {{"pattern", "zzz_nothing_zzz"}});
       }},
      {"search_files_by_name",
       [tree](ParityEnv& e) {
         tree(e);
         return search(e, {{"pattern", "*.js"}, {"target", "files"}});
       }},
      {"search_count",
       [tree](ParityEnv& e) {
         tree(e);
         return search_any_order(
             e, {{"pattern", "handler"}, {"path", "src"}, {"output_mode", "count"}});
       }},
      {"search_files_only",
       [tree](ParityEnv& e) {
         tree(e);
         return search_any_order(e, {{"pattern", "import"}, {"output_mode", "files_only"}});
       }},
      {"search_unicode",
       [tree](ParityEnv& e) {
         tree(e);
         return search_any_order(e, {{"pattern", "ünïcödé"}});
       }},
      {"search_in_file",
       [tree](ParityEnv& e) {
         tree(e);
         return search(e, {{"pattern", "handler"}, {"path", "docs/readme.md"}});
       }},
      {"search_missing_path",
       [tree](ParityEnv& e) {
         tree(e);
         return search(e, {{"pattern", "x"}, {"path", "nowhere"}});
       }},
      {"search_invalid_regex",
       [tree](ParityEnv& e) {
         tree(e);
         return search(e, {{"pattern", "(unclosed"}});
       }},
      {"search_pagination",
       [](ParityEnv& e) {
         e.write("many.txt", numbered(30));
         return Json::array({search(e, {{"pattern", "line"}, {"limit", 5}}),
                             search(e, {{"pattern", "line"}, {"limit", 5}, {"offset", 25}})});
       }},
      {"search_crlf",
       [](ParityEnv& e) {
         e.write("w.txt", "alpha\r\nbeta\r\n");
         return search(e, {{"pattern", "beta$"}});
       }},
  };
}

}  // namespace

std::vector<ParityCase> file_cases() {
  std::vector<ParityCase> all;
  for (auto part : {read_cases(), write_cases(), patch_cases(), search_cases()}) {
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

}  // namespace hermes::testing
