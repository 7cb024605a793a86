// Clang's thread-safety annotations (-Wthread-safety), as leveldb's
// port/thread_annotations.h spells them; empty under other compilers.
// docs/design.md ("Threads and the lock") says which lock guards what.
#ifndef GSRT_RUNTIME_BASE_THREAD_ANNOTATIONS_H_
#define GSRT_RUNTIME_BASE_THREAD_ANNOTATIONS_H_

#if defined(__clang__)
#define GSRT_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define GSRT_THREAD_ANNOTATION(x)
#endif

#define CAPABILITY(x) GSRT_THREAD_ANNOTATION(capability(x))
#define SCOPED_CAPABILITY GSRT_THREAD_ANNOTATION(scoped_lockable)
#define GUARDED_BY(x) GSRT_THREAD_ANNOTATION(guarded_by(x))
#define PT_GUARDED_BY(x) GSRT_THREAD_ANNOTATION(pt_guarded_by(x))
#define REQUIRES(...) GSRT_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define EXCLUDES(...) GSRT_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define ACQUIRE(...) GSRT_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define RELEASE(...) GSRT_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define ASSERT_CAPABILITY(x) GSRT_THREAD_ANNOTATION(assert_capability(x))
#define RETURN_CAPABILITY(x) GSRT_THREAD_ANNOTATION(lock_returned(x))
#define NO_THREAD_SAFETY_ANALYSIS \
  GSRT_THREAD_ANNOTATION(no_thread_safety_analysis)

#endif  // GSRT_RUNTIME_BASE_THREAD_ANNOTATIONS_H_
