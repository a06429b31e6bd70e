// The variables a list file may set in the scope that runs it, read from its text: the
// output arguments of set(), find_*(), list(), string(), math() and their kin when written
// as plain names. A CMake Find module that is not evaluated (it probes the consumer's
// compilers and programs) leaves these to the consumer's machine: FindPythonInterp's
// PYTHON_VERSION_MAJOR is unknown after find_package(PythonInterp), not unset (Shiboken2's
// config compares it with the version it was built for).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/cmake/program.h"

namespace rocm_audit {

/// The plain names `p` may assign at its top level or in its macros (a function's own
/// variables are its own), sorted and unique. A name built by expansion (`${prefix}_FOUND`)
/// is not one: which it is is not known from the text.
std::vector<std::string> VariablesItMaySet(const Program& p);

/// The ``names`` of the "Result Variables" section of a CMake module's documentation (its
/// leading `#[===[.rst:` comment), with the same exclusions: what FindPython sets through
/// `${_PYTHON_PREFIX}_VERSION_MAJOR` in a helper file is named there, not in its text.
std::vector<std::string> DocumentedResultVariables(std::string_view module_text);

}  // namespace rocm_audit
