// SPDX-License-Identifier: MIT
#include "tools/terminal/guardrails.h"

#include <gtest/gtest.h>

namespace hermes::terminal {
namespace {

bool refused(const char* c) { return foreground_guardrail(c).has_value(); }

TEST(Guardrails, ShellWrappers) {
  EXPECT_TRUE(refused("nohup ./server"));
  EXPECT_TRUE(refused("cd x && setsid foo"));
  EXPECT_TRUE(refused("echo $(nohup x)"));
  EXPECT_TRUE(refused("a\ndisown"));
  EXPECT_FALSE(refused("sudo nohup x"));  // not caught upstream either
  EXPECT_NE(foreground_guardrail("nohup x")->find("shell-level background wrappers"),
            std::string::npos);
}

TEST(Guardrails, Ampersand) {
  EXPECT_TRUE(refused("sleep 10 &"));
  EXPECT_TRUE(refused("sleep 10 & # bg"));
  EXPECT_TRUE(refused("a & b"));
  EXPECT_FALSE(refused("make 2>&1"));
  EXPECT_FALSE(refused("make &> log"));
  EXPECT_FALSE(refused("a && b"));
  EXPECT_FALSE(refused("echo 'a & b'"));
}

TEST(Guardrails, Servers) {
  EXPECT_TRUE(refused("npm run dev"));
  EXPECT_TRUE(refused("yarn start"));
  EXPECT_TRUE(refused("python3 -m http.server 8000"));
  EXPECT_TRUE(refused("uvicorn app:app"));
  EXPECT_TRUE(refused("pip install uvicorn"));  // upstream quirk, reproduced
  EXPECT_TRUE(refused("vite"));
  EXPECT_FALSE(refused("npm test"));
  EXPECT_FALSE(refused("npm run build"));
  EXPECT_FALSE(refused("vite --help"));
  EXPECT_FALSE(refused("nodemon -v"));
}

}  // namespace
}  // namespace hermes::terminal
