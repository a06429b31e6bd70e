// A whole audit through the engine, as the command runs one: the input is installed as a
// shared library and as a CMake package config in a private tree, which is then audited
// with every check, the policy and the report's facts. What no single reader's target
// reaches: the loader over a hostile object, the checks over what the readers made of it,
// and the CMake evaluator over a config beside it. The report is then rendered as the
// command renders it, and what no renderer may write traps: a control character or a byte
// that is not UTF-8 of the input's names in the text report, JSON that is not UTF-8.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/audit.h"
#include "fuzz_dir.h"
#include "reports/display_escape.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/text_report.h"

namespace {

void Install(const std::filesystem::path& path, const uint8_t* data, size_t size) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), size);
}

// The text report may hold newlines and nothing else below 0x20, no DEL, and only UTF-8
// (nlohmann's strict dump throws otherwise, which ends the run as a finding).
void CheckShown(const std::string& text) {
  for (unsigned char c : text)
    if ((c < 0x20 && c != '\n') || c == 0x7f) __builtin_trap();
  (void)nlohmann::json(text).dump();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace rocm_audit;
  const std::filesystem::path tree = std::filesystem::path(FuzzDir()) / "tree";
  Install(tree / "lib/libfuzzed.so.1", data, size);
  Install(tree / "lib/cmake/fuzzed/fuzzed-config.cmake", data, size);
  AuditRequest request;
  request.paths = {tree.string()};
  // Nothing of the host: no ld.so.conf, no default directories, no spilling to disk.
  request.ld_so_conf = (tree / "no-ld.so.conf").string();
  request.default_dirs = std::vector<std::string>{};
  request.jobs = 1;
  Report report;
  std::string error;
  if (!Audit(request, &report, &error)) __builtin_trap();  // the tree exists: never a tool error
  // Strict UTF-8 both ways: the parser throws on a byte the writer should have escaped.
  if (nlohmann::json::parse(RenderJson(report, Severity::kError, false)).is_discarded()) __builtin_trap();
  (void)RenderJunit(report, Severity::kError, false);
  EscapeForDisplay(&report);
  CheckShown(RenderText(report, TextOptions{}));
  return 0;
}
