#include "cli/cli.h"

#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/report_output.h"

namespace rocm_audit {

int RunCli(int argc, char** argv) {
  CliOptions o;
  std::string error;
  if (!ParseArguments(std::vector<std::string>(argv + 1, argv + argc), &o, &error)) return Error(error);
  const Command& command = CommandOf(o.command);
  if (o.show_help) {
    std::cout << HelpText(command);
    return 0;
  }
  const char* tmp = std::getenv("TMPDIR");
  if (tmp) o.audit.checks.tmpdir = tmp;
  // /var/tmp is on disk where /tmp is a tmpfs, which spilling refuses (Debian 13's /tmp).
  if (!o.spill_dir_given) o.audit.spill_dirs = {tmp && *tmp ? tmp : "/tmp", "/var/tmp"};
  return command.run(o);
}

}  // namespace rocm_audit
