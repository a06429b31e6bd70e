#include "cli/commands.h"

#include <iostream>

#include "cli/options.h"

namespace rocm_audit {
namespace {

bool Fail(std::string* error, std::string text) {
  *error = std::move(text);
  return false;
}

// The audit takes one PATH or more; --tree FILE alone audits FILE; --version, --list-checks
// and --explain answer without a PATH.
bool AuditArguments(CliOptions* o, std::string* error) {
  if (!o->tree.empty() && o->audit.paths.empty()) o->audit.paths.push_back(o->tree);
  if (o->show_version || o->list_checks || !o->explain.empty()) return true;
  if (o->audit.paths.empty()) return Fail(error, "no PATH given (see --help)");
  return true;
}

// `diff OLD NEW`, or debdiff's `diff --from OLD... --to NEW...`: never both forms, never an
// empty side.
bool DiffArguments(CliOptions* o, std::string* error) {
  if (o->diff_side == CliOptions::DiffSide::kNone) {
    if (o->audit.paths.size() != 2)
      return Fail(error, "diff takes two PATHs, OLD and NEW (see rocm-audit help diff)");
    o->diff_old = {o->audit.paths[0]};
    o->diff_new = {o->audit.paths[1]};
    return true;
  }
  if (!o->audit.paths.empty() || o->diff_old.empty() || o->diff_new.empty())
    return Fail(error,
                "diff --from OLD... --to NEW...: each side at least one PATH, and every PATH on a side");
  o->audit.paths = o->diff_old;
  o->audit.paths.insert(o->audit.paths.end(), o->diff_new.begin(), o->diff_new.end());
  return true;
}

// `index PACKAGE...`: one package or more.
bool IndexArguments(CliOptions* o, std::string* error) {
  if (o->audit.paths.empty())
    return Fail(error, "index takes one PACKAGE or more (see rocm-audit help index)");
  return true;
}

// `help` or `help COMMAND`.
bool HelpArguments(CliOptions* o, std::string* error) {
  if (o->audit.paths.size() > 1)
    return Fail(error, "help takes one COMMAND at most (see rocm-audit help help)");
  if (o->audit.paths.empty() || CommandNamed(o->audit.paths[0])) return true;
  std::string names;
  for (const Command& c : AllCommands()) names += (names.empty() ? "" : ", ") + std::string(c.name);
  return Fail(error, "help: no command named " + o->audit.paths[0] + " (commands: " + names + ")");
}

constexpr Command kCommands[] = {
    {kAuditCommand, "audit", "[options] PATH...", "audit each PATH (the default: no command named)",
     R"(Audits the ELF files under each PATH (a file, an install prefix, a store path, a staging
directory) without running them: dependency resolution as glibc's ld.so does it, the
undefined symbols `ldd -r` would report, symbol versions, RPATH/RUNPATH hygiene, mixed
library majors, and the GPU code: offload bundles (plain and compressed), their code
objects, and which GPU targets each file, each load closure and each Tensile data
directory serves.
)",
     AuditArguments, RunAudit},
    {kDiffCommand, "diff", "diff [options] OLD NEW\ndiff [options] --from OLD... --to NEW...",
     "compare two versions: what the update breaks",
     R"(Compares two versions (each a tree, one package, a set of packages installed together,
a store path, or a JSON report written with --symbols): exported symbols removed without a
SONAME change, SONAME changes, GPU processors lost, CMake targets and components removed,
new and fixed findings, and the files of NEW each break hits.
)",
     DiffArguments, RunDiff},
    {kIndexCommand, "index", "index [options] PACKAGE...", "write a consumer index of packages",
     R"(Writes a consumer index of the packages: a JSON line per ELF file ld.so could load
(package, version, path, SONAME, needed libraries, imported symbols). Indexes of parts of
an archive merge by concatenation; diff --consumers says whom in them an update hits.
)",
     IndexArguments, RunIndex},
    {kHelpCommand, "help", "help [COMMAND]", "say what a command does and which options it takes",
     R"(Prints the help of COMMAND (the same as rocm-audit COMMAND --help), or of the audit.
)",
     HelpArguments, RunHelp},
};

}  // namespace

std::span<const Command> AllCommands() { return kCommands; }

const Command& DefaultCommand() { return kCommands[0]; }

const Command& CommandOf(CommandBit bit) {
  for (const Command& c : kCommands)
    if (c.bit == bit) return c;
  return DefaultCommand();
}

const Command* NamedCommand(std::string_view word) {
  const Command* c = CommandNamed(word);
  return c == &DefaultCommand() ? nullptr : c;
}

const Command* CommandNamed(std::string_view name) {
  for (const Command& c : kCommands)
    if (c.name == name) return &c;
  return nullptr;
}

int RunHelp(CliOptions& o) {
  std::cout << HelpText(o.audit.paths.empty() ? DefaultCommand() : *CommandNamed(o.audit.paths[0]));
  return 0;
}

}  // namespace rocm_audit
