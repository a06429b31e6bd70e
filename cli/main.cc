// rocm-audit: the whole program is cli/cli.cc; see RunCli.
#include "cli/cli.h"

int main(int argc, char** argv) { return rocm_audit::RunCli(argc, argv); }
