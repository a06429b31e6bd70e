#include "cli/options.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "policy/baseline.h"

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

// "4096", "512K", "64M", "2G" (binary multiples).
bool ParseSize(const std::string& text, uint64_t* out) {
  char* end = nullptr;
  errno = 0;
  unsigned long long n = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || errno) return false;
  std::string suffix(end);
  int shift = suffix.empty()                   ? 0
              : suffix == "K" || suffix == "k" ? 10
              : suffix == "M" || suffix == "m" ? 20
              : suffix == "G" || suffix == "g" ? 30
              : suffix == "T" || suffix == "t" ? 40
                                               : -1;
  if (shift < 0 || n == 0 || n > (~0ULL >> shift)) return false;
  *out = uint64_t(n) << shift;
  return true;
}

bool Fail(std::string* error, std::string text) {
  *error = std::move(text);
  return false;
}

constexpr std::string_view kLoader = "Loader emulation";
constexpr std::string_view kGpu = "GPU code";
constexpr std::string_view kPackages = "Packages (.deb, .rpm, wheel, conda, tar, zip PATHs)";
constexpr std::string_view kCMake = "CMake packages";
constexpr std::string_view kPolicy = "Policy";
constexpr std::string_view kOutput = "Output";
constexpr std::string_view kComparison = "Comparison (diff)";

// "a,b c;d" -> {a, b, c, d}
std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  std::string word;
  for (char c : s + ",") {
    if (c == ',' || c == ';' || c == ' ') {
      if (!word.empty()) out.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  return out;
}

bool ReadFile(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return static_cast<bool>(in);
}

using O = CliOptions;
using S = const std::string;
// Which commands take an option (its first field).
constexpr unsigned kAudit = kAuditCommand;
constexpr unsigned kDiff = kDiffCommand;
constexpr unsigned kAuditAndDiff = kAuditCommand | kDiffCommand;
// What unpacking packages takes: the audit, diff, and index (which only unpacks and reads).
constexpr unsigned kUnpacking = kAuditCommand | kDiffCommand | kIndexCommand;

const Option
    kOptions
        [] =
            {
                {kAuditAndDiff, kLoader, "", "--root", "", "DIR",
                 "resolve absolute paths (RPATH/RUNPATH, ld.so.conf, default\n"
                 "directories, absolute symlinks) inside DIR, as if installed there;\n"
                 "repeatable: the roots are overlay layers, top first, so\n"
                 "--root \"$DESTDIR\" --root / is a staged package on this system",
                 [](S& v, O* o, std::string*) {
                   o->audit.roots.push_back(v);
                   return true;
                 }},
                {kAuditAndDiff, kLoader, "", "--sibling", "", "DIR",
                 "a tree installed in the same operation as the audited one (another\n"
                 "binary package of the same source): a layer below the audited\n"
                 "packages or the first --root, above the base; repeatable",
                 [](S& v, O* o, std::string*) {
                   o->audit.siblings.push_back(v);
                   return true;
                 }},
                {kAuditAndDiff, kLoader, "", "--installing", "", "PACKAGE",
                 "the audited tree is PACKAGE being installed: the files its\n"
                 "installed copy owns in a --root layer (its dpkg, pacman or\n"
                 "Portage database) are hidden there, as installing removes\n"
                 "them; .deb PATHs name themselves; repeatable",
                 [](S& v, O* o, std::string*) {
                   o->audit.installing.push_back({v, ""});
                   return true;
                 }},
                {kAuditAndDiff, kLoader, "", "--library-path", "", "DIR[:DIR...]",
                 "directories searched like LD_LIBRARY_PATH (host paths; repeatable)",
                 [](S& v, O* o, std::string*) {
                   for (auto& d : SplitColons(v)) o->audit.library_path.push_back(d);
                   return true;
                 }},
                {kAuditAndDiff, kLoader, "", "--ld-so-conf", "", "FILE",
                 "ld.so.conf inside the root (default /etc/ld.so.conf)",
                 [](S& v, O* o, std::string*) {
                   o->audit.ld_so_conf = v;
                   return true;
                 }},
                {kAuditAndDiff, kLoader, "", "--default-dirs", "", "DIR[:DIR...]",
                 "the target ld.so's built-in directories, inside the root ('' for\n"
                 "none; default: the interpreter's own lib/ for a Nix or Guix glibc,\n"
                 "else Debian's multiarch list)",
                 [](S& v, O* o, std::string*) {
                   o->audit.default_dirs = SplitColons(v);
                   return true;
                 }},
                {kAuditAndDiff, kLoader, "", "--relocatable", "", "",
                 "the tree must work wherever it is unpacked (an /opt tarball, a\n"
                 "wheel, a conda env): every absolute RPATH/RUNPATH entry, and\n"
                 "every CMake config path outside its prefix, is a finding",
                 [](S&, O* o, std::string*) {
                   o->audit.checks.relocatable = true;
                   return true;
                 }},
                {kAuditAndDiff, kLoader, "", "--forbid-rpath", "", "GLOB",
                 "also report RPATH/RUNPATH entries matching GLOB (repeatable)",
                 [](S& v, O* o, std::string*) {
                   o->audit.checks.forbid_rpath.push_back(v);
                   return true;
                 }},
                {kAuditAndDiff, kLoader, "", "--plugin-host", "", "MODULE-GLOB=PROGRAM",
                 "the shared objects MODULE-GLOB matches are plugins PROGRAM\n"
                 "dlopens: their undefined symbols bind against PROGRAM and its\n"
                 "closure too (a path in the root, or a name looked up in the\n"
                 "audited paths, then /usr/bin; a NAME.so as ld.so finds it);\n"
                 "a glob without '/' matches the file name; repeatable, first wins",
                 [](S& v, O* o, std::string* error) {
                   PluginHostOption given;
                   if (!ParsePluginHostOption(v, &given))
                     return Fail(error, "--plugin-host needs MODULE-GLOB=PROGRAM, not '" + v + "'");
                   o->audit.plugin_hosts.push_back(std::move(given));
                   return true;
                 }},
                {kAudit, kLoader, "", "--not-built", "", "PACKAGE=WHY",
                 "PACKAGE is installed in the same operation but this run does not\n"
                 "have it (an arch-only build's other packages), nor the base: a\n"
                 "missing file, library or CMake dependency it may ship is a\n"
                 "not-built-sibling note saying WHY; repeatable (dh_rocm_audit)",
                 [](S& v, O* o, std::string* error) {
                   NotBuiltPackage p;
                   if (!ParseNotBuiltPackage(v, &p, error)) return false;
                   o->audit.not_built.push_back(std::move(p));
                   return true;
                 }},

                {kAuditAndDiff, kCMake, "", "--cmake-prefix-path", "", "DIR[:DIR...]",
                 "prefixes where a consumer's find_package() finds the CMake\n"
                 "dependencies of the audited packages (repeatable)",
                 [](S& v, O* o, std::string*) {
                   for (auto& d : SplitColons(v)) o->audit.cmake_prefix_path.push_back(d);
                   return true;
                 }},

                {kAuditAndDiff, kGpu, "", "--require-arch", "", "LIST",
                 "target IDs every file with device code must serve, separated by\n"
                 "commas, semicolons or spaces (gfx906,gfx90a:xnack+,gfx1030);\n"
                 "plain gfx90a means every xnack/sramecc mode; repeatable",
                 [](S& v, O* o, std::string* error) {
                   std::string why;
                   if (!ParseArchList(v, &o->audit.checks.arch.targets, &why))
                     return Fail(error, "--require-arch: " + why);
                   return true;
                 }},
                {kAuditAndDiff, kGpu, "", "--require-arch-file", "", "FILE",
                 "the same, read from FILE ('#' starts a comment)",
                 [](S& v, O* o, std::string* error) {
                   std::ifstream in(v);
                   std::stringstream text;
                   text << in.rdbuf();
                   if (!in) return Fail(error, "--require-arch-file: cannot read " + v);
                   std::string why;
                   if (!ParseArchFile(text.str(), &o->audit.checks.arch.targets, &why))
                     return Fail(error, "--require-arch-file " + v + ": " + why);
                   return true;
                 }},
                {kAuditAndDiff, kGpu, "", "--isa-compat", "", "MODE",
                 "none (default) or debian: also accept the extended ISA\n"
                 "compatibility of Debian/Gentoo/Solus (gfx1031 runs gfx1030 code...)",
                 [](S& v, O* o, std::string* error) {
                   if (v == "debian")
                     o->audit.checks.arch.isa_compat = IsaCompat::kDebian;
                   else if (v == "none")
                     o->audit.checks.arch.isa_compat = IsaCompat::kNone;
                   else
                     return Fail(error, "--isa-compat must be none or debian, not '" + v + "'");
                   return true;
                 }},
                {kAuditAndDiff, kGpu, "", "--max-decompressed", "", "SIZE",
                 "refuse to decompress a bundle larger than SIZE (bytes, or with a\n"
                 "K/M/G suffix; default 2G): it becomes a malformed-bundle finding",
                 [](S& v, O* o, std::string* error) {
                   if (!ParseSize(v, &o->audit.bundles.max_decompressed))
                     return Fail(error,
                                 "--max-decompressed needs a size such as 512M or 4G, not '" + v + "'");
                   return true;
                 }},
                {kAuditAndDiff, kGpu, "", "--decode-memory", "", "SIZE",
                 "memory for decompression windows, all workers together\n"
                 "(default 128M): a file whose window does not fit is put off\n"
                 "while others are read; one larger than SIZE is decoded alone",
                 [](S& v, O* o, std::string* error) {
                   if (!ParseSize(v, &o->audit.decode_memory))
                     return Fail(error, "--decode-memory needs a size such as 64M or 1G, not '" + v + "'");
                   return true;
                 }},
                {kAuditAndDiff, kGpu, "", "--spill-dir", "", "DIR",
                 "where windows beyond 64 MiB of memory, and the JSON report's\n"
                 "files[] until it is written, are kept, in unnamed files the\n"
                 "kernel may write out (default $TMPDIR, else /tmp, or /var/tmp\n"
                 "where that is a tmpfs; none: in memory)",
                 [](S& v, O* o, std::string* error) {
                   if (v.empty()) return Fail(error, "--spill-dir needs a directory, or none");
                   o->audit.spill_dirs =
                       v == "none" ? std::vector<std::string>{} : std::vector<std::string>{v};
                   o->spill_dir_given = true;
                   return true;
                 }},
                {kAuditAndDiff, kGpu, "", "--verify-hash", "", "",
                 "check each compressed bundle's MD5 against its header",
                 [](S&, O* o, std::string*) {
                   o->audit.bundles.verify_hash = true;
                   return true;
                 }},
                {kAudit, kGpu, "", "--arch-matrix", "", "",
                 "text: add a GPU processors x files table (x all\n"
                 "modes, g generic target, : some modes, c ISA compat)",
                 [](S&, O* o, std::string*) {
                   o->arch_matrix = true;
                   return true;
                 }},

                {kAuditAndDiff, kPackages, "", "--no-base", "", "",
                 "audit .deb and .rpm PATHs installed into an empty system (a\n"
                 "minimal sysroot) instead of over the --root layers or /",
                 [](S&, O* o, std::string*) {
                   o->audit.no_base = true;
                   return true;
                 }},
                {kUnpacking, kPackages, "", "--max-unpacked", "", "SIZE",
                 "stop unpacking a package past SIZE bytes\n"
                 "(K/M/G/T suffixes; default 8G): a package-limit",
                 [](S& v, O* o, std::string* error) {
                   if (!ParseSize(v, &o->audit.unpack.max_bytes))
                     return Fail(error, "--max-unpacked needs a size such as 512M or 16G, not '" + v + "'");
                   return true;
                 }},
                {kUnpacking, kPackages, "", "--max-members", "", "N",
                 "stop unpacking a package past N members (default\n"
                 "200000): a package-limit finding",
                 [](S& v, O* o, std::string* error) {
                   if (!ParseSize(v, &o->audit.unpack.max_members))
                     return Fail(error, "--max-members needs a number of 1 or more, not '" + v + "'");
                   return true;
                 }},
                {kUnpacking, kPackages, "", "--max-ratio", "", "N",
                 "stop unpacking a package that expands to more than\n"
                 "N times its compressed size (default 200)",
                 [](S& v, O* o, std::string* error) {
                   if (!ParseSize(v, &o->audit.unpack.max_ratio))
                     return Fail(error, "--max-ratio needs a number of 1 or more, not '" + v + "'");
                   return true;
                 }},
                {kAuditAndDiff, kPolicy, "", "--enable", "", "IDS",
                 "run only these checks (IDs or globs such as 'cmake-*',\n"
                 "separated by commas; repeatable)",
                 [](S& v, O* o, std::string*) {
                   for (auto& id : SplitList(v)) o->audit.policy.enable.push_back(id);
                   return true;
                 }},
                {kAuditAndDiff, kPolicy, "", "--disable", "", "IDS",
                 "do not run these checks (IDs or globs; repeatable)",
                 [](S& v, O* o, std::string*) {
                   for (auto& id : SplitList(v)) o->audit.policy.disable.push_back(id);
                   return true;
                 }},
                {kAuditAndDiff, kPolicy, "", "--severity", "", "ID=LEVEL",
                 "report the check's findings at LEVEL (error, warning or\n"
                 "note); ID may be a glob; repeatable, the last match wins",
                 [](S& v, O* o, std::string* error) {
                   size_t eq = v.find('=');
                   Severity level;
                   if (eq == std::string::npos || eq == 0 || !ParseSeverity(v.substr(eq + 1), &level))
                     return Fail(error, "--severity needs ID=LEVEL with LEVEL error, warning or note, not '" +
                                            v + "'");
                   o->audit.policy.severity.emplace_back(v.substr(0, eq), level);
                   return true;
                 }},
                {kAuditAndDiff, kPolicy, "", "--suppress", "", "FILE",
                 "accept the findings FILE waives, one per line:\n"
                 "CHECK-ID PATH-GLOB [KEY-GLOB] # reason (the reason is\n"
                 "required); accepted findings are reported, marked, and do\n"
                 "not fail the run; repeatable",
                 [](S& v, O* o, std::string* error) {
                   std::string text;
                   if (!ReadFile(v, &text)) return Fail(error, "--suppress: cannot read " + v);
                   o->audit.suppress_files.push_back(v);
                   return ParseWaivers(text, v, KnownRules(), &o->audit.policy.waivers, error);
                 }},
                {kAuditAndDiff, kPolicy, "", "--baseline", "", "FILE",
                 "an earlier --format json report: its findings are accepted,\n"
                 "so only new ones fail the run",
                 [](S& v, O* o, std::string* error) {
                   std::string text, why;
                   if (!ReadFile(v, &text)) return Fail(error, "--baseline: cannot read " + v);
                   if (!ReadBaselineKeys(text, KnownRules(), &o->audit.policy.baseline_keys, &why))
                     return Fail(error, "--baseline " + v + ": " + why);
                   o->audit.policy.baseline_file = v;
                   return true;
                 }},

                {kDiff, kComparison, "", "--from", "", "",
                 "diff: the PATHs that follow, up to --to, are OLD: a set of\n"
                 "packages (or trees) installed together",
                 [](S&, O* o, std::string*) {
                   o->diff_side = O::DiffSide::kOld;
                   return true;
                 }},
                {kDiff, kComparison, "", "--to", "", "",
                 "diff: the PATHs that follow are NEW, installed together",
                 [](S&, O* o, std::string*) {
                   o->diff_side = O::DiffSide::kNew;
                   return true;
                 }},
                {kDiff, kComparison, "", "--consumers", "", "INDEX",
                 "also hit: the files of the consumer index INDEX (written by\n"
                 "rocm-audit index) that link a changed library; repeatable",
                 [](S& v, O* o, std::string*) {
                   o->consumer_indexes.push_back(v);
                   return true;
                 }},
                {kAudit, kOutput, "", "--tree", "", "FILE",
                 "draw FILE's load closure as a tree (how the loader finds\n"
                 "each library, what is not found) instead of the report",
                 [](S& v, O* o, std::string*) {
                   o->tree = v;
                   return true;
                 }},
                {kAuditAndDiff, kOutput, "", "--format", "", "FORMAT",
                 "text, json (schema_version 1), sarif (2.1.0), junit\n"
                 "(XML), gitlab (Code Quality) or html (self-contained)\n"
                 "(default text)",
                 [](S& v, O* o, std::string* error) {
                   if (v == "text")
                     o->format = OutputFormat::kText;
                   else if (v == "json")
                     o->format = OutputFormat::kJson;
                   else if (v == "sarif")
                     o->format = OutputFormat::kSarif;
                   else if (v == "junit")
                     o->format = OutputFormat::kJunit;
                   else if (v == "gitlab")
                     o->format = OutputFormat::kGitlab;
                   else if (v == "html")
                     o->format = OutputFormat::kHtml;
                   else
                     return Fail(
                         error, "--format must be text, json, sarif, junit, gitlab or html, not '" + v + "'");
                   return true;
                 }},
                {kAuditAndDiff, kOutput, "", "--base-uri", "", "DIR",
                 "sarif, gitlab: file paths relative to DIR, the repository root a\n"
                 "dashboard resolves them against (default: the working directory)",
                 [](S& v, O* o, std::string*) {
                   o->base_uri = v;
                   return true;
                 }},
                {kAudit, kOutput, "", "--files", "", "WHICH",
                 "json: list all audited files in files[] (default), only\n"
                 "those with findings, or none",
                 [](S& v, O* o, std::string* error) {
                   if (v == "all")
                     o->json_files = JsonFiles::kAll;
                   else if (v == "findings")
                     o->json_files = JsonFiles::kFindings;
                   else if (v == "none")
                     o->json_files = JsonFiles::kNone;
                   else
                     return Fail(error, "--files must be all, findings or none, not '" + v + "'");
                   return true;
                 }},
                {kAudit, kOutput, "", "--absolute-paths", "", "",
                 "name files by absolute host paths (default: below\n"
                 "the PATH that reached them, root-relative under\n"
                 "--root, PACKAGE:/member inside a package)",
                 [](S&, O* o, std::string*) {
                   o->absolute_paths = true;
                   return true;
                 }},
                {kUnpacking, kOutput, "-o", "--output", "", "FILE",
                 "write the report to FILE instead of standard output",
                 [](S& v, O* o, std::string*) {
                   o->output = v;
                   return true;
                 }},
                {kAudit, kOutput, "", "--symbols", "", "",
                 "json: list each ELF file's exported and imported dynamic\n"
                 "symbols in files[] (what diff compares a report by)",
                 [](S&, O* o, std::string*) {
                   o->audit.symbol_facts = true;
                   return true;
                 }},
                {kAuditAndDiff, kOutput, "", "--fail-on", "", "LEVEL",
                 "error|warning|note|none: exit 1 when a finding is at or above\nLEVEL (default error)",
                 [](S& v, O* o, std::string* error) {
                   if (v == "none")
                     o->fail_on_none = true;
                   else if (!ParseSeverity(v, &o->fail_on))
                     return Fail(error, "--fail-on must be error, warning, note or none, not '" + v + "'");
                   return true;
                 }},
                {kAudit, kOutput, "-v", "--verbose", "", "",
                 "text: list the device code of every file (default: one line\n"
                 "per library and per directory of code objects)",
                 [](S&, O* o, std::string*) {
                   o->verbose = true;
                   return true;
                 }},
                {kAuditAndDiff, kOutput, "-q", "--quiet", "", "",
                 "text: print only findings at or above --fail-on, and one line\n"
                 "saying what was left out",
                 [](S&, O* o, std::string*) {
                   o->quiet = true;
                   return true;
                 }},
                {kAuditAndDiff, kOutput, "", "--color", "--colour", "auto|always|never",
                 "colour the text report (default auto: only on a terminal)",
                 [](S& v, O* o, std::string* error) {
                   if (v != "auto" && v != "always" && v != "never")
                     return Fail(error, "--color must be auto, always or never");
                   o->color = v;
                   return true;
                 }},
                {kUnpacking, kOutput, "", "--no-progress", "", "", "no progress line on standard error",
                 [](S&, O* o, std::string*) {
                   o->progress = false;
                   return true;
                 }},
                {kUnpacking, kOutput, "-j", "--jobs", "", "N", "worker threads (default: all cores)",
                 [](S& v, O* o, std::string* error) {
                   char* end = nullptr;
                   long n = std::strtol(v.c_str(), &end, 10);
                   if (v.empty() || *end || n < 1 || n > 1024)
                     return Fail(error, "--jobs needs a number from 1 to 1024");
                   o->audit.jobs = static_cast<unsigned>(n);
                   return true;
                 }},
                {kAuditAndDiff, kOutput, "", "--max-findings-per-file", "", "N",
                 "report at most N findings of one file, the most severe\n"
                 "(default 5000); one finding-limit finding counts the rest",
                 [](S& v, O* o, std::string* error) {
                   uint64_t n = 0;
                   if (!ParseSize(v, &n))
                     return Fail(error,
                                 "--max-findings-per-file needs a number of 1 or more, not '" + v + "'");
                   o->audit.max_findings_per_file = static_cast<size_t>(n);
                   return true;
                 }},
                {kAuditAndDiff, kOutput, "", "--max-report-bytes-per-file", "", "SIZE",
                 "report at most SIZE bytes of text in the findings of one file,\n"
                 "and as much in each list of its facts, or 16 times the file's size\n"
                 "when that is more (default 256K); the most severe findings first,\n"
                 "and one finding-limit finding counts the rest. The findings of no\n"
                 "one file (whole-tree checks, the walk, unpacking) share as much,\n"
                 "or 16 times the bytes of all audited files",
                 [](S& v, O* o, std::string* error) {
                   uint64_t n = 0;
                   if (!ParseSize(v, &n))
                     return Fail(
                         error,
                         "--max-report-bytes-per-file needs a size such as 256K or 16M, not '" + v + "'");
                   o->audit.max_report_bytes_per_file = n;
                   return true;
                 }},
                {kAudit, kOutput, "", "--explain", "", "ID",
                 "say what a check means, with an example and the fix, and exit",
                 [](S& v, O* o, std::string*) {
                   o->explain = v;
                   return true;
                 }},
                {kAudit, kOutput, "", "--list-checks", "", "",
                 "print the check IDs, their default severities and exit\n(with --format json: every rule's "
                 "whole "
                 "record)",
                 [](S&, O* o, std::string*) {
                   o->list_checks = true;
                   return true;
                 }},
                {kAudit, kOutput, "", "--version", "", "", "print the version and exit",
                 [](S&, O* o, std::string*) {
                   o->show_version = true;
                   return true;
                 }},
                {kEveryCommand, kOutput, "-h", "--help", "", "", "print this help and exit",
                 [](S&, O* o, std::string*) {
                   o->show_help = true;
                   return true;
                 }},
};

const Option* Find(std::string_view name) {
  for (const Option& o : kOptions)
    if (name == o.long_name || (!o.short_name.empty() && name == o.short_name) ||
        (!o.alias.empty() && name == o.alias))
      return &o;
  return nullptr;
}

constexpr size_t kHelpColumn = 25;

// "  -j, --jobs N" and the option's help, from column kHelpColumn on.
std::string OptionHelp(const Option& o) {
  std::string left = "  ";
  if (!o.short_name.empty()) left += std::string(o.short_name) + ", ";
  left += o.long_name;
  if (!o.value.empty()) left += " " + std::string(o.value);
  const std::string indent(kHelpColumn, ' ');
  std::string out = left.size() + 1 < kHelpColumn ? left + std::string(kHelpColumn - left.size(), ' ')
                                                  : left + "\n" + indent;
  for (char c : o.help) out += c == '\n' ? "\n" + indent : std::string(1, c);
  return out + "\n";
}

// "usage: rocm-audit LINE" for the command's synopsis lines; the default command's help
// shows every command's.
std::string Usage(const Command& command) {
  std::string out;
  for (const Command& c : AllCommands()) {
    if (&c != &command && &command != &DefaultCommand()) continue;
    std::string_view lines = c.synopsis;
    while (!lines.empty()) {
      const size_t end = std::min(lines.find('\n'), lines.size());
      out += (out.empty() ? "usage: rocm-audit " : "       rocm-audit ") + std::string(lines.substr(0, end)) +
             "\n";
      lines.remove_prefix(std::min(end + 1, lines.size()));
    }
  }
  return out;
}

// The misplaced option's message: which commands take it, and where they are described.
std::string Misplaced(const Option& opt, const Command& command) {
  std::vector<std::string> names;
  for (const Command& c : AllCommands())
    if (opt.commands & c.bit)
      names.push_back(std::string(c.name) + " (rocm-audit " +
                      std::string(c.synopsis.substr(0, c.synopsis.find('\n'))) + ")");
  // "audit (...)", "audit (...) and diff (...)", "audit (...), diff (...) and index (...)".
  std::string takers;
  for (size_t i = 0; i < names.size(); ++i)
    takers += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return std::string(opt.long_name) + " is an option of " + takers + ", not of " + std::string(command.name) +
         " (see rocm-audit help " + std::string(command.name) + ")";
}

}  // namespace

std::span<const Option> AllOptions() { return kOptions; }

std::string HelpText(const Command& command) {
  std::string out = Usage(command) + "\n" + std::string(command.description);
  if (&command == &DefaultCommand()) {
    out += "\nCommands (rocm-audit help COMMAND says which options each takes):\n";
    for (const Command& c : AllCommands())
      if (&c != &command)
        out +=
            "  " + std::string(c.name) + std::string(10 - c.name.size(), ' ') + std::string(c.summary) + "\n";
  }
  std::string_view group;
  for (const Option& o : kOptions) {
    if (!(o.commands & command.bit)) continue;
    if (o.group != group) {
      group = o.group;
      out += "\n" + std::string(group) + ":\n";
    }
    out += OptionHelp(o);
  }
  out += "\nExit status: 0 no finding at or above --fail-on, 1 such findings, 2 usage or tool error.\n";
  return out;
}

namespace {

// A PATH goes to the side of `diff` that --from or --to opened, else to the audited PATHs.
void AddPath(const std::string& path, CliOptions* o) {
  if (o->diff_side == CliOptions::DiffSide::kOld)
    o->diff_old.push_back(path);
  else if (o->diff_side == CliOptions::DiffSide::kNew)
    o->diff_new.push_back(path);
  else
    o->audit.paths.push_back(path);
}

// The option `args[*i]` names (its value too: "--jobs=4", "-j4", "--jobs 4"), applied;
// `*i` is left on the last argument it took.
bool ApplyOption(const std::vector<std::string>& args, size_t* i, CliOptions* o, const Option** applied,
                 std::string* error) {
  const std::string& a = args[*i];
  std::string name = a, value;
  bool has_inline = false;
  if (a.starts_with("--") && a.find('=') != std::string::npos) {
    name = a.substr(0, a.find('='));
    value = a.substr(a.find('=') + 1);
    has_inline = true;
  } else if (!a.starts_with("--") && a.size() > 2) {
    name = a.substr(0, 2);  // getopt style: -j4, -oreport.json
    value = a.substr(2);
    has_inline = true;
  }
  const Option* opt = Find(name);
  if (!opt || (has_inline && opt->value.empty())) return Fail(error, "unknown option " + a + " (see --help)");
  if (!opt->value.empty() && !has_inline) {
    if (*i + 1 >= args.size()) return Fail(error, name + " needs a value");
    value = args[++*i];
  }
  *applied = opt;
  return opt->apply(value, o, error);
}

// A command's name after the audit's first PATH, when no file has that name: the command
// was meant, in the wrong place.
bool Exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::symlink_status(path, ec));
}

std::string CommandAfterAPath(const std::string& name) {
  return name + ": no such file or directory; the command " + name +
         " goes before its PATHs (rocm-audit [options] " + name + " ...; see rocm-audit help " + name + ")";
}

}  // namespace

// The command is the first argument that is neither an option nor an option's value, so
// options may come before it (`rocm-audit --no-progress diff OLD NEW`), as git's and
// CMake's do; a PATH that is a command's name is given as ./NAME or after "--".
bool ParseArguments(const std::vector<std::string>& args, CliOptions* o, std::string* error) {
  std::vector<const Option*> given;
  bool seen_positional = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      for (++i; i < args.size(); ++i) AddPath(args[i], o);
      break;
    }
    if (a.size() < 2 || a[0] != '-') {
      const Command* command = NamedCommand(a);
      if (command && !seen_positional)
        o->command = command->bit;
      else if (command && o->command == kAuditCommand && !Exists(a))
        return Fail(error, CommandAfterAPath(a));
      else
        AddPath(a, o);
      seen_positional = true;
      continue;
    }
    const Option* opt = nullptr;
    if (!ApplyOption(args, &i, o, &opt, error)) return false;
    given.push_back(opt);
  }
  const Command& command = CommandOf(o->command);
  for (const Option* opt : given)
    if (!(opt->commands & command.bit)) return Fail(error, Misplaced(*opt, command));
  if (!CheckPolicyNames(o->audit.policy, KnownRules(), error)) return false;
  return o->show_help || command.check_arguments(o, error);
}

}  // namespace rocm_audit
