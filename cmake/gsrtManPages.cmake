# A man page per installed tool, made at build time by help2man (Debian's
# help2man, scripts/install-deps.sh) from the built tool's --help and
# --version (scripts/man_page.sh), installed in share/man/man1. The pages
# land in build/man/man1; tests/man_pages_test.sh checks them.
option(GSRT_MAN_PAGES "Make the tools' man pages with help2man" ON)
if(GSRT_MAN_PAGES)
  find_program(GSRT_HELP2MAN help2man)
  if(NOT GSRT_HELP2MAN)
    message(FATAL_ERROR
      "help2man not found: install it (scripts/install-deps.sh installs "
      "every package gsrt needs) or configure with -DGSRT_MAN_PAGES=OFF")
  endif()
endif()
set(GSRT_MAN_DIR ${PROJECT_BINARY_DIR}/man)

# gsrt_man_page(TARGET NAME SUMMARY): the page of executable TARGET, named
# NAME (its installed file name), with SUMMARY as its NAME line.
function(gsrt_man_page target name summary)
  if(NOT GSRT_MAN_PAGES)
    return()
  endif()
  set(page ${GSRT_MAN_DIR}/man1/${name}.1)
  add_custom_command(OUTPUT ${page}
    COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/man_page.sh ${GSRT_HELP2MAN}
            $<TARGET_FILE:${target}> ${name} ${summary} ${page}
    DEPENDS ${target} ${PROJECT_SOURCE_DIR}/scripts/man_page.sh
    COMMENT "Making the man page ${name}.1"
    VERBATIM)
  add_custom_target(man_${target} ALL DEPENDS ${page})
  install(FILES ${page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endfunction()
