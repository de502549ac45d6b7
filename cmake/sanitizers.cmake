# SPDX-License-Identifier: MIT
if(HERMES_SANITIZE OR HERMES_FUZZ)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
# Every library the harnesses link is instrumented for libFuzzer's coverage.
if(HERMES_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "HERMES_FUZZ needs clang: configure with scripts/configure-sanitized")
  endif()
  # UBSan's vptr check alone triples clang's compile time on our
  # template-heavy sources, which the stage's time budget cannot carry, and
  # it reports every virtual call as invalid once descriptors run out (it
  # probes memory through a pipe): every other UBSan check stays on.
  add_compile_options(-fsanitize=fuzzer-no-link -fno-sanitize=vptr)
endif()
