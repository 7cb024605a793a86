#include "stubgen/library_names.h"

#include <algorithm>
#include <iterator>

namespace gs {

namespace {

// C11 and POSIX.1-2017 functions and the Linux ones the runtime calls.
// clang-format off
constexpr std::string_view kFunctions[] = {
    // assert.h, ctype.h
    "abort", "isalnum", "isalpha", "isascii", "isblank", "iscntrl", "isdigit",
    "isgraph", "islower", "isprint", "ispunct", "isspace", "isupper",
    "isxdigit", "tolower", "toupper",
    // errno.h, locale.h, setjmp.h, signal.h
    "localeconv", "setlocale", "longjmp", "setjmp", "siglongjmp", "sigsetjmp",
    "kill", "killpg", "raise", "signal", "sigaction", "sigaddset", "sigdelset",
    "sigemptyset", "sigfillset", "sigismember", "sigpending", "sigprocmask",
    "sigsuspend", "sigwait", "sigabbrev_np", "psignal", "strsignal",
    // math.h
    "acos", "asin", "atan", "atan2", "cbrt", "ceil", "copysign", "cos", "cosh",
    "erf", "erfc", "exp", "exp2", "expm1", "fabs", "fdim", "floor", "fma",
    "fmax", "fmin", "fmod", "frexp", "hypot", "ilogb", "ldexp", "lgamma",
    "llrint", "llround", "log", "log10", "log1p", "log2", "logb", "lrint",
    "lround", "modf", "nan", "nearbyint", "nextafter", "pow", "remainder",
    "remquo", "rint", "round", "scalbn", "sin", "sinh", "sqrt", "tan", "tanh",
    "tgamma", "trunc",
    // stdio.h
    "clearerr", "ctermid", "dprintf", "fclose", "fdopen", "feof", "ferror",
    "fflush", "fgetc", "fgetpos", "fgets", "fileno", "flockfile", "fmemopen",
    "fopen", "fprintf", "fputc", "fputs", "fread", "freopen", "fscanf", "fseek",
    "fseeko", "fsetpos", "ftell", "ftello", "ftrylockfile", "funlockfile",
    "fwrite", "getc", "getchar", "getdelim", "getline", "gets", "open_memstream",
    "pclose", "perror", "popen", "printf", "putc", "putchar", "puts", "remove",
    "rename", "renameat", "rewind", "scanf", "setbuf", "setvbuf", "snprintf",
    "sprintf", "sscanf", "tempnam", "tmpfile", "tmpnam", "ungetc", "vdprintf",
    "vfprintf", "vfscanf", "vprintf", "vscanf", "vsnprintf", "vsprintf",
    "vsscanf", "stdin", "stdout", "stderr",
    // stdlib.h
    "_Exit", "a64l", "abs", "aligned_alloc", "at_quick_exit", "atexit", "atof",
    "atoi", "atol", "atoll", "bsearch", "calloc", "div", "drand48", "erand48",
    "exit", "free", "getenv", "getsubopt", "grantpt", "initstate", "jrand48",
    "l64a", "labs", "lcong48", "ldiv", "llabs", "lldiv", "lrand48", "malloc",
    "mblen", "mbstowcs", "mbtowc", "mkdtemp", "mkstemp", "mrand48", "nrand48",
    "posix_memalign", "posix_openpt", "ptsname", "putenv", "qsort",
    "quick_exit", "rand", "rand_r", "random", "realloc", "realpath", "seed48",
    "setenv", "setkey", "setstate", "srand", "srand48", "srandom", "strtod",
    "strtof", "strtol", "strtold", "strtoll", "strtoul", "strtoull", "system",
    "unlockpt", "unsetenv", "wcstombs", "wctomb", "environ",
    // string.h, strings.h
    "bcmp", "bcopy", "bzero", "ffs", "index", "memccpy", "memchr", "memcmp",
    "memcpy", "memmem", "memmove", "memset", "rindex", "stpcpy", "stpncpy",
    "strcasecmp", "strcat", "strchr", "strcmp", "strcoll", "strcpy", "strcspn",
    "strdup", "strerror", "strerror_r", "strlen", "strncasecmp", "strncat",
    "strncmp", "strncpy", "strndup", "strnlen", "strpbrk", "strrchr",
    "strsep", "strspn", "strstr", "strtok", "strtok_r", "strxfrm",
    // time.h, sys/time.h
    "asctime", "clock", "clock_getres", "clock_gettime", "clock_nanosleep",
    "clock_settime", "ctime", "difftime", "getdate", "gettimeofday", "gmtime",
    "gmtime_r", "localtime", "localtime_r", "mktime", "nanosleep", "strftime",
    "strptime", "time", "timegm", "timer_create", "timer_delete",
    "timer_gettime", "timer_settime", "tzset", "utimes",
    // unistd.h
    "access", "alarm", "chdir", "chown", "close", "confstr", "crypt", "dup",
    "dup2", "dup3", "execl", "execle", "execlp", "execv", "execve", "execvp",
    "faccessat", "fchdir", "fchown", "fdatasync", "fexecve", "fork",
    "fpathconf", "fsync", "ftruncate", "getcwd", "getegid", "geteuid",
    "getgid", "getgroups", "gethostid", "gethostname", "getlogin", "getopt",
    "getpgid", "getpgrp", "getpid", "getppid", "getsid", "getuid", "isatty",
    "lchown", "link", "linkat", "lockf", "lseek", "nice", "pathconf", "pause",
    "pipe", "pipe2", "pread", "pwrite", "read", "readlink", "readlinkat",
    "rmdir", "setegid", "seteuid", "setgid", "setpgid", "setsid", "setuid",
    "sleep", "swab", "symlink", "symlinkat", "sync", "sysconf", "tcgetpgrp",
    "tcsetpgrp", "truncate", "ttyname", "unlink", "unlinkat", "usleep",
    "vfork", "write", "syscall", "copy_file_range", "getrandom",
    "getloadavg", "sched_getaffinity", "sched_yield", "prctl", "close_range",
    // dlfcn.h
    "dladdr", "dlclose", "dlerror", "dlopen", "dlsym",
    // fcntl.h, sys/stat.h, sys/file.h, dirent.h, sys/mman.h
    "creat", "fcntl", "open", "openat", "posix_fadvise", "posix_fallocate",
    "chmod", "fchmod", "fchmodat", "fstat", "fstatat", "futimens", "lstat",
    "mkdir", "mkdirat", "mkfifo", "mknod", "stat", "umask", "utimensat",
    "statvfs", "fstatvfs", "clearenv",
    "flock", "closedir", "dirfd", "fdopendir", "opendir", "readdir",
    "readdir_r", "rewinddir", "scandir", "seekdir", "telldir", "mmap",
    "mprotect", "madvise", "msync", "munmap", "mlock", "munlock", "memfd_create",
    "ioctl",
    // sys/wait.h, sys/resource.h, sys/uio.h, poll.h, sys/select.h
    "wait", "wait3", "wait4", "waitid", "waitpid", "getrlimit", "getrusage",
    "setrlimit", "getpriority", "setpriority", "readv", "writev", "poll",
    "ppoll", "select", "pselect",
    // sockets and names
    "accept", "accept4", "bind", "connect", "getpeername", "getsockname",
    "getsockopt", "listen", "recv", "recvfrom", "recvmsg", "send", "sendmsg",
    "sendto", "setsockopt", "shutdown", "socket", "socketpair",
    "freeaddrinfo", "gai_strerror", "getaddrinfo", "gethostbyname",
    "getnameinfo", "htonl", "htons", "ntohl", "ntohs", "inet_addr",
    "inet_ntoa", "inet_ntop", "inet_pton", "if_indextoname",
    "if_nametoindex", "getpwnam", "getpwnam_r", "getpwuid", "getpwuid_r",
    // Linux event interfaces the runtime waits on
    "eventfd", "signalfd", "pidfd_open", "inotify_init",
};
// clang-format on

// Every function of these families (and of the libraries the runtime
// links: SQLite, libssh, OpenSSL's EVP).
constexpr std::string_view kPrefixes[] = {
    "pthread_", "posix_spawn", "sched_",   "epoll_", "timerfd_", "sem_", "shm_",
    "mq_",      "aio_",        "sqlite3_", "ssh_",   "sftp_",    "EVP_",
};

}  // namespace

bool IsLibraryFunction(std::string_view name) {
  for (std::string_view prefix : kPrefixes) {
    if (name.substr(0, prefix.size()) == prefix) return true;
  }
  return std::find(std::begin(kFunctions), std::end(kFunctions), name) !=
         std::end(kFunctions);
}

}  // namespace gs
