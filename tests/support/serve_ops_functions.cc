// The functions of tests/support/serve_ops.idl.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "serve_ops.h"

void noop() {}

void crash() {
  ::signal(SIGSEGV, SIG_DFL);
  ::raise(SIGSEGV);
}

void sleep_ms(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

void echo(const char* text, const char* dest) { std::ofstream(dest) << text; }

void echo_fail(const char* text, const char* dest) {
  std::ofstream(dest) << text;
  throw std::runtime_error("echo_fail fails on purpose");
}

void env_to(const char* name, const char* dest) {
  const char* value = std::getenv(name);
  std::ofstream(dest) << (value ? value : "(unset)");
}

void set_env(const char* name, const char* value) { ::setenv(name, value, 1); }

void print(const char* out_text, const char* err_text) {
  std::cout << out_text;
  std::cerr << err_text;
}

void grow(int mb) {
  // Kept on purpose: the worker's peak memory must stay up.
  static std::vector<char*> kept;
  char* block = new char[static_cast<size_t>(mb) << 20];
  std::memset(block, 1, static_cast<size_t>(mb) << 20);
  kept.push_back(block);
}

int pid() { return static_cast<int>(::getpid()); }

int bump() {
  static int calls = 0;
  return ++calls;
}

int ppid() { return static_cast<int>(::getppid()); }

void pid_then_sleep(const char* path, int ms) {
  std::ofstream(path) << ::getpid();
  sleep_ms(ms);
}

void exit_now(int code) { std::exit(code); }
