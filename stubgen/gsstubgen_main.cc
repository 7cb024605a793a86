// gsstubgen: GRID superscalar IDL -> master stubs and worker program.
#include <iostream>

#include "runtime/base/command_line.h"
#include "stubgen/gsstubgen_cli.h"

int main(int argc, char** argv) {
  return gs::RunGsstubgen(gs::ArgsOf(argc, argv), std::cout, std::cerr);
}
