// SPDX-License-Identifier: MIT
// The parity suite: every case runs on native local (the reference) and on
// portable-shell local, ssh, sandbox and the docker shim; each result,
// normalised (parity_env.h), must equal the reference. The native row runs
// the case twice, so a case that is not deterministic shows up there. A
// backend × case table is printed at the end of the run.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "parity/parity_env.h"

namespace hermes::testing {
namespace {

const std::vector<ParityCase>& cases() {
  static const std::vector<ParityCase> all = [] {
    auto v = file_cases();
    for (const auto& more : {terminal_cases(), code_cases()})
      v.insert(v.end(), more.begin(), more.end());
    return v;
  }();
  return all;
}

// case name → backend name → "pass" / "FAIL" / "skip"
std::map<std::string, std::map<std::string, std::string>>& table() {
  static std::map<std::string, std::map<std::string, std::string>> t;
  return t;
}

Json run_case(const ParityCase& c, BackendKind kind) {
  ParityEnv env(kind);
  return normalize(c.run(env), env);
}

const Json& reference(size_t index) {
  static std::map<size_t, Json> cache;
  auto it = cache.find(index);
  if (it == cache.end())
    it = cache.emplace(index, run_case(cases()[index], BackendKind::kLocal)).first;
  return it->second;
}

std::string show(const Json& j) { return j.dump(2, ' ', false, Json::error_handler_t::replace); }

class Parity : public ::testing::TestWithParam<std::tuple<size_t, BackendKind>> {};

TEST_P(Parity, SameResultAsNativeLocal) {
  auto [index, kind] = GetParam();
  const ParityCase& c = cases()[index];
  std::string& cell = table()[c.name][kind_name(kind)];
  std::string why = unavailable_reason(kind);
  if (!why.empty()) {
    cell = "skip";
    GTEST_SKIP() << why;
  }
  cell = "FAIL";
  const Json& expected = reference(index);
  Json actual = run_case(c, kind);
  ASSERT_EQ(show(actual), show(expected)) << c.name << " on " << kind_name(kind);
  cell = "pass";
}

std::string test_name(const ::testing::TestParamInfo<Parity::ParamType>& info) {
  return cases()[std::get<0>(info.param)].name + "_" + kind_name(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Backends, Parity,
                         ::testing::Combine(::testing::Range(size_t{0}, cases().size()),
                                            ::testing::ValuesIn(all_backend_kinds())),
                         test_name);

// Prints the table after the last test.
class TablePrinter : public ::testing::Environment {
 public:
  void TearDown() override {
    if (table().empty()) return;
    std::printf("\nparity table (%zu cases; local = native run twice)\n%-34s", table().size(),
                "case");
    for (BackendKind k : all_backend_kinds()) std::printf(" %-11s", kind_name(k).c_str());
    std::printf("\n");
    std::map<std::string, int> passed;
    for (const auto& [name, row] : table()) {
      std::printf("%-34s", name.c_str());
      for (BackendKind k : all_backend_kinds()) {
        auto it = row.find(kind_name(k));
        std::string cell = it == row.end() ? "-" : it->second;
        passed[kind_name(k)] += cell == "pass";
        std::printf(" %-11s", cell.c_str());
      }
      std::printf("\n");
    }
    std::printf("%-34s", "passed");
    for (BackendKind k : all_backend_kinds()) std::printf(" %-11d", passed[kind_name(k)]);
    std::printf("\n");
  }
};

[[maybe_unused]] ::testing::Environment* const kPrinter =
    ::testing::AddGlobalTestEnvironment(new TablePrinter);

}  // namespace
}  // namespace hermes::testing
