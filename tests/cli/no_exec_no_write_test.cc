// Nothing is run, nothing is written. A tree whose every executable part would leave a
// marker file if anything ran it (an ELF executable and a library with a constructor, a
// shell script, a CMake config with execute_process, a linker script naming a library, an
// executable whose PT_INTERP is a program of the tree) is audited with every check and in
// every format: no marker appears, and every file and directory of the tree is unchanged
// (content, mode, size, mtime and ctime).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "tests/support/test_support.h"

namespace rocm_audit::testing {
namespace {

// A marker the payloads write: its path is absolute, so it appears whoever runs them, wherever.
std::string Payload(const std::string& marker) {
  return "#include <stdio.h>\nstatic void mark(void) { FILE* f = fopen(\"" + marker +
         "\", \"w\"); if (f) fclose(f); }\n";
}

void BuildBaitTree(const TempDir& t, const std::string& marker) {
  const std::string tree = t / "tree";
  WriteAll(t / "ctor.c", Payload(marker) +
                             "__attribute__((constructor)) static void init(void) { mark(); }\n"
                             "int bait(void) { return 1; }\n");
  WriteAll(t / "main.c", Payload(marker) + "int bait(void);\nint main(void) { mark(); return bait(); }\n");
  // An interpreter needs no libc: open(marker, O_CREAT|O_WRONLY, 0644), then exit(0).
  WriteAll(
      t / "interp.c",
      "static const char path[] = \"" + marker +
          "\";\nvoid _start(void) {\n  long r;\n"
          "  __asm__ volatile(\"syscall\" : \"=a\"(r) : \"a\"(2), \"D\"(path), \"S\"(0101), \"d\"(0644) : "
          "\"rcx\", \"r11\", \"memory\");\n"
          "  __asm__ volatile(\"syscall\" : : \"a\"(60), \"D\"(0) : \"rcx\", \"r11\");\n}\n");
  ASSERT_EQ(
      RunCommand("mkdir -p " + tree + "/lib " + tree + "/bin " + tree + "/libexec && cd " + t.path() +
                 " && gcc -shared -fPIC -o tree/lib/libbait.so.1 -Wl,-soname,libbait.so.1 ctor.c"
                 " && gcc -o tree/libexec/fake-ld.so -static -nostdlib -fno-stack-protector interp.c"
                 " && gcc -o tree/bin/bait main.c -Ltree/lib -l:libbait.so.1 -Wl,-rpath,'$ORIGIN/../lib'"
                 " -Wl,--dynamic-linker=" +
                 tree + "/libexec/fake-ld.so"),
      0);
  WriteAll(tree + "/bin/bait.sh", "#!/bin/sh\ntouch " + marker + "\n");
  WriteAll(tree + "/lib/libbait.so", "/* GNU ld script */\nGROUP ( libbait.so.1 )\n");
  WriteAll(tree + "/lib/cmake/Bait/BaitConfig.cmake",
           "execute_process(COMMAND touch " + marker + ")\nfile(WRITE " + marker +
               " x)\n"
               "add_library(Bait::bait SHARED IMPORTED)\n"
               "set_target_properties(Bait::bait PROPERTIES IMPORTED_LOCATION "
               "\"${CMAKE_CURRENT_LIST_DIR}/../../libbait.so.1\")\n");
  ASSERT_EQ(RunCommand("chmod +x " + tree + "/bin/bait.sh"), 0);
}

// Every entry below `root`: its type, mode, size, mtime, ctime and (for files) content.
std::map<std::string, std::string> Snapshot(const std::string& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    struct stat st;
    if (lstat(e.path().c_str(), &st) != 0) continue;
    std::ostringstream s;
    s << st.st_mode << " " << st.st_size << " " << st.st_mtim.tv_sec << "." << st.st_mtim.tv_nsec << " "
      << st.st_ctim.tv_sec << "." << st.st_ctim.tv_nsec;
    if (S_ISREG(st.st_mode)) s << " " << std::hash<std::string>{}(ReadAll(e.path().string()));
    out[e.path().string()] = s.str();
  }
  return out;
}

TEST(NothingRunsNothingIsWritten, NoPayloadRunsAndTheTreeIsUnchanged) {
  TempDir t;
  const std::string marker = t / "MARKER";
  BuildBaitTree(t, marker);
  // The bait works: run on purpose, the script and the executable (through its interpreter)
  // each leave the marker, which is then removed.
  for (const std::string& run : {t / "tree/bin/bait.sh", t / "tree/bin/bait"}) {
    RunCommand(run);
    ASSERT_TRUE(std::filesystem::exists(marker)) << run;
    std::filesystem::remove(marker);
  }
  const auto before = Snapshot(t / "tree");
  ASSERT_GT(before.size(), 8u);
  const std::string bin =
      std::string(ROCM_AUDIT_BINARY) + " --no-progress --fail-on none -o " + t / "report ";
  for (const char* format : {"text", "json", "sarif", "junit", "gitlab", "html"})
    for (const std::string& args : {"--root " + t / "tree" + " " + t / "tree", t / "tree",
                                    "--relocatable --require-arch gfx90a --verify-hash " + t / "tree"})
      EXPECT_EQ(RunCommand(bin + "--format " + format + " " + args), 0) << format << " " << args;
  EXPECT_EQ(RunCommand(bin + "--tree " + t / "tree/bin/bait " + t / "tree"), 0);
  EXPECT_FALSE(std::filesystem::exists(marker)) << "something the audit read was run";
  EXPECT_EQ(Snapshot(t / "tree"), before) << "the audited tree changed";
}

}  // namespace
}  // namespace rocm_audit::testing
