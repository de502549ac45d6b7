// SPDX-License-Identifier: MIT
// The loopback fixture (fixtures/web_fixture.py) as a test object: started
// on a free port of 127.0.0.1 (or of ::1), killed on destruction, its request log
// readable. It is the only network the web tests touch.
#pragma once

#include "json/json.h"
#include "web/http.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace hermes::web::testing {

class FixtureServer {
 public:
  // `host`: "127.0.0.1" or "::1".
  explicit FixtureServer(std::string host = "127.0.0.1") : host_(std::move(host)) {
    int fds[2];
    if (::pipe(fds) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(fds[1], 1);
      ::close(fds[0]);
      ::execlp("python3", "python3", HERMES_WEB_FIXTURE, host_.c_str(),
               static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[1]);
    std::string line;
    char c;
    while (::read(fds[0], &c, 1) == 1 && c != '\n') line += c;
    ::close(fds[0]);
    port_ = line.empty() ? 0 : std::stoi(line);
  }
  ~FixtureServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  FixtureServer(const FixtureServer&) = delete;
  FixtureServer& operator=(const FixtureServer&) = delete;

  int port() const { return port_; }
  std::string base() const { return "http://" + authority(); }
  std::string url(const std::string& path) const { return base() + path; }
  std::string allow_entry() const { return authority(); }

  // Every request the fixture has seen.
  Json log() const {
    auto r = perform({url("/_log"), "GET", {}, "", false}, HttpLimits{}, nullptr, {});
    return r ? Json::parse(r->body, nullptr, false) : Json::array();
  }
  size_t requests() const { return log().size(); }

 private:
  std::string authority() const {
    bool v6 = host_.find(':') != std::string::npos;
    return (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_);
  }

  std::string host_;
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace hermes::web::testing
