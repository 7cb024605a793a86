# gsrt_add_application(NAME IDL file.idl MASTER src... [FUNCTIONS src...]
#                      [SEQUENTIAL])
#
# Runs gsstubgen on the IDL file and builds two executables: NAME, the master
# (the user's sequential program linked with the generated stubs and the
# gsrt runtime), and NAME-worker (the user's functions linked with the
# generated worker main). The master finds NAME-worker next to itself.
# The functions files are compiled with the generated header forced in
# (-include), so they link whether or not they include it themselves.
# Operations that run programs (@Binary) need no function: an IDL of only
# those needs no FUNCTIONS.
# With SEQUENTIAL it also builds NAME-sequential: the master linked directly
# with the functions, every call run in order in one process (the reference
# a parallel run must reproduce, and a way to debug the functions).
function(gsrt_add_application name)
  cmake_parse_arguments(ARG "SEQUENTIAL" "IDL" "MASTER;FUNCTIONS" ${ARGN})
  if(NOT ARG_IDL OR NOT ARG_MASTER)
    message(FATAL_ERROR
      "gsrt_add_application(${name}) needs IDL and MASTER")
  endif()
  get_filename_component(idl ${ARG_IDL} ABSOLUTE)
  get_filename_component(base ${ARG_IDL} NAME_WE)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${name}.gsstubgen)
  set(generated ${out}/${base}.h ${out}/${base}-stubs.cc
                ${out}/${base}-worker.cc ${out}/${base}-binaries.cc)
  add_custom_command(
    OUTPUT ${generated}
    COMMAND gsrt::gsstubgen -o ${out} ${idl}
    DEPENDS ${idl} gsrt::gsstubgen
    COMMENT "gsstubgen ${ARG_IDL}"
    VERBATIM)
  add_executable(${name} ${ARG_MASTER} ${out}/${base}-stubs.cc ${out}/${base}.h)
  target_include_directories(${name} PRIVATE ${out})
  target_link_libraries(${name} PRIVATE gsrt::gsrt)
  add_executable(${name}-worker ${ARG_FUNCTIONS} ${out}/${base}-worker.cc
                                ${out}/${base}-binaries.cc ${out}/${base}.h)
  target_include_directories(${name}-worker PRIVATE ${out})
  # The generated worker and binaries files each hold the operations'
  # tables: they cannot share a unity unit.
  set_target_properties(${name}-worker PROPERTIES UNITY_BUILD OFF)
  # The generated declarations are extern "C": a functions file compiled
  # without them defines C++-mangled names the worker cannot find. Forcing
  # the header in makes it link whether or not it includes the header.
  set(forced "$<$<COMPILE_LANGUAGE:C,CXX>:SHELL:-include ${out}/${base}.h>")
  target_compile_options(${name}-worker PRIVATE "${forced}")
  target_link_libraries(${name}-worker PRIVATE gsrt::worker)
  # Each function in a section of its own and the link's relocations kept:
  # the master reads from them what code each operation reaches, so that a
  # worker rebuilt with one function changed reruns only that operation's
  # tasks when results last across runs (docs/reuse.md).
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_compile_options(${name}-worker PRIVATE
      "$<$<COMPILE_LANGUAGE:C,CXX>:-ffunction-sections>")
    target_link_options(${name}-worker PRIVATE "LINKER:--emit-relocs")
  endif()
  # Build the worker whenever the master is built: the master needs it.
  add_dependencies(${name} ${name}-worker)
  if(ARG_SEQUENTIAL)
    add_executable(${name}-sequential ${ARG_MASTER} ${ARG_FUNCTIONS}
                                      ${out}/${base}-binaries.cc
                                      ${out}/${base}.h)
    target_include_directories(${name}-sequential PRIVATE ${out})
    target_compile_options(${name}-sequential PRIVATE "${forced}")
    # gsrt::worker for gs_run_binary (@Binary operations).
    target_link_libraries(${name}-sequential PRIVATE gsrt::sequential
                                                     gsrt::worker)
  endif()
endfunction()
