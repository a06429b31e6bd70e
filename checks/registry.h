// The table of checks, in the order they run (and so the order of a file's findings of
// equal severity). A check is one file in checks/ that defines its rules and one run
// function with its stage's signature; the registry lists it. Rule IDs are constants in
// the check that emits them, so a finding can only name a rule that exists.
#pragma once

#include <span>
#include <string_view>
#include <variant>

#include "audit/model/finding.h"
#include "audit/model/rule.h"
#include "checks/check_input.h"

namespace rocm_audit {

using FileCheck = void (*)(const FileInput&, FindingSink&);          ///< once per audited file
using LoadableCheck = void (*)(const LoadableInput&, FindingSink&);  ///< once per loadable file
using TreeCheck = void (*)(const TreeInput&, FindingSink&);          ///< once per run

enum class Stage { kFile = 0, kLoadable = 1, kTree = 2 };

/// What a check reads beyond the ELF and loader facts every run has. Facts on demand: the
/// core reads no device code and evaluates no CMake config unless a running check needs it.
enum Needs : unsigned {
  kNeedsElfAndLoader = 0,
  kNeedsDeviceCode = 1u << 0,
  kNeedsCMake = 1u << 1,
  kNeedsAll = ~0u,  ///< the default: a check that does not say gets everything
};

struct Check {
  std::string_view name;        ///< the check's file name, e.g. "rpath_entries"
  std::span<const Rule> rules;  ///< the rules its findings belong to
  std::variant<FileCheck, LoadableCheck, TreeCheck> run;
  unsigned needs = kNeedsAll;  ///< Needs bits

  Stage stage() const { return static_cast<Stage>(run.index()); }
};

/// Every check, in run order.
std::span<const Check* const> AllChecks();
/// Every rule, each once, in the order of the checks that emit them.
std::span<const Rule* const> AllRules();
/// nullptr for an unknown ID.
const Rule* FindRule(std::string_view id);

}  // namespace rocm_audit
