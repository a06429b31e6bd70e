// Plugins are judged against their host (design.md §F9): a Python extension module, a Perl XS
// module and an Open MPI-style plugin, each built by the real compiler, with and without
// their host in the audited world.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "audit/inspect/plugin_rule.h"
#include "tests/support/audit_support.h"
#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

constexpr const char* kModule = "usr/lib/python3/dist-packages/x.cpython-311-x86_64-linux-gnu.so";

// A module that calls the interpreter's PyLong_FromLong and a PyNotAThing no Python has;
// -nostdlib so that its own closure is empty and every symbol is the host's to bind.
std::string PythonModule(const std::string& path) {
  return "mkdir -p \"$(dirname '" + path +
         "')\" && printf 'long PyLong_FromLong(long); long PyNotAThing(void);\\n"
         "long PyInit_x(void) { return PyLong_FromLong(1) + PyNotAThing(); }\\n' > m.c && "
         "cc -shared -fPIC -nostdlib -o '" +
         path + "' m.c && rm m.c\n";
}

// A stand-in interpreter exporting its C API, as python3.11 is linked (-Xlinker -export-dynamic).
constexpr const char* kPython =
    "mkexe usr/bin/python3.11 'long PyLong_FromLong(long x) { return x; } int main(void) { return 0; }' "
    "-rdynamic\n";

std::vector<std::string> Symbols(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.fields["symbol"]);
  return out;
}

TEST(PluginHosts, PythonExtensionBindsAgainstTheInterpreterInTheTree) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), PythonModule(kModule) + kPython));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kModule);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["symbol"], "PyNotAThing");
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].fields["plugin"], "python-extension");
  EXPECT_EQ(f[0].fields["host"], "python3.11");
  EXPECT_EQ(f[0].fields["host_path"], t / "usr/bin/python3.11");
  const FileFacts* facts = FactsOf(r, t / kModule);
  ASSERT_TRUE(facts && facts->plugin);
  EXPECT_EQ(facts->plugin->rule, "python-extension");
  EXPECT_EQ(facts->plugin->bound_by_host, 1u);
}

// The host comes from the --root layer when the audited paths do not hold it.
TEST(PluginHosts, TheHostIsFoundInTheRoot) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), PythonModule(kModule) + kPython));
  Report r = Audit({t / "usr/lib/python3"}, t.path());
  EXPECT_THAT(Symbols(FindingsOf(r, "undefined-symbol", t / kModule)), UnorderedElementsAre("PyNotAThing"));
}

// Without python3.11, libpython3.11.so.1.0 where ld.so finds it is the host.
TEST(PluginHosts, LibpythonOfTheAbiTagIsTheHost) {
  TempDir t;
  ASSERT_TRUE(
      BuildTree(t.path(), PythonModule(kModule) +
                              "mklib usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0 libpython3.11.so.1.0 "
                              "'long PyLong_FromLong(long x) { return x; }' -nostdlib\n"
                              // Another version's library is not this module's host.
                              "mklib usr/lib/x86_64-linux-gnu/libpython3.12.so.1.0 libpython3.12.so.1.0 "
                              "'long PyNotAThing(void) { return 0; }' -nostdlib\n"));
  Report r = Audit({t / "usr/lib/python3"}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kModule);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["symbol"], "PyNotAThing");
  EXPECT_EQ(f[0].fields["host_path"], t / "usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0");
}

TEST(PluginHosts, WithoutItsHostAPluginsSymbolsAreNotesNamingIt) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), PythonModule(kModule)));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kModule);
  EXPECT_THAT(Symbols(f), UnorderedElementsAre("PyLong_FromLong", "PyNotAThing"));
  for (const Finding& x : f) {
    EXPECT_EQ(x.severity, Severity::kNote);
    EXPECT_TRUE(x.fields["host_path"].is_null());
    EXPECT_EQ(x.fields["host"], "python3.11");
    EXPECT_THAT(x.message, HasSubstr("a Python extension module for python3.11, and neither python3.11 nor "
                                     "libpython3.11.so.1.0 is in the audited world"));
  }
}

// PyInit_NAME makes an untagged NAME.so a module; the stable ABI's host is python3.
TEST(PluginHosts, PyInitNamesAnUntaggedModule) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), PythonModule("lib/x.so") +
                                      "mkexe usr/bin/python3 'long PyLong_FromLong(long x) { return x; } "
                                      "long PyNotAThing(void) { return 0; } int main(void) { return 0; }' "
                                      "-rdynamic\n"));
  Report r = Audit({t / "lib"}, t.path());
  EXPECT_TRUE(FindingsOf(r, "undefined-symbol").empty());
  const FileFacts* facts = FactsOf(r, t / "lib/x.so");
  ASSERT_TRUE(facts && facts->plugin);
  EXPECT_EQ(facts->plugin->host, "python3");
  EXPECT_EQ(facts->plugin->bound_by_host, 2u);
}

constexpr const char* kPerlModule = "usr/lib/x86_64-linux-gnu/perl5/5.36/auto/Foo/Foo.so";

std::string PerlModule() {
  return std::string(
             "mkdir -p usr/lib/x86_64-linux-gnu/perl5/5.36/auto/Foo && printf 'void *Perl_newSV(unsigned "
             "long);\\n"
             "void boot_Foo(void) { Perl_newSV(0); }\\n' > p.c && cc -shared -fPIC -nostdlib -o ") +
         kPerlModule + " p.c && rm p.c\n";
}

TEST(PluginHosts, PerlXsModuleBindsAgainstPerl) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), PerlModule() + "mkexe usr/bin/perl 'void *Perl_newSV(unsigned long n) "
                                                 "{ return 0; } int main(void) { return 0; }' -rdynamic\n"));
  Report r = Audit({t / "usr/lib"}, t.path());
  EXPECT_TRUE(FindingsOf(r, "undefined-symbol", t / kPerlModule).empty());
  const FileFacts* facts = FactsOf(r, t / kPerlModule);
  ASSERT_TRUE(facts && facts->plugin);
  EXPECT_EQ(facts->plugin->rule, "perl-xs");
  EXPECT_EQ(facts->plugin->host_path, t / "usr/bin/perl");
}

TEST(PluginHosts, PerlXsModuleWithoutPerlIsANote) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), PerlModule()));
  Report r = Audit({t / "usr/lib"}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kPerlModule);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kNote);
  EXPECT_EQ(f[0].fields["host"], "perl");
}

constexpr const char* kMca = "usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_btl_tcp.so";

// Open MPI's components: libtool modules (soname = their file name) in a plugin directory,
// calling libopen-pal, which the MPI program has loaded; libmpi.so.40 needs it.
std::string OpenMpiTree() {
  return std::string("mklib ") + kMca +
         " mca_btl_tcp.so 'int opal_convertor_pack(void); int opal_not_there(void);"
         " int mca_btl_tcp_component(void) { return opal_convertor_pack() + opal_not_there(); }' -nostdlib\n"
         "mklib usr/lib/x86_64-linux-gnu/libopen-pal.so.40 libopen-pal.so.40 "
         "'int opal_convertor_pack(void) { return 0; }' -nostdlib\n"
         "mklib usr/lib/x86_64-linux-gnu/libmpi.so.40 libmpi.so.40 'int MPI_Init(void) { return 0; }' "
         "-nostdlib -Wl,--no-as-needed -Lusr/lib/x86_64-linux-gnu -l:libopen-pal.so.40\n";
}

TEST(PluginHosts, PluginDirectoryModuleWithoutAKnownHostIsANote) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), OpenMpiTree()));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kMca);
  EXPECT_THAT(Symbols(f), UnorderedElementsAre("opal_convertor_pack", "opal_not_there"));
  for (const Finding& x : f) {
    EXPECT_EQ(x.severity, Severity::kNote);
    EXPECT_EQ(x.fields["plugin"], "plugin-directory");
    EXPECT_TRUE(x.fields["host"].is_null());
    EXPECT_THAT(x.hint, HasSubstr("--plugin-host"));
  }
}

TEST(PluginHosts, PluginHostOptionNamesTheHost) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), OpenMpiTree()));
  AuditRequest request;
  request.paths = {t.path()};
  request.roots = {t.path()};
  request.plugin_hosts = {{"openmpi3/mca_*.so", "libmpi.so.40"}};
  Report r = AuditWith(request);
  auto f = FindingsOf(r, "undefined-symbol", t / kMca);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["symbol"], "opal_not_there");
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].fields["plugin"], "plugin-host");
  EXPECT_EQ(f[0].fields["host_path"], t / "usr/lib/x86_64-linux-gnu/libmpi.so.40");
}

// What is not a plugin keeps ldd -r's verdict: a library with a versioned soname in the
// same directory, and a module some audited object links.
TEST(PluginHosts, LinkedObjectsAreNotPlugins) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      "mklib usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/libcommon.so.41 libcommon.so.41 "
      "'int opal_x(void); int c(void) { return opal_x(); }' -nostdlib\n"
      "mklib usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_linked.so mca_linked.so "
      "'int opal_y(void); int l(void) { return opal_y(); }' -nostdlib\n"
      "mklib usr/lib/x86_64-linux-gnu/libuser.so.1 libuser.so.1 'int u(void) { return 0; }' "
      "-nostdlib -Wl,--no-as-needed -Lusr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3 -l:mca_linked.so\n"));
  Report r = Audit({t.path()}, t.path());
  for (const char* file : {"libcommon.so.41", "mca_linked.so"}) {
    auto f = FindingsOf(r, "undefined-symbol", t / "usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/" + file);
    ASSERT_EQ(f.size(), 1u) << file;
    EXPECT_EQ(f[0].severity, Severity::kError) << file;
    EXPECT_FALSE(f[0].fields.contains("plugin")) << file;
  }
}

constexpr const char* kHelper = "usr/lib/x86_64-linux-gnu/libfoo_py.so.1";

// A helper library with a SONAME that a Python extension links and that itself calls the
// interpreter (PyLong_FromLong) and a PyNotAThing no Python has; the module calls only it.
std::string ModuleWithHelper() {
  return std::string("mklib ") + kHelper +
         " libfoo_py.so.1 'long PyLong_FromLong(long); long PyNotAThing(void);"
         " long foo(void) { return PyLong_FromLong(1) + PyNotAThing(); }' -nostdlib\n"
         "mklib " +
         kModule +
         " x.cpython-311-x86_64-linux-gnu.so 'long foo(void); long PyInit_x(void) { return foo(); }' "
         "-nostdlib -Wl,--no-as-needed -Lusr/lib/x86_64-linux-gnu -l:libfoo_py.so.1\n" +
         kPython;
}

// Only the module needs the helper, so it lives in python3.11's process and binds there.
TEST(PluginHosts, ALibraryOnlyPluginsNeedInheritsTheirHost) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), ModuleWithHelper()));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kHelper);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["symbol"], "PyNotAThing");
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].fields["plugin"], "plugin-library");
  EXPECT_EQ(f[0].fields["host"], "python3.11");
  EXPECT_EQ(f[0].fields["host_path"], t / "usr/bin/python3.11");
  const FileFacts* facts = FactsOf(r, t / kHelper);
  ASSERT_TRUE(facts && facts->plugin);
  EXPECT_EQ(facts->plugin->bound_by_host, 1u);
  EXPECT_TRUE(FindingsOf(r, "undefined-symbol", t / kModule).empty());
}

// Without the host in the audited world, the helper's unbound symbols are notes naming it.
TEST(PluginHosts, ALibraryOnlyPluginsNeedIsANoteWithoutTheirHost) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), ModuleWithHelper() + "rm usr/bin/python3.11\n"));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kHelper);
  EXPECT_THAT(Symbols(f), UnorderedElementsAre("PyLong_FromLong", "PyNotAThing"));
  for (const Finding& x : f) {
    EXPECT_EQ(x.severity, Severity::kNote);
    EXPECT_THAT(x.message, HasSubstr("a library that only plugins load (/" + std::string(kModule) + ")"));
  }
}

// A library only plugins of no known host need (Open MPI's libmca_common_*.so, linked only
// by its mca_*.so modules) is in the same unknown process: its unbound symbols are notes.
TEST(PluginHosts, ALibraryOnlyHostlessPluginsNeedIsANote) {
  TempDir t;
  const std::string common = "usr/lib/x86_64-linux-gnu/openmpi/lib/libmca_common_x.so.40";
  ASSERT_TRUE(
      BuildTree(t.path(), "mklib " + common +
                              " libmca_common_x.so.40 'int opal_list_t_class(void);"
                              " int c(void) { return opal_list_t_class(); }' -nostdlib\n"
                              "mklib usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_io_x.so mca_io_x.so "
                              "'int c(void); int m(void) { return c(); }' -nostdlib -Wl,--no-as-needed "
                              "-Lusr/lib/x86_64-linux-gnu/openmpi/lib -l:libmca_common_x.so.40\n"));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / common);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::kNote);
  EXPECT_EQ(f[0].fields["plugin"], "plugin-library");
  EXPECT_TRUE(f[0].fields["host"].is_null());
  EXPECT_THAT(f[0].message,
              HasSubstr("a library that only plugins load (/usr/lib/x86_64-linux-gnu/openmpi/lib/"
                        "openmpi3/mca_io_x.so), loaded by a program the audit cannot name"));
}

constexpr const char* kBoostPython = "usr/lib/x86_64-linux-gnu/libboost_pyx.so.1.74.0";

// A library of the Python C API, linked as Debian links libboost_python: PyLong_FromLong and
// a PyNotAThing no Python has, no libpython in DT_NEEDED; libboost_numpyx needs it and is one
// too. -nostdlib: every symbol is the host's to bind.
std::string BoostPythonTree() {
  return std::string("mklib ") + kBoostPython +
         " libboost_pyx.so.1.74.0 'long PyLong_FromLong(long); long PyNotAThing(void);"
         " long b(void) { return PyLong_FromLong(1) + PyNotAThing(); }' -nostdlib\n"
         "mklib usr/lib/x86_64-linux-gnu/libboost_numpyx.so.1.74.0 libboost_numpyx.so.1.74.0 "
         "'long b(void); long PyLong_FromLong(long); long n(void) { return b() + PyLong_FromLong(2); }' "
         "-nostdlib -Wl,--no-as-needed -Lusr/lib/x86_64-linux-gnu -l:libboost_pyx.so.1.74.0\n";
}

// python3 of the audited world binds what it defines; what no Python defines stays an error.
TEST(PluginHosts, ALibraryOfThePythonCApiBindsAgainstPython3) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), BoostPythonTree() +
                                      "mkexe usr/bin/python3 'long PyLong_FromLong(long x) { return x; } "
                                      "int main(void) { return 0; }' -rdynamic\n"));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kBoostPython);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["symbol"], "PyNotAThing");
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].fields["plugin"], "python-api-library");
  EXPECT_EQ(f[0].fields["host_path"], t / "usr/bin/python3");
  EXPECT_TRUE(
      FindingsOf(r, "undefined-symbol", t / "usr/lib/x86_64-linux-gnu/libboost_numpyx.so.1.74.0").empty());
  const FileFacts* facts = FactsOf(r, t / kBoostPython);
  ASSERT_TRUE(facts && facts->plugin);
  EXPECT_EQ(facts->plugin->rule, "python-api-library");
  EXPECT_EQ(facts->plugin->bound_by_host, 1u);
}

// Without python3 in the audited world its symbols are notes naming it.
TEST(PluginHosts, ALibraryOfThePythonCApiWithoutPythonIsANote) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), BoostPythonTree()));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kBoostPython);
  EXPECT_THAT(Symbols(f), UnorderedElementsAre("PyLong_FromLong", "PyNotAThing"));
  for (const Finding& x : f) {
    EXPECT_EQ(x.severity, Severity::kNote);
    EXPECT_EQ(x.fields["plugin"], "python-api-library");
    EXPECT_EQ(x.fields["host"], "python3");
    EXPECT_TRUE(x.fields["host_path"].is_null());
  }
}

// A program that links the helper too loads it outside any interpreter: ldd -r's verdict.
TEST(PluginHosts, ALibraryAProgramNeedsKeepsItsErrors) {
  TempDir t;
  ASSERT_TRUE(BuildTree(
      t.path(),
      ModuleWithHelper() +
          "mkexe usr/bin/tool 'long foo(void); int main(void) { return foo(); }' "
          "-Wl,--no-as-needed -Lusr/lib/x86_64-linux-gnu -l:libfoo_py.so.1 -Wl,--allow-shlib-undefined\n"));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kHelper);
  EXPECT_THAT(Symbols(f), UnorderedElementsAre("PyLong_FromLong", "PyNotAThing"));
  for (const Finding& x : f) {
    EXPECT_EQ(x.severity, Severity::kError);
    EXPECT_FALSE(x.fields.contains("plugin"));
  }
  const FileFacts* facts = FactsOf(r, t / kHelper);
  ASSERT_TRUE(facts);
  EXPECT_FALSE(facts->plugin);
}

constexpr const char* kTrace = "usr/lib/x86_64-linux-gnu/libtracex.so.40.30.1";

// An MPI profiling library, linked as Open MPI links libompitrace: MPI_Send wraps the MPI
// library's PMPI_Send, and PMPI_NotAThing is in no MPI library; no libmpi in DT_NEEDED.
// -nostdlib: every symbol is the host's to bind.
std::string MpiTraceTree() {
  return std::string("mklib ") + kTrace +
         " libtracex.so.40 'int PMPI_Send(int); int PMPI_NotAThing(void);"
         " int MPI_Send(int x) { return PMPI_Send(x) + PMPI_NotAThing(); }' -nostdlib\n";
}

// The MPI library of the audited world binds what it defines; what it does not stays an error.
TEST(PluginHosts, AnMpiProfilingLibraryBindsAgainstLibmpi) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), MpiTraceTree() + "mklib usr/lib/x86_64-linux-gnu/libmpi.so.40 libmpi.so.40 "
                                                   "'int PMPI_Send(int x) { return x; } int MPI_Send(int x) "
                                                   "{ return x; }' -nostdlib\n"));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kTrace);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["symbol"], "PMPI_NotAThing");
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].fields["plugin"], "mpi-profiling-library");
  EXPECT_EQ(f[0].fields["host_path"], t / "usr/lib/x86_64-linux-gnu/libmpi.so.40");
  const FileFacts* facts = FactsOf(r, t / kTrace);
  ASSERT_TRUE(facts && facts->plugin);
  EXPECT_EQ(facts->plugin->rule, "mpi-profiling-library");
  EXPECT_EQ(facts->plugin->bound_by_host, 1u);
}

// Without an MPI library in the audited world its symbols are notes naming both ABIs.
TEST(PluginHosts, AnMpiProfilingLibraryWithoutLibmpiIsANote) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), MpiTraceTree()));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kTrace);
  EXPECT_THAT(Symbols(f), UnorderedElementsAre("PMPI_Send", "PMPI_NotAThing"));
  for (const Finding& x : f) {
    EXPECT_EQ(x.severity, Severity::kNote);
    EXPECT_EQ(x.fields["plugin"], "mpi-profiling-library");
    EXPECT_EQ(x.fields["host"], "libmpi");
    EXPECT_TRUE(x.fields["host_path"].is_null());
  }
}

// PMPI_* called with no MPI_* wrapper of the same routine is no profiling library (an
// application that calls the profiling names itself), and a profiling library a program
// links is loaded outside any interposition: ldd -r's verdict stands for both.
TEST(PluginHosts, PmpiCallsWithoutWrappersOrLinkedByAProgramKeepTheirErrors) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(),
                        MpiTraceTree() +
                            "mklib usr/lib/x86_64-linux-gnu/libcaller.so.1 libcaller.so.1 "
                            "'int PMPI_Send(int); int call(int x) { return PMPI_Send(x); }' -nostdlib\n"
                            "mkexe usr/bin/tool 'int MPI_Send(int); int main(void) { return MPI_Send(1); }' "
                            "-Wl,--no-as-needed -Lusr/lib/x86_64-linux-gnu -l:libtracex.so.40.30.1 "
                            "-Wl,--allow-shlib-undefined\n"));
  Report r = Audit({t.path()}, t.path());
  for (const char* lib : {"usr/lib/x86_64-linux-gnu/libcaller.so.1", kTrace}) {
    auto f = FindingsOf(r, "undefined-symbol", t / lib);
    ASSERT_FALSE(f.empty()) << lib;
    for (const Finding& x : f) {
      EXPECT_EQ(x.severity, Severity::kError) << lib;
      EXPECT_FALSE(x.fields.contains("plugin")) << lib;
    }
  }
}

constexpr const char* kThreadDb = "usr/lib/x86_64-linux-gnu/libthread_dbx.so.1";

// A thread debugging library as glibc builds libthread_db: the proc_service callbacks
// ps_pglobal_lookup and ps_getpid are the debugger's, ps_notathing is no debugger's.
std::string ThreadDbTree() {
  return std::string("mklib ") + kThreadDb +
         " libthread_dbx.so.1 'int ps_pglobal_lookup(void); int ps_getpid(void); int ps_notathing(void);"
         " int td_init(void) { return ps_pglobal_lookup() + ps_getpid() + ps_notathing(); }' -nostdlib\n";
}

// gdb of the audited world (it exports the callbacks: -rdynamic) binds them; without it,
// the callbacks are notes naming gdb and gdbserver.
TEST(PluginHosts, AThreadDebuggingLibraryBindsAgainstTheDebugger) {
  TempDir t;
  ASSERT_TRUE(BuildTree(t.path(), ThreadDbTree() +
                                      "mkexe usr/bin/gdb 'int ps_pglobal_lookup(void) { return 0; } "
                                      "int ps_getpid(void) { return 1; } int main(void) { return 0; }' "
                                      "-rdynamic\n"));
  Report r = Audit({t.path()}, t.path());
  auto f = FindingsOf(r, "undefined-symbol", t / kThreadDb);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["symbol"], "ps_notathing");
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].fields["plugin"], "proc-service-library");
  EXPECT_EQ(f[0].fields["host_path"], t / "usr/bin/gdb");

  TempDir alone;
  ASSERT_TRUE(BuildTree(alone.path(), ThreadDbTree()));
  Report without = Audit({alone.path()}, alone.path());
  auto notes = FindingsOf(without, "undefined-symbol", alone / kThreadDb);
  EXPECT_THAT(Symbols(notes), UnorderedElementsAre("ps_pglobal_lookup", "ps_getpid", "ps_notathing"));
  for (const Finding& x : notes) {
    EXPECT_EQ(x.severity, Severity::kNote);
    EXPECT_EQ(x.fields["plugin"], "proc-service-library");
    EXPECT_EQ(x.fields["host"], "gdb");
    EXPECT_TRUE(x.fields["host_path"].is_null());
  }
}

// A wheel as pip builds one: an untagged module x.so (PyInit_x) calling CPython's real
// PyLong_FromLong and a PyNotAThing no Python has, its dist-info's WHEEL with `tag`, and its
// RECORD; written as a zip by python3's zipfile.
std::string Wheel(const std::string& whl, const std::string& tag) {
  return PythonModule("pkg/x.so") +
         "python3 - <<'PY'\n"
         "import zipfile\n"
         "with zipfile.ZipFile('" +
         whl +
         "', 'w') as z:\n"
         "    z.write('pkg/x.so', 'pkg/x.so')\n"
         "    z.writestr('pkg-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nRoot-Is-Purelib: false\\nTag: " +
         tag +
         "\\n')\n"
         "    z.writestr('pkg-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: pkg\\nVersion: "
         "1.0\\n')\n"
         "    z.writestr('pkg-1.0.dist-info/RECORD', 'pkg/x.so,,\\npkg-1.0.dist-info/WHEEL,,\\n"
         "pkg-1.0.dist-info/METADATA,,\\npkg-1.0.dist-info/RECORD,,\\n')\n"
         "PY\n"
         "rm -r pkg\n";
}

// The undefined-symbol findings of wheel `name` (its WHEEL file's tag `tag`), audited alone.
std::vector<Finding> WheelUndefinedSymbols(const TempDir& t, const std::string& name,
                                           const std::string& tag) {
  EXPECT_TRUE(BuildTree(t.path(), Wheel(name, tag)));
  AuditRequest request;
  request.paths = {t / name};
  return FindingsOf(AuditWith(request), "undefined-symbol");
}

// The wheel's cp311 tag names python3.11: Debian's /usr/bin/python3.11 (the base) binds
// PyLong_FromLong, and PyNotAThing stays an error.
TEST(PluginHosts, AWheelsModuleBindsAgainstThePythonOfItsTag) {
  TempDir t;
  auto f = WheelUndefinedSymbols(t, "pkg-1.0-cp311-cp311-linux_x86_64.whl", "cp311-cp311-linux_x86_64");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].fields["symbol"], "PyNotAThing");
  EXPECT_EQ(f[0].severity, Severity::kError);
  EXPECT_EQ(f[0].fields["host"], "python3.11");
  EXPECT_EQ(f[0].fields["host_path"], "/usr/bin/python3.11");
}

// cp312 on Debian 12's base, which has python3.11 only: never judged against 3.11; notes
// name what it needs.
TEST(PluginHosts, AWheelForAnotherPythonIsANoteNamingIt) {
  TempDir t;
  auto f =
      WheelUndefinedSymbols(t, "pkg-1.0-cp312-cp312-linux_x86_64.whl", "cp312-cp312-manylinux_2_17_x86_64");
  EXPECT_THAT(Symbols(f), UnorderedElementsAre("PyLong_FromLong", "PyNotAThing"));
  for (const Finding& x : f) {
    EXPECT_EQ(x.severity, Severity::kNote);
    EXPECT_EQ(x.fields["host"], "python3.12");
    EXPECT_TRUE(x.fields["host_path"].is_null());
  }
}

// A PyPy wheel binds to PyPy's libpypy, never CPython's python3.11.
TEST(PluginHosts, APyPyWheelNamesPyPy) {
  TempDir t;
  auto f = WheelUndefinedSymbols(t, "pkg-1.0-pp310-pypy310_pp73-linux_x86_64.whl",
                                 "pp310-pypy310_pp73-manylinux_2_17_x86_64");
  EXPECT_THAT(Symbols(f), UnorderedElementsAre("PyLong_FromLong", "PyNotAThing"));
  for (const Finding& x : f) {
    EXPECT_EQ(x.fields["host"], "pypy3.10");
    EXPECT_TRUE(x.fields["host_path"].is_null());
  }
}

TEST(PluginHosts, WheelTags) {
  auto abi = ParseWheelTag("cp311-cp311-manylinux_2_17_x86_64");
  ASSERT_TRUE(abi);
  EXPECT_EQ(abi->kind, WheelAbi::Kind::kCPython);
  EXPECT_EQ(abi->version, "3.11");
  abi = ParseWheelTag("cp38-abi3-manylinux2014_x86_64");
  ASSERT_TRUE(abi);
  EXPECT_EQ(abi->kind, WheelAbi::Kind::kStableAbi);
  EXPECT_EQ(abi->version, "3.8");
  abi = ParseWheelTag("pp310-pypy310_pp73-manylinux_2_17_x86_64");
  ASSERT_TRUE(abi);
  EXPECT_EQ(abi->kind, WheelAbi::Kind::kPyPy);
  EXPECT_EQ(abi->version, "3.10");
  abi = ParseWheelTag("cp37-cp37m-linux_x86_64");
  ASSERT_TRUE(abi);
  EXPECT_EQ(abi->version, "3.7m");
  EXPECT_FALSE(ParseWheelTag("py3-none-any"));
  EXPECT_FALSE(ParseWheelTag("cp3x"));
}

TEST(PluginHosts, OptionAndGlobs) {
  PluginHostOption o;
  EXPECT_TRUE(ParsePluginHostOption("*/mca_*.so=/usr/bin/mpirun", &o));
  EXPECT_EQ(o.module_glob, "*/mca_*.so");
  EXPECT_EQ(o.program, "/usr/bin/mpirun");
  EXPECT_FALSE(ParsePluginHostOption("mca_*.so", &o));
  EXPECT_FALSE(ParsePluginHostOption("=perl", &o));
  EXPECT_FALSE(ParsePluginHostOption("x.so=", &o));
  const std::string sys = "/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_btl_tcp.so";
  EXPECT_TRUE(PluginHostMatches("mca_*.so", sys, "/r" + sys));
  EXPECT_TRUE(PluginHostMatches("openmpi3/mca_*.so", sys, "/r" + sys));
  EXPECT_FALSE(PluginHostMatches("penmpi3/mca_*.so", sys, "/r" + sys));
  EXPECT_TRUE(PluginHostMatches("/usr/lib/*/mca_*.so", sys, "/r" + sys));
  EXPECT_FALSE(PluginHostMatches("/lib/*/mca_*.so", sys, "/r" + sys));
  EXPECT_FALSE(PluginHostMatches("libmpi*.so", sys, "/r" + sys));
}

}  // namespace
}  // namespace rocm_audit::testing
