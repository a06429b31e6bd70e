// rocm-audit: everything is in the core library; see audit/cli.h.
#include "audit/cli.h"

int main(int argc, char** argv) { return rocm_audit::RunCli(argc, argv); }
