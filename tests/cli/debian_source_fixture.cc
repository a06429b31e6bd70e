#include "tests/cli/debian_source_fixture.h"

#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

const std::string kLib = "usr/lib/x86_64-linux-gnu";

std::string Control(const RoctapSource& s) {
  return "Source: roctap\nSection: libs\nPriority: optional\nMaintainer: Test <test@rocm-audit.invalid>\n"
         "Build-Depends: debhelper-compat (= 13)" +
         s.build_depends +
         "\nRules-Requires-Root: no\nStandards-Version: 4.6.2\n\n"
         "Package: libroctap1\nArchitecture: any\nDepends: ${misc:Depends}\n"
         "Description: rocm-audit test library\n the library\n\n"
         "Package: roctap-tools\nArchitecture: any\nDepends: libroctap1 (= ${binary:Version}), "
         "${misc:Depends}\n"
         "Description: rocm-audit test tools\n a program, its man page and a dangling man-page link\n\n"
         // deb822 field names are case-insensitive: a reader must not miss this package.
         "package: libroctap-dev\nArchitecture: any\nDepends: libroctap1 (= ${binary:Version}), " +
         std::string(s.common_package ? "roctap-common (= ${source:Version}), " : "") +
         "${misc:Depends}\nDescription: rocm-audit test headers\n a CMake package and a README\n" +
         (s.common_package ? "\nPackage: roctap-common\nArchitecture: all\nMulti-Arch: foreign\n"
                             "Depends: roctap-tools (>= ${source:Version}), ${misc:Depends}\n"
                             "Description: rocm-audit test CMake macros\n macros and a config of the tools\n"
                           : "");
}

// Its Depends are written in debian/control; only the audit is tested (no dh_shlibdeps).
std::string Rules(const RoctapSource& s) {
  return "#!/usr/bin/make -f\n%:\n\tdh $@" + s.dh_options +
         "\n\noverride_dh_auto_build:\n"
         "\tgcc -shared -fPIC -o libroctap.so.1 -Wl,-soname,libroctap.so.1 f.c\n"
         // A library with a planted undefined symbol still links the program, as with -z undefs.
         "\tgcc -o roctap main.c -L. -l:libroctap.so.1 -Wl,--allow-shlib-undefined\n\n"
         "override_dh_auto_install:\n"
         "\tinstall -D -m 644 libroctap.so.1 debian/libroctap1/" +
         kLib +
         "/libroctap.so.1\n"
         "\tinstall -D -m 755 roctap debian/roctap-tools/usr/bin/roctap\n"
         "\tinstall -D -m 644 roctap.1 debian/roctap-tools/usr/share/man/man1/roctap.1\n"
         "\tln -s roctap-gone.1.gz debian/roctap-tools/usr/share/man/man1/roctapz.1.gz\n"
         "\tinstall -D -m 644 roctap.h debian/libroctap-dev/usr/include/roctap.h\n"
         "\tinstall -D -m 644 roctapConfig.cmake debian/libroctap-dev/" +
         kLib +
         "/cmake/roctap/roctapConfig.cmake\n"
         "\tln -s libroctap.so.1 debian/libroctap-dev/" +
         kLib + "/libroctap.so\n" +
         // Into debian/roctap-common whatever the build makes, as a rules file may: a staged
         // tree of a package the build does not make is no sibling.
         (s.common_package
              ? "\tinstall -D -m 644 roctap-toolsConfig.cmake "
                "debian/roctap-common/usr/share/cmake/roctap-tools/roctap-toolsConfig.cmake\n" +
                    std::string(s.common_lacks_macros
                                    ? ""
                                    : "\tinstall -D -m 644 roctap-macros.cmake "
                                      "debian/roctap-common/usr/share/roctap/roctap-macros.cmake\n")
              : std::string()) +
         "\noverride_dh_shlibdeps:\n";
}

}  // namespace

void WriteRoctapSource(const std::string& dir, const RoctapSource& s) {
  WriteAll(dir + "/debian/control", Control(s));
  WriteAll(dir + "/debian/changelog",
           "roctap (" + s.version +
               ") unstable; urgency=medium\n\n  * Test.\n\n"
               " -- Test <test@rocm-audit.invalid>  Mon, 23 Nov 2026 00:00:00 +0000\n");
  WriteAll(dir + "/debian/copyright",
           "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\n"
           "Files: *\nCopyright: 2026 Test\nLicense: MIT\n");
  WriteAll(dir + "/debian/rules", Rules(s));
  WriteAll(dir + "/debian/libroctap-dev.docs", "README\n");
  WriteAll(dir + "/README", "roctap: a test\n");
  WriteAll(dir + "/f.c", s.undefined_symbol
                             ? "int roc_missing(void);\nint roc_f(void) { return roc_missing(); }\n"
                             : "int roc_f(void) { return 1; }\n");
  WriteAll(dir + "/main.c", "int roc_f(void);\nint main(void) { return roc_f(); }\n");
  WriteAll(dir + "/roctap.h", "int roc_f(void);\n");
  WriteAll(dir + "/roctap.1", ".TH ROCTAP 1\n.SH NAME\nroctap \\- a test\n");
  WriteAll(
      dir + "/roctapConfig.cmake",
      std::string(s.common_package ? "include(/usr/share/roctap/roctap-macros.cmake)\n" : "") +
          "add_library(roctap::roctap SHARED IMPORTED)\n"
          "set_target_properties(roctap::roctap PROPERTIES IMPORTED_LOCATION \"/" +
          kLib + "/libroctap.so.1\" INTERFACE_INCLUDE_DIRECTORIES \"/usr/include\")\n" +
          (s.config_names_missing_file ? "add_library(roctap::static STATIC IMPORTED)\n"
                                         "set_target_properties(roctap::static PROPERTIES IMPORTED_LOCATION "
                                         "\"/" +
                                             kLib + "/libroctap.a\")\n"
                                       : std::string()));
  WriteAll(dir + "/roctap-macros.cmake", "macro(roctap_add name)\nendmacro()\n");
  WriteAll(dir + "/roctap-toolsConfig.cmake",
           "add_executable(roctap::roctap IMPORTED)\n"
           "set_target_properties(roctap::roctap PROPERTIES IMPORTED_LOCATION \"/usr/bin/roctap\")\n");
  ASSERT_EQ(RunCommand("chmod +x " + dir + "/debian/rules"), 0);
}

std::string RocmAuditBinDir() {
  const std::string bin = ROCM_AUDIT_BINARY;
  return bin.substr(0, bin.rfind('/'));
}

std::string BuildPackageCommand(const std::string& dir, const std::string& flags, const std::string& env) {
  const std::string source = ROCM_AUDIT_SOURCE_DIR;
  return "cd " + dir + " && PATH=" + source + "/hooks/debian:" + RocmAuditBinDir() +
         ":$PATH PERL5LIB=" + source + "/hooks/debian DEB_BUILD_OPTIONS=nocheck " + env +
         " dpkg-buildpackage -us -uc -d " + flags + " 2>&1";
}

void MakeRoot(const std::string& root) {
  ASSERT_EQ(
      RunCommand("mkdir -p " + root + "/usr/lib/x86_64-linux-gnu " + root + "/usr/lib64 " + root +
                 "/var/lib/dpkg/info " + root + "/var/lib/dpkg/updates && touch " + root +
                 "/var/lib/dpkg/status && cp -L /usr/lib/x86_64-linux-gnu/libc.so.6 "
                 "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 " +
                 root + "/usr/lib/x86_64-linux-gnu/ && ln -s usr/lib " + root + "/lib && ln -s usr/lib64 " +
                 root + "/lib64 && ln -s ../lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 " + root +
                 "/usr/lib64/"),
      0);
}

}  // namespace rocm_audit::testing
