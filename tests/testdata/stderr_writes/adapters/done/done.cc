// Fixture of tests/stderr_writes_test.sh: a folder converted already.
#include "runtime/base/messages.h"

void Done(gs::MessageSink& sink) {
  sink.Say(gs::MessageKind::kInfo, "gsrt: done\n");
}
