# Sanitizer and fuzzer builds (docs/reliability.md). Both need clang:
#
#   GSRT_SANITIZE="address,undefined"  every target built with ASan+UBSan
#   GSRT_SANITIZE="thread"             every target built with TSan
#   GSRT_BUILD_FUZZERS=ON              coverage instrumentation for
#                                      libFuzzer everywhere, and the fuzz/
#                                      programs (with ASan+UBSan as set)
#
# UBSan stops at the first error (no recovery), so a test or fuzzer that
# meets undefined behaviour fails instead of printing and going on.
set(GSRT_SANITIZE "" CACHE STRING
    "Sanitizers to build with: address,undefined or thread (clang)")
option(GSRT_BUILD_FUZZERS "Build the libFuzzer programs in fuzz/ (clang)" OFF)

if(GSRT_SANITIZE OR GSRT_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR
      "GSRT_SANITIZE and GSRT_BUILD_FUZZERS need clang: configure with "
      "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
  endif()
endif()

if(GSRT_SANITIZE)
  add_compile_options(-fsanitize=${GSRT_SANITIZE} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${GSRT_SANITIZE})
endif()

if(GSRT_BUILD_FUZZERS)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
