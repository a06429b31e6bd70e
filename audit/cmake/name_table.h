// A name -> handler table, the shape of the command table and of the subcommand tables of
// string(), list(), file() and cmake_path(): sorted by name, so that a lookup is a binary
// search and a duplicate or misplaced entry fails to compile (static_assert(IsSorted(t))).
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <string_view>

namespace rocm_audit {

template <typename Handler>
struct NameEntry {
  std::string_view name;
  Handler handler;
};

template <typename Handler, size_t N>
constexpr bool IsSorted(const NameEntry<Handler> (&table)[N]) {
  for (size_t i = 1; i < N; ++i)
    if (!(table[i - 1].name < table[i].name)) return false;
  return true;
}

template <typename Handler, size_t N>
Handler FindIn(const NameEntry<Handler> (&table)[N], std::string_view name) {
  auto it = std::lower_bound(std::begin(table), std::end(table), name,
                             [](const NameEntry<Handler>& e, std::string_view n) { return e.name < n; });
  return it != std::end(table) && it->name == name ? it->handler : nullptr;
}

}  // namespace rocm_audit
