# Clang's thread-safety analysis (runtime/base/thread_annotations.h):
#
#   GSRT_THREAD_SAFETY=ON   -Wthread-safety as an error (clang only)
#
# Off by default, so that a newer clang's new checks never break a user's
# build; CI turns it on (scripts/thread_safety.sh, the `threads` stage).
option(GSRT_THREAD_SAFETY
       "Fail the build on clang thread-safety warnings (clang)" OFF)

if(GSRT_THREAD_SAFETY)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR
      "GSRT_THREAD_SAFETY needs clang: configure with "
      "-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++")
  endif()
  add_compile_options(-Wthread-safety -Werror=thread-safety)
endif()
