// LLVM's Expected<T> where a failure is data, not an error to propagate: the reader goes
// on (or reports what it knows) and the llvm::Error must still be consumed.
#pragma once

#include <llvm/Support/Error.h>

namespace rocm_audit {

/// True when `value` holds a T; otherwise consumes the error and returns false.
template <class T>
bool Take(llvm::Expected<T>& value) {
  if (value) return true;
  llvm::consumeError(value.takeError());
  return false;
}

}  // namespace rocm_audit
