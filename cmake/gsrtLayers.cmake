# Layers: each folder of the source tree is one layer, with the layers it
# may use declared. A layer is two targets:
#   NAME       INTERFACE: its include root and, through DEPS, those of the
#              layers below it (and the external libraries it needs).
#   NAME_objs  OBJECT: its sources (not its tests), compiled against NAME.
# The include root (build/layers/NAME/) holds symbolic links to the layer's
# own headers only, at their paths from the top of the tree, so
# "#include "runtime/engine/engine.h"" compiles only in a layer that declared
# the engine as a dependency; anywhere else it fails with "No such file or
# directory". The top of the source tree is never an include directory.
#
# EXCLUDE names sources of DIR that are not part of the layer (a program's
# main).
#
# FRONT names the headers (file names in DIR) that layers outside the
# adapters may include; they get NAME_front, an INTERFACE target with just
# those headers, which links NAME_objs' code without exposing the rest.
function(gsrt_layer name)
  cmake_parse_arguments(ARG "" "DIR" "DEPS;LIBS;FRONT;EXCLUDE" ${ARGN})
  set(dir ${PROJECT_SOURCE_DIR}/${ARG_DIR})
  file(GLOB headers RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS
       ${dir}/*.h)
  set(root ${PROJECT_BINARY_DIR}/layers/${name})
  gsrt_link_headers(${root} "${headers}")
  add_library(${name} INTERFACE)
  target_include_directories(${name} INTERFACE ${root})
  target_link_libraries(${name} INTERFACE ${ARG_DEPS} ${ARG_LIBS})

  file(GLOB sources CONFIGURE_DEPENDS ${dir}/*.cc)
  list(FILTER sources EXCLUDE REGEX "_test\\.cc$")
  foreach(x ${ARG_EXCLUDE})
    list(REMOVE_ITEM sources ${dir}/${x})
  endforeach()
  if(sources)
    add_library(${name}_objs OBJECT ${sources})
    target_link_libraries(${name}_objs PRIVATE ${name})
  endif()

  if(ARG_FRONT)
    set(front_headers)
    foreach(h ${ARG_FRONT})
      list(APPEND front_headers ${ARG_DIR}/${h})
    endforeach()
    set(front_root ${PROJECT_BINARY_DIR}/layers/${name}_front)
    gsrt_link_headers(${front_root} "${front_headers}")
    add_library(${name}_front INTERFACE)
    target_include_directories(${name}_front INTERFACE ${front_root})
    # A front header includes only the seam and the base, never the kind's
    # internals nor another kind's.
    target_link_libraries(${name}_front INTERFACE gsrt_seam)
  endif()
endfunction()

# Makes `root` hold a symbolic link to each of `headers` (paths from the top
# of the source tree), and nothing else.
function(gsrt_link_headers root headers)
  file(REMOVE_RECURSE ${root})
  foreach(h ${headers})
    get_filename_component(d ${h} DIRECTORY)
    file(MAKE_DIRECTORY ${root}/${d})
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/${h} ${root}/${h} SYMBOLIC)
  endforeach()
  file(MAKE_DIRECTORY ${root})
endfunction()

# The object files of `layers`, for a library or program made of them.
function(gsrt_layer_objects out)
  set(objs)
  foreach(l ${ARGN})
    if(TARGET ${l}_objs)
      list(APPEND objs $<TARGET_OBJECTS:${l}_objs>)
    endif()
  endforeach()
  set(${out} ${objs} PARENT_SCOPE)
endfunction()

# One test executable per foo_test.cc of `dir`, compiled against LAYER (the
# layer it tests: its own headers and those below) and linked to LIBS (the
# code: libgsrt, gsrt_sim_code, ...). SUPPORT adds tests/support (fakes,
# testbeds, the test worker), which may look inside every layer.
function(gsrt_layer_tests)
  cmake_parse_arguments(ARG "SUPPORT" "DIR;LAYER" "LIBS" ${ARGN})
  if(NOT GSRT_BUILD_TESTS)
    return()
  endif()
  file(GLOB tests CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${ARG_DIR}/*_test.cc)
  foreach(src ${tests})
    get_filename_component(test_name ${src} NAME_WE)
    add_executable(${test_name} ${src})
    target_link_libraries(${test_name} PRIVATE ${ARG_LAYER} ${ARG_LIBS}
                                               GTest::gmock GTest::gtest_main)
    if(ARG_SUPPORT)
      target_link_libraries(${test_name} PRIVATE gsrt_test_support)
      add_dependencies(${test_name} gsrt_test_worker gsrt_serve_test_worker)
    endif()
    # Test data is found from the source tree, not from __FILE__ (which a
    # compiler cache may make relative).
    target_compile_definitions(${test_name}
      PRIVATE GSRT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    # GSRT_TEST_PROPERTIES_<test> adds ctest properties (e.g. a fixture).
    gtest_discover_tests(${test_name} DISCOVERY_TIMEOUT 60
                         PROPERTIES TIMEOUT 300 LABELS unit
                                    ${GSRT_TEST_PROPERTIES_${test_name}})
  endforeach()
endfunction()
