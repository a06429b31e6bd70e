// An optional value kept on the heap: what C++26 calls std::indirect, with std::optional's
// empty state and interface. A report holds one FileFacts per audited file, most of whose
// parts are absent (a header has no ELF facts, a library no CMake package): inline, every
// FileFacts would carry the size of all its parts, present or not; boxed, an absent part
// is a null pointer.
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace rocm_audit {

template <class T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(std::nullopt_t) {}                                           // NOLINT: converts as std::optional does
  Boxed(T value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT: as optional
  Boxed(const Boxed& other) : value_(other.value_ ? std::make_unique<T>(*other.value_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) value_ = other.value_ ? std::make_unique<T>(*other.value_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  Boxed& operator=(std::nullopt_t) {
    value_.reset();
    return *this;
  }

  template <class... Args>
  T& emplace(Args&&... args) {
    value_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *value_;
  }
  void reset() { value_.reset(); }

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }
  T* operator->() { return value_.get(); }
  const T* operator->() const { return value_.get(); }

 private:
  std::unique_ptr<T> value_;
};

}  // namespace rocm_audit
