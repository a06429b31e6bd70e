// Runs work whose recursion follows its input on a thread with a stack of its own size.
#pragma once

#include <pthread.h>

#include <cstddef>
#include <exception>

namespace rocm_audit {

/// Runs fn() on a thread whose stack is `bytes`, and waits for it; an exception out of fn is
/// thrown again here. Work that recurses as deep as its input nests (a CMake config evaluated
/// inside the find_package() that loads it, up to its bounds) must not depend on the stack
/// the caller happens to have: a worker thread's, or one `ulimit -s` made small. Where no
/// such thread can be made (an address space limited below `bytes`), fn runs here.
template <class Fn>
void RunOnStack(size_t bytes, Fn fn) {
  struct Call {
    Fn* fn;
    std::exception_ptr error;
  } call{&fn, nullptr};
  auto body = [](void* arg) -> void* {
    Call* c = static_cast<Call*>(arg);
    try {
      (*c->fn)();
    } catch (...) { c->error = std::current_exception(); }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_t thread;
  const bool made = pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, bytes) == 0 &&
                    pthread_create(&thread, &attr, body, &call) == 0;
  pthread_attr_destroy(&attr);
  if (!made) {
    fn();
    return;
  }
  pthread_join(thread, nullptr);
  if (call.error) std::rethrow_exception(call.error);
}

}  // namespace rocm_audit
