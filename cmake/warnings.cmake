# SPDX-License-Identifier: MIT
# Warnings for our own code only (third-party headers come in as SYSTEM).
add_library(hermes_warnings INTERFACE)
target_compile_options(hermes_warnings INTERFACE
  -Wall -Wextra -Werror -Wshadow -Wnon-virtual-dtor -Wimplicit-fallthrough
  -Werror=unused-result
  # Designated initialisers that leave fields at their defaults are the style.
  -Wno-missing-field-initializers)
# g++ 12 at -O2/-O3 reports std::string internals as overlapping memcpy
# (GCC bug 105329 and kin): false positives, not our code. At -O3 (the
# Release build of `make run`) it also reports the std::function inside a
# default-initialised aggregate as maybe uninitialised in its destructor
# (patch.cc's v4a::ApplyRequest): that one stays a warning, not an error,
# so the quick start's build cannot fail on it. clang (the fuzzers'
# compiler) knows none of these flags.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(hermes_warnings INTERFACE
    -Wno-restrict -Wno-array-bounds -Wno-stringop-overflow -Wno-stringop-overread
    $<$<CONFIG:Release>:-Wno-error=maybe-uninitialized>)
endif()
