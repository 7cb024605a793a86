// A worker must not outlive whatever started it: a master killed with
// SIGKILL (or an agent that lost its master) cannot stop its workers, and
// a resumed run would then find them still writing its files. The kernel
// kills the worker when its parent goes (Linux PR_SET_PDEATHSIG).
#ifndef GSRT_RUNTIME_WORKER_DIE_WITH_PARENT_H_
#define GSRT_RUNTIME_WORKER_DIE_WITH_PARENT_H_

namespace gs {

// Asks for SIGKILL when the parent exits. Returns false when the parent is
// gone already (the worker was adopted by init before it could ask): the
// caller should exit at once.
bool DieWithParent();

}  // namespace gs

#endif  // GSRT_RUNTIME_WORKER_DIE_WITH_PARENT_H_
