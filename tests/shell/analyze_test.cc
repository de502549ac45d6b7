// SPDX-License-Identifier: MIT
// The shell reader: what each construct expands to, what stays unknown, and
// that hostile input ends at a limit rather than a crash or a hang.
#include "shell/analyze.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace hermes::shell {
namespace {

// Each command as "w1 w2 …" from its command word on, unknown text as `?`.
std::vector<std::string> commands(const std::string& text, const Environment& env = {}) {
  Analysis a = analyze(text, env);
  EXPECT_FALSE(a.syntax_error) << text;
  EXPECT_FALSE(a.limit_exceeded) << text;
  std::vector<std::string> out;
  for (const Command& c : a.commands) {
    std::string line;
    for (size_t i = c.word; i < c.argv.size(); ++i) line += (i > c.word ? " " : "") + c.argv[i];
    for (char& ch : line) ch = ch == kUnknown ? '?' : ch;
    out.push_back(line);
  }
  return out;
}

std::string last(const std::string& text, const Environment& env = {}) {
  std::vector<std::string> all = commands(text, env);
  return all.empty() ? "" : all.back();
}

using V = std::vector<std::string>;

TEST(ShellQuoting, QuotesEscapesAndAnsiC) {
  EXPECT_EQ(last("r''m -rf x"), "rm -rf x");
  EXPECT_EQ(last("\"r\"m 'a b'"), "rm a b");
  EXPECT_EQ(last("r\\m x\\ y"), "rm x y");
  EXPECT_EQ(last("$'\\x72\\x6d' $'\\101\\n'"), "rm A\n");
  EXPECT_EQ(last("$'\\u0072m'"), "rm");
  EXPECT_EQ(last("echo $\"hi\""), "echo hi");
  EXPECT_EQ(last("echo \"a\\\"b\\$c\""), "echo a\"b$c");
  EXPECT_EQ(last("echo 'a\\'"), "echo a\\");
}

TEST(ShellExpansion, BracesAndSequences) {
  EXPECT_EQ(last("{rm,-rf,dir}"), "rm -rf dir");
  EXPECT_EQ(last("echo a{b,c{d,e}}f"), "echo abf acdf acef");
  EXPECT_EQ(last("echo {1..3} {a..c}"), "echo 1 2 3 a b c");
  EXPECT_EQ(last("echo '{a,b}' {x} ${HOME}"), "echo {a,b} {x} ~");
}

TEST(ShellExpansion, ParameterOperators) {
  EXPECT_EQ(last("x=rmdir; ${x:0:2}"), "rm");
  EXPECT_EQ(last("x=abc; echo ${x: -2} ${x:1:1} ${#x}"), "echo bc b 3");
  EXPECT_EQ(last("x=Rm; ${x,,} ${x^^}"), "rm RM");
  EXPECT_EQ(last("x=a.tar.gz; echo ${x%.*} ${x%%.*} ${x#*.} ${x##*.}"), "echo a.tar a tar.gz gz");
  EXPECT_EQ(last("x=hello; echo ${x/l/L} ${x//l/L} ${x/#h/H} ${x/%o/O}"),
            "echo heLlo heLLo Hello hellO");
  EXPECT_EQ(last("y=; echo ${y:-rm} ${y:=z} $y ${y:+alt} ${from_server_env:-x}"),
            "echo rm z z alt ?");
  EXPECT_EQ(last("v=rm; n=v; ${!n} x"), "rm x");
}

TEST(ShellExpansion, FieldSplittingFollowsIfs) {
  EXPECT_EQ(last("IFS=,; c=\"rm,-rf,d\"; $c"), "rm -rf d");
  EXPECT_EQ(last("c='rm  -rf'; $c \"$c\""), "rm -rf rm  -rf");
  EXPECT_EQ(commands("set -- a 'b c'; for x in \"$@\"; do echo $x; done"),
            (V{"set -- a b c", "echo a", "echo b c"}));
}

TEST(ShellExpansion, SubstitutionsWithStaticOutput) {
  EXPECT_EQ(last("$(echo rm) x"), "rm x");
  EXPECT_EQ(last("`printf '\\x72\\x6d'` x"), "rm x");
  EXPECT_EQ(last("x=$(printf '%s%s' r m); $x"), "rm");
  EXPECT_EQ(last("$(echo mr | rev) x"), "rm x");
  EXPECT_EQ(last("$(echo cm0= | base64 -d) x"), "rm x");
  EXPECT_EQ(last("$(cat x.txt) y"), "? y");
  EXPECT_EQ(last("x=$(date); echo $x"), "echo ?");
}

TEST(ShellAssignments, ReadPrintfAndExports) {
  EXPECT_EQ(last("read a b <<< 'rm -rf x'; $a $b"), "rm -rf x");
  EXPECT_EQ(last("printf -v c '%s' rm; $c"), "rm");
  EXPECT_EQ(last("read -r line; $line"), "?");
  Analysis a = analyze("export A=1 B; C=2; declare -x D=4");
  EXPECT_EQ(a.env.vars["A"], "1");
  EXPECT_TRUE(a.env.exported.count("A") && a.env.exported.count("B") && a.env.exported.count("D"));
  EXPECT_FALSE(a.env.exported.count("C"));
  EXPECT_EQ(last("X=rm env; echo $X"), "echo ?");  // a prefix assignment is the command's alone
}

TEST(ShellCommands, WrappersAreStripped) {
  Analysis a = analyze("sudo -u root nice -n 5 env -i A=1 /bin/rm -rf x");
  ASSERT_EQ(a.commands.size(), 1u);
  EXPECT_EQ(a.commands[0].name(), "rm");
  EXPECT_EQ(a.commands[0].env, (std::vector<std::pair<std::string, std::string>>{{"A", "1"}}));
  EXPECT_EQ(last("command -v rm"), "command -v rm");
  EXPECT_EQ(last("builtin command timeout -s KILL 5 rm x"), "rm x");
}

TEST(ShellCommands, FunctionsAndAliasesAtTheirCallSites) {
  EXPECT_EQ(commands("w() { \"$@\"; }; w rm -rf d"), (V{"w rm -rf d", "rm -rf d"}));
  EXPECT_EQ(commands("function f { echo $1; }\nf hi"), (V{"f hi", "echo hi"}));
  EXPECT_EQ(last("alias zap='rm -rf'\nzap d"), "rm -rf d");
  EXPECT_EQ(last("alias ls='ls --color'; ls"), "ls --color");  // no endless expansion
  Environment session;
  session.aliases["cl"] = "rm -rf";
  EXPECT_EQ(last("cl build", session), "rm -rf build");
  EXPECT_EQ(last("command w x", analyze("w() { rm \"$@\"; }").env), "w x");
}

TEST(ShellCommands, NestedShellsEvalAndFedScripts) {
  EXPECT_EQ(last("bash -c 'rm -rf \"$1\"' sh d"), "rm -rf d");
  EXPECT_EQ(last("eval \"$(echo rm) x\""), "rm x");
  EXPECT_EQ(last("echo 'rm -rf d' | sh"), "rm -rf d");
  EXPECT_EQ(last("bash <<'EOF'\nrm -rf d\nEOF"), "rm -rf d");
  EXPECT_EQ(last("sh <<< 'rm x'"), "rm x");
  EXPECT_EQ(last("env -S 'rm -rf d'"), "rm -rf d");
  EXPECT_EQ(last("find . -exec rm -f {} +"), "rm -f {}");
  EXPECT_EQ(last("ls | xargs -0 rm"), "rm ?");
  EXPECT_EQ(last("ssh -p 22 host 'rm -rf x'"), "rm -rf x");
  EXPECT_EQ(last("trap 'rm -f lock' EXIT"), "rm -f lock");
}

TEST(ShellCommands, PipelinesRedirectsAndDirectories) {
  Analysis a = analyze("curl -s x | sudo bash");
  ASSERT_EQ(a.commands.size(), 2u);
  EXPECT_EQ(a.commands[1].input.kind, Input::Kind::kPipe);
  EXPECT_EQ(a.commands[1].input.sources, (V{"curl"}));
  a = analyze("cd ~/.ssh && echo k >> authorized_keys 2>/dev/null");
  ASSERT_EQ(a.commands.size(), 2u);
  EXPECT_EQ(a.commands[1].cwd, "~/.ssh");
  EXPECT_EQ(a.commands[1].outputs[0].op, ">>");
  EXPECT_EQ(a.commands[1].outputs[0].target, "authorized_keys");
  a = analyze("(cd /etc; ls); { echo x; } > out");
  EXPECT_EQ(a.commands[2].cwd, ".");
  EXPECT_EQ(a.commands[2].outputs[0].target, "out");
}

TEST(ShellCommands, CompoundForms) {
  EXPECT_EQ(commands("if [ -f x ]; then a; elif b; then c; else d; fi"),
            (V{"[ -f x ]", "a", "b", "c", "d"}));
  EXPECT_EQ(commands("case $x in a|b) one;; *) two;; esac"), (V{"one", "two"}));
  EXPECT_EQ(commands("while read l; do echo \"$l\"; done < f"), (V{"read l", "echo ?"}));
  EXPECT_EQ(commands("for ((i=0;i<3;i++)); do e; done"), (V{"e"}));
  EXPECT_EQ(commands("[[ $a < b && -n $(id) ]] && ok"), (V{"id", "[[  ? < b && -n ?  ]]", "ok"}));
  EXPECT_EQ(commands("(( x = $(echo 1) + 2 ))"), (V{"echo 1"}));
  EXPECT_EQ(commands("diff <(ls a) >(cat)"), (V{"ls a", "cat", "diff <(ls) >(cat)"}));
  EXPECT_EQ(commands("! true | false &"), (V{"true", "false"}));
  EXPECT_EQ(commands("f() { local w=(\"${A[@]}\"); x+=(1); echo ok; }; f"),
            (V{"f", "local w=(\"${A[@]}\")", "echo ok"}));
}

TEST(ShellCommands, ForkBombsUnderAnyName) {
  for (const char* bomb :
       {":(){ :|:& };:", "b(){ b|b & }; b", "f() { f & f; }; f", "a(){ b & }; b(){ a | a; }; a"}) {
    EXPECT_TRUE(analyze(bomb).fork_bomb) << bomb;
  }
  EXPECT_FALSE(analyze("f() { f; }; f").fork_bomb);
  EXPECT_FALSE(analyze("f() { g & }; g() { true; }; f").fork_bomb);
}

TEST(ShellSnapshot, LoadsDefinitionsWithoutRunningThem) {
  Environment env = load_snapshot(
      "declare -x EDITOR=\"vim\"\ndeclare -x T=\"rm\"\n"
      "clean () \n{ \n    rm -rf \"$1\"\n}\nalias ll='ls -l'\nshopt -s expand_aliases\n");
  EXPECT_EQ(env.vars["T"], "rm");
  EXPECT_TRUE(env.functions.count("clean"));
  EXPECT_EQ(env.aliases["ll"], "ls -l");
  EXPECT_EQ(last("clean build", env), "rm -rf build");
  EXPECT_EQ(last("$T -rf x", env), "rm -rf x");
}

TEST(ShellLimits, SyntaxErrorsAndLimitsAreReported) {
  EXPECT_TRUE(analyze("echo 'unterminated").syntax_error);
  EXPECT_TRUE(analyze("echo )").syntax_error);
  EXPECT_TRUE(analyze("if true; then").syntax_error);
  std::string deep;
  for (int i = 0; i < 500; ++i) deep += "$(";
  EXPECT_TRUE(analyze(deep).limit_exceeded || analyze(deep).syntax_error);
  std::string groups;
  for (int i = 0; i < 300; ++i) groups += "{ ";
  EXPECT_TRUE(analyze(groups + "x").limit_exceeded);
  EXPECT_TRUE(analyze("echo {1..100000000}").limit_exceeded);
  EXPECT_TRUE(analyze("echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}")
                  .limit_exceeded);
  EXPECT_TRUE(analyze("x=aaaaaaaaa; x=$x$x$x$x$x$x$x$x; x=$x$x$x$x$x$x$x$x; x=$x$x$x$x$x$x$x$x; "
                      "x=$x$x$x$x$x$x$x$x; x=$x$x$x$x$x$x$x$x")
                  .limit_exceeded);
  EXPECT_TRUE(analyze("f() { f; f; }; f").commands.size() < 100'000);
  EXPECT_TRUE(analyze("a() { b; b; }; b() { c; c; }; c() { d; d; }; d() { e; e; }; e() { g; g; }; "
                      "g() { h; h; }; h() { i; i; }; i() { j; j; }; j() { k; k; }; k() { l; l; }; "
                      "l() { m; m; }; m() { n; n; }; n() { o; o; }; o() { p; p; }; p() { q; q; }; "
                      "q() { r; r; }; r() { true; true; }; a")
                  .limit_exceeded);
}

TEST(ShellLimits, HostileBytesNeverCrash) {
  std::string all;
  for (int c = 1; c < 256; ++c) all += static_cast<char>(c);
  for (const std::string& input :
       {all, std::string(100'000, '\\'), std::string(50'000, '{'), std::string(50'000, '`'),
        std::string("${") + std::string(10'000, '{'), std::string("$((") + std::string(20'000, '('),
        std::string("cat <<E\n") + std::string(100'000, 'x'),
        std::string("a=(") + std::string(10'000, '(')}) {
    Analysis a = analyze(input);
    (void)a;
  }
}

// Found by shell_parser_fuzz: a function whose body redefines the function
// freed the node being walked (a use-after-free under ASan).
TEST(ShellFunctions, RedefinedWhileRunning) {
  Analysis a = analyze("bomb(){ bomb|bomb(){ rm -rf /x; }; }; bomb");
  EXPECT_TRUE(a.fork_bomb);
}

}  // namespace
}  // namespace hermes::shell
