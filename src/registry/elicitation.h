// SPDX-License-Identifier: MIT
// Asking the user through the client (MCP `elicitation/create`) in typed
// terms, so a tool's guard states its question without building JSON: a
// message, and either a plain accept/decline or one choice among options.
#pragma once

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace hermes::registry {

class ClientChannel;

struct ElicitationOption {
  std::string value;  // what the answer carries
  std::string label;  // what the user sees
};

struct Elicitation {
  std::string message;
  // Empty: the user only accepts or declines. Otherwise the form has one
  // required string field `field`, titled `title`, taking one of these.
  std::vector<ElicitationOption> options;
  std::string field;
  std::string title;
  // The question's name where the protocol names a call's questions (the
  // 2026-07-28 wire's input requests); empty: the channel numbers it.
  std::string key;
};

struct ElicitationAnswer {
  std::string action;  // accept | decline | cancel, as the client sent it
  std::string choice;  // the chosen option's value; empty when none came
};

// Sends `question` and waits. nullopt when no usable answer came: an error
// response, the timeout, `stop`, a disconnect, or a reply that is not an
// object. A non-string `action` or choice reads as empty.
std::optional<ElicitationAnswer> elicit(ClientChannel& client, const Elicitation& question,
                                        std::chrono::milliseconds timeout, std::stop_token stop);

}  // namespace hermes::registry
