#include "audit/cli.h"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>

#include "audit/arch_policy.h"
#include "checks/registry.h"
#include "reports/json_report.h"
#include "reports/junit_report.h"
#include "reports/sarif_report.h"
#include "reports/text_report.h"

namespace rocm_audit {
namespace {

std::vector<std::string> SplitColons(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t c = s.find(':', start);
    if (c == std::string::npos) c = s.size();
    if (c > start) out.push_back(s.substr(start, c - start));
    start = c + 1;
  }
  return out;
}

// One status line on a terminal, as ninja draws it: silent for short runs, at most ten
// updates a second, one writer at a time, erased before the report is written.
class ProgressLine {
 public:
  void Update(const char* phase, size_t done, size_t total) {
    auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (now - start_ < std::chrono::milliseconds(300) || now - last_ < std::chrono::milliseconds(100))
      return;
    last_ = now;
    shown_ = true;
    if (total == 0) std::fprintf(stderr, "\r\033[Krocm-audit: %s %zu entries", phase, done);
    else std::fprintf(stderr, "\r\033[Krocm-audit: %s %zu/%zu files", phase, done, total);
    std::fflush(stderr);
  }
  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_;
  bool shown_ = false;
};

// "4096", "512K", "64M", "2G" (binary multiples).
bool ParseSize(const std::string& text, uint64_t* out) {
  char* end = nullptr;
  errno = 0;
  unsigned long long n = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || errno) return false;
  std::string suffix(end);
  int shift = suffix.empty() ? 0 : suffix == "K" || suffix == "k" ? 10 : suffix == "M" || suffix == "m" ? 20
              : suffix == "G" || suffix == "g" ? 30 : suffix == "T" || suffix == "t" ? 40 : -1;
  if (shift < 0 || n == 0 || n > (~0ULL >> shift)) return false;
  *out = uint64_t(n) << shift;
  return true;
}

}  // namespace

std::string HelpText() {
  return R"(usage: rocm-audit [options] PATH...

Audits the ELF files under each PATH (a file, an install prefix, a store path, a staging
directory) without running them: dependency resolution as glibc's ld.so does it, the
undefined symbols `ldd -r` would report, symbol versions, RPATH/RUNPATH hygiene, mixed
library majors, and the GPU code: offload bundles (plain and compressed), their code
objects, and which GPU targets each file, each load closure and each Tensile data
directory serves.

Loader emulation:
  --root DIR             resolve absolute paths (RPATH/RUNPATH, ld.so.conf, default
                         directories, absolute symlinks) inside DIR, as if installed there;
                         repeatable: the roots are overlay layers, top first, so
                         --root "$DESTDIR" --root / is a staged package on this system
  --library-path DIR[:DIR...]
                         directories searched like LD_LIBRARY_PATH (host paths; repeatable)
  --ld-so-conf FILE      ld.so.conf inside the root (default /etc/ld.so.conf)
  --forbid-rpath GLOB    also report RPATH/RUNPATH entries matching GLOB (repeatable)

GPU code:
  --require-arch LIST    target IDs every file with device code must serve, separated by
                         commas, semicolons or spaces (gfx906,gfx90a:xnack+,gfx1030);
                         plain gfx90a means every xnack/sramecc mode; repeatable
  --require-arch-file FILE
                         the same, read from FILE ('#' starts a comment)
  --isa-compat MODE      none (default) or debian: also accept the extended ISA
                         compatibility of Debian/Gentoo/Solus (gfx1031 runs gfx1030 code...)
  --max-decompressed SIZE
                         refuse to decompress a bundle larger than SIZE (bytes, or with a
                         K/M/G suffix; default 2G): it becomes a malformed-bundle finding
  --verify-hash          check each compressed bundle's MD5 against its header
  --arch-matrix          text: add a files x GPU processors table

Output:
  --format FORMAT        text, json (schema_version 1), sarif (2.1.0) or junit (XML)
                         (default text)
  -o, --output FILE      write the report to FILE instead of standard output
  --fail-on LEVEL        error|warning|note|none: exit 1 when a finding is at or above
                         LEVEL (default error)
  -q, --quiet            text: print only findings at or above --fail-on, no summary
  --color auto|always|never
                         colour the text report (default auto: only on a terminal)
  --no-progress          no progress line on standard error
  -j, --jobs N           worker threads (default: all cores)
  --list-checks          print the check IDs, their default severities and exit
  --version              print the version and exit
  -h, --help             print this help and exit

Exit status: 0 no finding at or above --fail-on, 1 such findings, 2 usage or tool error.
)";
}

bool ParseArguments(const std::vector<std::string>& args, CliOptions* o, std::string* error) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string value;
    bool has_inline = false;
    std::string name = a;
    if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
      name = a.substr(0, a.find('='));
      value = a.substr(a.find('=') + 1);
      has_inline = true;
    } else if ((a.rfind("-j", 0) == 0 || a.rfind("-o", 0) == 0) && a.size() > 2) {
      name = a.substr(0, 2);  // getopt style: -j4, -oreport.json
      value = a.substr(2);
      has_inline = true;
    }
    auto take = [&](std::string* out) {
      if (has_inline) {
        *out = value;
        return true;
      }
      if (i + 1 >= args.size()) {
        *error = name + " needs a value";
        return false;
      }
      *out = args[++i];
      return true;
    };
    std::string v;
    if (name == "-h" || name == "--help") o->show_help = true;
    else if (name == "--version") o->show_version = true;
    else if (name == "--list-checks") o->list_checks = true;
    else if (name == "-q" || name == "--quiet") o->quiet = true;
    else if (name == "--no-progress") o->progress = false;
    else if (name == "--root") {
      if (!take(&v)) return false;
      o->audit.roots.push_back(v);
    }
    else if (name == "--ld-so-conf") { if (!take(&o->audit.ld_so_conf)) return false; }
    else if (name == "-o" || name == "--output") { if (!take(&o->output)) return false; }
    else if (name == "--library-path") {
      if (!take(&v)) return false;
      for (auto& d : SplitColons(v)) o->audit.library_path.push_back(d);
    } else if (name == "--forbid-rpath") {
      if (!take(&v)) return false;
      o->audit.checks.forbid_rpath.push_back(v);
    } else if (name == "--require-arch") {
      if (!take(&v)) return false;
      std::string why;
      if (!ParseArchList(v, &o->audit.checks.required_archs, &why)) {
        *error = "--require-arch: " + why;
        return false;
      }
    } else if (name == "--require-arch-file") {
      if (!take(&v)) return false;
      std::ifstream in(v);
      std::stringstream text;
      text << in.rdbuf();
      std::string why;
      if (!in) {
        *error = "--require-arch-file: cannot read " + v;
        return false;
      }
      if (!ParseArchFile(text.str(), &o->audit.checks.required_archs, &why)) {
        *error = "--require-arch-file " + v + ": " + why;
        return false;
      }
    } else if (name == "--isa-compat") {
      if (!take(&v)) return false;
      if (v == "debian") o->audit.checks.isa_compat = IsaCompat::kDebian;
      else if (v == "none") o->audit.checks.isa_compat = IsaCompat::kNone;
      else { *error = "--isa-compat must be none or debian, not '" + v + "'"; return false; }
    } else if (name == "--max-decompressed") {
      if (!take(&v)) return false;
      if (!ParseSize(v, &o->audit.checks.bundles.max_decompressed)) {
        *error = "--max-decompressed needs a size such as 512M or 4G, not '" + v + "'";
        return false;
      }
    } else if (name == "--verify-hash") {
      o->audit.checks.bundles.verify_hash = true;
    } else if (name == "--arch-matrix") {
      o->arch_matrix = true;
    } else if (name == "--format") {
      if (!take(&v)) return false;
      if (v == "text") o->format = OutputFormat::kText;
      else if (v == "json") o->format = OutputFormat::kJson;
      else if (v == "sarif") o->format = OutputFormat::kSarif;
      else if (v == "junit") o->format = OutputFormat::kJunit;
      else { *error = "--format must be text, json, sarif or junit, not '" + v + "'"; return false; }
    } else if (name == "--fail-on") {
      if (!take(&v)) return false;
      if (v == "none") o->fail_on_none = true;
      else if (!ParseSeverity(v, &o->fail_on)) {
        *error = "--fail-on must be error, warning, note or none, not '" + v + "'";
        return false;
      }
    } else if (name == "--color" || name == "--colour") {
      if (!take(&o->color)) return false;
      if (o->color != "auto" && o->color != "always" && o->color != "never") {
        *error = "--color must be auto, always or never";
        return false;
      }
    } else if (name == "-j" || name == "--jobs") {
      if (!take(&v)) return false;
      char* end = nullptr;
      long n = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || n < 1 || n > 1024) { *error = "--jobs needs a number from 1 to 1024"; return false; }
      o->audit.jobs = static_cast<unsigned>(n);
    } else if (a == "--") {
      for (++i; i < args.size(); ++i) o->audit.paths.push_back(args[i]);
    } else if (a.size() > 1 && a[0] == '-') {
      *error = "unknown option " + a + " (see --help)";
      return false;
    } else {
      o->audit.paths.push_back(a);
    }
  }
  if (!o->show_help && !o->show_version && !o->list_checks && o->audit.paths.empty()) {
    *error = "no PATH given (see --help)";
    return false;
  }
  return true;
}

int RunCli(int argc, char** argv) {
  CliOptions o;
  std::string error;
  if (!ParseArguments(std::vector<std::string>(argv + 1, argv + argc), &o, &error)) {
    std::cerr << "rocm-audit: error: " << error << "\n";
    return 2;
  }
  if (o.show_help) { std::cout << HelpText(); return 0; }
  if (o.show_version) { std::cout << "rocm-audit " << ROCM_AUDIT_VERSION << "\n"; return 0; }
  if (o.list_checks) {
    for (const CheckInfo& c : AllChecks())
      std::printf("%-24s %-8s %s\n", std::string(c.id).c_str(),
                  std::string(SeverityName(c.severity)).c_str(), std::string(c.title).c_str());
    return 0;
  }
  if (const char* tmp = std::getenv("TMPDIR")) o.audit.checks.tmpdir = tmp;
  ProgressLine progress;
  if (o.progress && isatty(STDERR_FILENO))
    o.audit.progress = [&](const char* phase, size_t done, size_t total) {
      progress.Update(phase, done, total);
    };
  Report report;
  bool ok = RunAudit(o.audit, &report, &error);
  progress.Clear();
  if (!ok) {
    std::cerr << "rocm-audit: error: " << error << "\n";
    return 2;
  }
  bool to_stdout = o.output.empty();
  std::string text;
  if (o.format == OutputFormat::kJson) {
    text = RenderJson(report, o.fail_on, o.fail_on_none);
  } else if (o.format == OutputFormat::kSarif) {
    text = RenderSarif(report);
  } else if (o.format == OutputFormat::kJunit) {
    text = RenderJunit(report, o.fail_on, o.fail_on_none);
  } else {
    TextOptions t;
    t.color = o.color == "always" || (o.color == "auto" && to_stdout && isatty(STDOUT_FILENO));
    t.quiet = o.quiet;
    t.min_severity = o.fail_on_none ? Severity::kError : o.fail_on;
    t.arch_matrix = o.arch_matrix;
    text = RenderText(report, t);
  }
  if (to_stdout) {
    std::cout << text << std::flush;
  } else {
    std::ofstream out(o.output, std::ios::binary);
    out << text;
    if (!out) {
      std::cerr << "rocm-audit: error: cannot write " << o.output << "\n";
      return 2;
    }
  }
  return !o.fail_on_none && report.HasFindingsAtOrAbove(o.fail_on) ? 1 : 0;
}

}  // namespace rocm_audit
