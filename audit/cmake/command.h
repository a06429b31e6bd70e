// What a command is to the interpreter and the command table: its expanded arguments, the
// Flow it ends with, and the signature of a handler.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "audit/cmake/value.h"

namespace rocm_audit {

class Interpreter;

/// How a command ends: on, or leaving the enclosing loop, function or file, or the
/// configure (message(FATAL_ERROR), a limit).
enum class Flow { kNormal, kBreak, kContinue, kReturn, kStop };

/// An expanded argument, with how it was written (if() and some commands need it).
struct Arg {
  CMakeValue value;
  bool quoted = false;
};
using Args = std::vector<Arg>;

/// Runs one command: `name` is the command as called (a handler may serve several names),
/// `args` its expanded arguments.
using CommandHandler = Flow (*)(Interpreter& in, const std::string& name, const Args& args);
/// The handler of a command, or null for a command the evaluator does not evaluate.
using CommandLookup = CommandHandler (*)(std::string_view name);

}  // namespace rocm_audit
