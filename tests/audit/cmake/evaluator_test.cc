#include "audit/cmake/evaluator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "audit/cmake/cmake_modules.h"
#include "audit/cmake/condition.h"
#include "audit/cmake/dependency_locator.h"
#include "audit/cmake/genex.h"
#include "audit/cmake/math_expression.h"
#include "audit/cmake/package_config.h"
#include "tests/support/scratch_dir_test.h"

namespace rocm_audit {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::Field;
using ::testing::HasSubstr;

class Evaluator : public testing::ScratchDirTest {
 protected:
  CMakeEvaluation Run(const std::string& file) {
    CMakeEvaluator e(files_);
    e.Run(file);
    return e.Take();
  }
  static std::string Var(const CMakeEvaluation& r, const std::string& name) {
    const CMakeValue* v = r.variables.Find(name);
    if (!v) return "<undefined>";
    return v->known ? v->text : "<unknown>";
  }
  static const CMakeReference* Ref(const CMakeEvaluation& r, const std::string& tail) {
    for (const CMakeReference& ref : r.references)
      if (ref.path.ends_with(tail)) return &ref;
    return nullptr;
  }

  RootedFs fs_;
  InstalledFiles files_{fs_, {}};
};

// What cmake 3.25.1 -P prints for the same lines: A=[x;] B=[] C=[x;;y] D=[a\;b;c].
TEST_F(Evaluator, ListAppendAddsItsItemsAsCMakeDoesEmptyOnesToo) {
  auto r = Run(Write("append.cmake",
                     "set(A x)\nlist(APPEND A \"\")\n"
                     "set(B \"\")\nlist(APPEND B \"\")\n"
                     "set(C x)\nlist(APPEND C \"\" y)\n"
                     "set(D \"a\\\\;b\")\nlist(APPEND D c)\n"
                     "set(E x)\nlist(APPEND E)\n"));
  EXPECT_EQ(Var(r, "A"), "x;");
  EXPECT_EQ(Var(r, "B"), "");
  EXPECT_EQ(Var(r, "C"), "x;;y");
  EXPECT_EQ(Var(r, "D"), "a\\;b;c");
  EXPECT_EQ(Var(r, "E"), "x");
}

// string(RANDOM) gives each call its own string of the length and alphabet asked for (5
// letters or digits by default, as cmake -P gives), so that JUCE's config, which names a
// target after each, does not define one target twice. Its argument errors are CMake's.
TEST_F(Evaluator, StringRandomGivesEachCallItsOwnString) {
  CMakeEvaluation r = Run(Write("random.cmake",
                                "string(RANDOM a)\nstring(RANDOM b)\nstring(RANDOM LENGTH 16 c)\n"
                                "string(RANDOM LENGTH 8 ALPHABET xy RANDOM_SEED 3 d)\n"
                                "string(RANDOM ALPHABET \"\" e)\nforeach(i RANGE 20)\n"
                                "  string(RANDOM LENGTH 16 r)\n  add_library(${r}_dict INTERFACE IMPORTED)\n"
                                "endforeach()\n"));
  const std::string a = Var(r, "a"), b = Var(r, "b");
  EXPECT_EQ(a.size(), 5u);
  EXPECT_NE(a, b);
  EXPECT_TRUE(
      std::all_of(a.begin(), a.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); }));
  EXPECT_EQ(Var(r, "c").size(), 16u);
  const std::string d = Var(r, "d");
  EXPECT_EQ(d.size(), 8u);
  EXPECT_EQ(d.find_first_not_of("xy"), std::string::npos);
  EXPECT_EQ(Var(r, "e").size(), 5u);  // an empty alphabet is the default one
  EXPECT_EQ(r.targets.size(), 21u);
  EXPECT_TRUE(r.failures.empty());
  for (const char* bad :
       {"string(RANDOM LENGTH 4 ALPHABET x)\n", "string(RANDOM LENGTH 0 x)\n", "string(RANDOM LENGTH x)\n"}) {
    CMakeEvaluation e = Run(Write("bad.cmake", bad));
    ASSERT_EQ(e.failures.size(), 1u) << bad;
    EXPECT_NE(e.failures[0].message.find("string sub-command RANDOM"), std::string::npos) << bad;
  }
}

// What cmake 3.25.1 -P prints for the same lines: a=[heatshrink] [0.4] n=2, b=[a1;b2] [b] [2]
// n=2, c=[x] n=1, e=[z] [] n=0. string(REGEX) sets CMAKE_MATCH_<n> as if(MATCHES) does
// (LibBGCode's config reads CMAKE_MATCH_1 after string(REGEX MATCH); left unset, its
// find_dependency() asked for a package named COMPONENTS).
TEST_F(Evaluator, StringRegexLeavesTheMatchVariables) {
  auto r = Run(Write("matches.cmake",
                     "string(REGEX MATCH \"^(.*)_([0-9]+\\\\.[0-9]+)$\" p heatshrink_0.4)\n"
                     "set(a \"${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_COUNT}\")\n"
                     "string(REGEX MATCHALL \"([a-z])([0-9])\" all \"a1 b2 c\")\n"
                     "set(b \"${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_COUNT}\")\n"
                     "string(REGEX REPLACE \"(x)\" \"y\" r axb)\n"
                     "set(c \"${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_COUNT}\")\n"
                     "string(REGEX MATCH \"(q)?z\" z z)\n"
                     "set(e \"${CMAKE_MATCH_0} [${CMAKE_MATCH_1}] ${CMAKE_MATCH_COUNT}\")\n"));
  EXPECT_EQ(Var(r, "a"), "heatshrink 0.4 2");
  EXPECT_EQ(Var(r, "b"), "b 2 2");
  EXPECT_EQ(Var(r, "c"), "x  1");
  EXPECT_EQ(Var(r, "e"), "z [] 0");
}

// What cmake 3.25.1 -P prints for the same lines: dirs=[/usr/include] shadowed=[cached]
// kept=[first] forced=[second] unset_cache=[]. A cache entry is read wherever no variable of
// the name is bound: a function that exports with CACHE INTERNAL (DART's config) leaves it to
// its callers; set(CACHE) unbinds the scope's variable (CMP0126 OLD) and sets an entry only
// when absent, INTERNAL or FORCE.
TEST_F(Evaluator, CacheEntriesAreReadWhereNoVariableBindsTheName) {
  auto r = Run(Write("cache.cmake",
                     "function(export v)\n  set(\"${v}\" ${${v}} CACHE INTERNAL \"\")\nendfunction()\n"
                     "function(init)\n  set(dirs /usr/include)\n  export(dirs)\nendfunction()\ninit()\n"
                     "set(shadowed normal)\nset(shadowed cached CACHE STRING \"\")\n"
                     "set(kept first CACHE STRING \"\")\nset(kept second CACHE STRING \"\")\n"
                     "set(forced first CACHE STRING \"\")\nset(forced second CACHE STRING \"\" FORCE)\n"
                     "set(unset_cache x CACHE STRING \"\")\nunset(unset_cache CACHE)\n"));
  EXPECT_EQ(Var(r, "dirs"), "/usr/include");
  EXPECT_EQ(Var(r, "shadowed"), "cached");
  EXPECT_EQ(Var(r, "kept"), "first");
  EXPECT_EQ(Var(r, "forced"), "second");
  EXPECT_EQ(Var(r, "unset_cache"), "<undefined>");
}

// What cmake 3.25.1 -P prints: after_module=[<dir>] after_file=[<dir>]. When a list file ends,
// CMAKE_CURRENT_LIST_DIR is the directory of the file being read again, whatever was set in
// between (cmMakefile::RunListFile): Rhonabwy's config unsets it, includes
// CMakeFindDependencyMacro, and puts the directory in CMAKE_MODULE_PATH.
TEST_F(Evaluator, TheListDirIsTheFilesAgainAfterEachInclude) {
  Write("b.cmake", "set(CMAKE_CURRENT_LIST_DIR /elsewhere)\n");
  const std::string a =
      Write("a.cmake",
            "set(CMAKE_CURRENT_LIST_DIR)\ninclude(CMakeFindDependencyMacro)\n"
            "set(after_module ${CMAKE_CURRENT_LIST_DIR})\n"
            "include(${CMAKE_CURRENT_LIST_DIR}/b.cmake)\nset(after_file ${CMAKE_CURRENT_LIST_DIR})\n");
  auto r = Run(a);
  EXPECT_EQ(Var(r, "after_module"), dir_.string());
  EXPECT_EQ(Var(r, "after_file"), dir_.string());
}

TEST_F(Evaluator, ValuesListsStringsAndMath) {
  auto r = Run(Write("a.cmake",
                     "set(L a b c)\n"
                     "list(APPEND L d)\nlist(REMOVE_ITEM L b)\nlist(LENGTH L n)\n"
                     "string(REPLACE \";\" \",\" S \"${L}\")\n"
                     "string(REGEX REPLACE \"([0-9]+)\\\\.([0-9]+)\" \"\\\\2.\\\\1\" V 6.4)\n"
                     "string(TOUPPER hip U)\n"
                     "math(EXPR M \"(3 + 4) * 2 - 0x10\")\n"
                     "get_filename_component(D \"${CMAKE_CURRENT_LIST_DIR}/x/../y/z.cmake\" DIRECTORY)\n"
                     "get_filename_component(N /a/b/libfoo.so.1 NAME_WE)\n"
                     "cmake_path(GET D PARENT_PATH P)\n"));
  EXPECT_EQ(Var(r, "L"), "a;c;d");
  EXPECT_EQ(Var(r, "n"), "3");
  EXPECT_EQ(Var(r, "S"), "a,c,d");
  EXPECT_EQ(Var(r, "V"), "4.6");
  EXPECT_EQ(Var(r, "U"), "HIP");
  EXPECT_EQ(Var(r, "M"), "-2");
  EXPECT_EQ(Var(r, "D"), dir_.string() + "/x/../y");
  EXPECT_EQ(Var(r, "N"), "libfoo");
  EXPECT_EQ(Var(r, "P"), dir_.string() + "/x/..");
}

// Every family of the command table: a subcommand table's entries and its fallback, a
// handler shared by many names, a name that is no command.
TEST_F(Evaluator, CommandTableAndSubcommandTables) {
  auto r = Run(Write("a.cmake",
                     "set(L a b)\n"
                     "list(TRANSFORM L APPEND _x)\n"
                     "list(TRANSFORM L TOUPPER OUTPUT_VARIABLE U)\n"
                     "set(F x)\nlist(FROB F)\n"
                     "cmake_print_variables(L)\n"
                     "string(FROB x y)\n"
                     "file(WRITE /tmp/never-written x)\n"
                     "check_include_file(foo.h HAVE_FOO)\n"
                     "cmake_path(SET P NORMALIZE \"/a/./b/../c\")\n"));
  EXPECT_EQ(Var(r, "L"), "a_x;b_x");
  EXPECT_EQ(Var(r, "U"), "A_X;B_X");
  EXPECT_EQ(Var(r, "F"), "<unknown>");
  EXPECT_EQ(Var(r, "HAVE_FOO"), "<unknown>");
  EXPECT_EQ(Var(r, "P"), "/a/c");
  auto skipped = [&](const std::string& command, const std::string& reason) {
    return std::any_of(r.skipped.begin(), r.skipped.end(),
                       [&](const CMakeSkipped& s) { return s.command == command && s.reason == reason; });
  };
  EXPECT_TRUE(skipped("list", "list(FROB) is not evaluated"));
  EXPECT_TRUE(skipped("cmake_print_variables", "a command rocm-audit does not evaluate"));
  EXPECT_TRUE(skipped("string", "string(FROB) is not evaluated"));
  EXPECT_TRUE(skipped("file", "file(WRITE) is never run: it would change files"));
  EXPECT_EQ(r.skipped.size(), 4u);
}

// A command neither CMake (built in, or a function of one of its modules) nor any file
// evaluated defines is CMake's fatal error (cmMakefile::ExecuteCommand), as `cmake -P`
// reports it; undecided while a dependency asked for could define it, or a file that could
// was not evaluated.
TEST_F(Evaluator, ACommandNoFileDefinesIsCMakesError) {
  auto r = Run(Write("a.cmake", "list_transform(L)\nset(after 1)\n"));
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].message, "Unknown CMake command \"list_transform\".");
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(Var(r, "after"), "<undefined>");
  for (const std::string& before : {std::string("include(CMakeFindDependencyMacro)\nfind_dependency(Dep)\n"),
                                    std::string("include($ENV{X}/x.cmake)\n")}) {
    auto d = Run(Write("d.cmake", before + "list_transform(L)\nset(after 1)\n"));
    EXPECT_TRUE(d.failures.empty()) << before;
    EXPECT_EQ(Var(d, "after"), "1") << before;
  }
}

TEST_F(Evaluator, UndecidedBranchesRunBothWaysAndMerge) {
  auto r = Run(Write("a.cmake", "execute_process(COMMAND touch " + (dir_ / "ran").string() +
                                    " OUTPUT_VARIABLE out)\n"
                                    "set(SAME 1)\n"
                                    "if(out STREQUAL \"amd\")\n"
                                    "  set(X a)\n  include(${CMAKE_CURRENT_LIST_DIR}/amd.cmake)\n"
                                    "else()\n"
                                    "  set(X b)\n"
                                    "endif()\n"
                                    "include(${CMAKE_CURRENT_LIST_DIR}/always.cmake)\n"));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "ran")) << "execute_process must never run";
  EXPECT_EQ(Var(r, "X"), "<unknown>");
  EXPECT_EQ(Var(r, "SAME"), "1");
  const CMakeReference* amd = Ref(r, "/amd.cmake");
  ASSERT_NE(amd, nullptr);
  EXPECT_FALSE(amd->exists);
  EXPECT_THAT(amd->undecided, HasSubstr("execute_process"));
  const CMakeReference* always = Ref(r, "/always.cmake");
  ASSERT_NE(always, nullptr);
  EXPECT_TRUE(always->undecided.empty());
  ASSERT_FALSE(r.skipped.empty());
  EXPECT_EQ(r.skipped[0].command, "execute_process");
}

TEST_F(Evaluator, MacrosFunctionsAndTheirChecks) {
  auto r =
      Run(Write("a.cmake",
                "macro(set_and_check _var _file)\n"
                "  set(${_var} \"${_file}\")\n"
                "  if(NOT EXISTS \"${_file}\")\n"
                "    message(FATAL_ERROR \"File ${_file} does not exist\")\n"
                "  endif()\n"
                "endmacro()\n"
                "function(f out)\n  set(${out} \"${ARGN}\" PARENT_SCOPE)\n  set(local 1)\nendfunction()\n"
                "f(R x y)\n"
                "set_and_check(INC \"${CMAKE_CURRENT_LIST_DIR}\")\n"
                "set_and_check(GONE \"${CMAKE_CURRENT_LIST_DIR}/gone\")\n"
                "set(AFTER 1)\n"));
  EXPECT_EQ(Var(r, "R"), "x;y");
  EXPECT_EQ(Var(r, "local"), "<undefined>");
  EXPECT_EQ(Var(r, "INC"), dir_.string());
  const CMakeReference* gone = Ref(r, "/gone");
  ASSERT_NE(gone, nullptr);
  EXPECT_EQ(gone->via, "set_and_check");
  EXPECT_EQ(gone->site.line, 13);
  EXPECT_TRUE(gone->stops_configure);
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(Var(r, "AFTER"), "<undefined>") << "FATAL_ERROR ends the evaluation, as it ends CMake's";
}

TEST_F(Evaluator, CyclesLoopsAndHostileInputsAreBounded) {
  Write("b.cmake", "include(${CMAKE_CURRENT_LIST_DIR}/a.cmake)\n");
  std::string a = Write("a.cmake",
                        "include(${CMAKE_CURRENT_LIST_DIR}/b.cmake)\n"
                        "function(rec)\n  rec()\nendfunction()\nrec()\n"
                        "while(TRUE)\nendwhile()\n"
                        "foreach(i RANGE 100000000)\nendforeach()\n");
  auto r = Run(a);  // terminates
  EXPECT_THAT(r.skipped, Contains(Field(&CMakeSkipped::reason, HasSubstr("deeper"))));
  EXPECT_THAT(r.skipped, Contains(Field(&CMakeSkipped::command, "while")));
  EXPECT_THAT(r.skipped,
              Contains(AllOf(Field(&CMakeSkipped::command, "foreach"),
                             Field(&CMakeSkipped::reason, HasSubstr("more than 10000 iterations")))))
      << "a range past the bound is reported, not cut at it";
  auto bad = Run(Write("bad.cmake", "if(A)\nset(x 1)\n"));
  ASSERT_EQ(bad.failures.size(), 1u);
  EXPECT_THAT(bad.failures[0].message, HasSubstr("parse error"));
}

// An include() of a FIFO is never opened for reading (it would wait for a writer) and the
// failure says what the file is, as the walk says it.
TEST_F(Evaluator, IncludeOfAFifoSaysItIsAFifo) {
  const std::string fifo = (dir_ / "pipe.cmake").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  auto r = Run(Write("a.cmake", "include(${CMAKE_CURRENT_LIST_DIR}/pipe.cmake)\nset(after 1)\n"));
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_THAT(r.failures[0].message, HasSubstr("pipe.cmake): the file is not a regular file (a FIFO)"));
  EXPECT_EQ(Var(r, "after"), "1");  // evaluation goes on after it
  auto direct = Run(fifo);
  ASSERT_EQ(direct.failures.size(), 1u);
  EXPECT_THAT(direct.failures[0].message, HasSubstr("pipe.cmake: the file is not a regular file (a FIFO)"));
}

// What /proc holds is the reading process's: /proc/self/cwd is the directory rocm-audit runs
// in, cwd/ here, which holds a t.cmake, and its parent another. An include() of the first, by
// its /proc path or through a link into /proc, fails saying so, and its set() is not run; a
// file(STRINGS) of the second by ".." after a link into /proc (taken physically, as the kernel
// takes it) reads nothing.
TEST_F(Evaluator, IncludeOfAFileInProcIsNeverRead) {
  std::filesystem::create_directory(dir_ / "cwd");
  Write("cwd/t.cmake", "set(from_cwd 1)\n");
  Write("t.cmake", "set(from_cwd_parent 1)\n");
  std::filesystem::create_symlink("/proc/self/cwd/t.cmake", dir_ / "link.cmake");
  std::filesystem::create_symlink("/proc/self/cwd", dir_ / "cwd-link");
  const std::filesystem::path cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir_ / "cwd");
  auto r = Run(Write("a.cmake",
                     "include(/proc/self/cwd/t.cmake)\ninclude(${CMAKE_CURRENT_LIST_DIR}/link.cmake)\n"
                     "file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/cwd-link/../t.cmake parent)\n"));
  std::filesystem::current_path(cwd);
  ASSERT_EQ(r.failures.size(), 2u);
  for (const auto& f : r.failures)
    EXPECT_THAT(f.message, HasSubstr("is in /proc, which shows the process that reads it"));
  EXPECT_EQ(Var(r, "from_cwd"), "<undefined>");
  EXPECT_EQ(Var(r, "parent"), "<unknown>");
}

// string(REGEX MATCHALL/REPLACE) search again where the last match ended, with ^ matching
// there (cmake 3.25.1 gives "xxx" and "a;a;a"); an empty match stops CMake.
TEST_F(Evaluator, RegexSearchesContinueAsCMakesDo) {
  auto r = Run(Write("a.cmake",
                     "string(REGEX REPLACE \"^a\" \"x\" R aaa)\n"
                     "string(REGEX MATCHALL \"^a\" M aaa)\n"
                     "string(REGEX REPLACE \"(a)(b)\" \"[\\\\2\\\\1]\\\\n\" S abac)\n"
                     "string(REGEX REPLACE \"b*\" x E abc)\n"
                     "string(REGEX MATCH \"((((((((((a))))))))))\" G a)\n"));
  EXPECT_EQ(Var(r, "R"), "xxx");
  EXPECT_EQ(Var(r, "M"), "a;a;a");
  EXPECT_EQ(Var(r, "S"), "[ba]\nac");
  EXPECT_EQ(Var(r, "E"), "<unknown>");
  EXPECT_EQ(Var(r, "G"), "<unknown>");
  ASSERT_EQ(r.skipped.size(), 2u);
  EXPECT_THAT(r.skipped[0].reason, HasSubstr("matched an empty string"));
  EXPECT_THAT(r.skipped[1].reason, HasSubstr("Too many parentheses"));
}

// Work no count of commands bounds: each append rewrites the whole list, each condition is
// reduced in passes over its arguments. The evaluation stops or leaves the branch undecided.
TEST_F(Evaluator, WorkThatGrowsWithTheValuesIsBounded) {
  auto r = Run(Write("a.cmake",
                     "foreach(i RANGE 9999)\n  foreach(j RANGE 19)\n"
                     "    list(APPEND l \"${i}-${j}-abcdefghijklmnop\")\n  endforeach()\nendforeach()\n"));
  ASSERT_FALSE(r.skipped.empty());
  EXPECT_THAT(r.skipped.back().reason, HasSubstr("MiB of values read, expanded, set and copied"));

  std::string chain = "FALSE";
  for (size_t i = 0; i < kMaxConditionArgs / 2; ++i) chain += " OR FALSE";
  auto c = Run(Write("c.cmake", "if(" + chain + ")\n  set(x 1)\nelse()\n  set(x 0)\nendif()\n"));
  EXPECT_EQ(Var(c, "x"), "<unknown>");
  std::string nested =
      std::string(kMaxConditionNesting * 2, '(') + "TRUE" + std::string(kMaxConditionNesting * 2, ')');
  std::string spaced;
  for (char ch : nested) spaced += std::string(1, ch) + " ";
  auto n = Run(Write("n.cmake", "if(" + spaced + ")\n  set(x 1)\nelse()\n  set(x 0)\nendif()\n"));
  EXPECT_EQ(Var(n, "x"), "<unknown>");
  // Below both bounds the same conditions are decided.
  auto d = Run(Write("d.cmake", "if(((TRUE)) AND NOT (FALSE OR FALSE))\n  set(x 1)\nendif()\n"));
  EXPECT_EQ(Var(d, "x"), "1");

  // A loop that tests a condition of 999 arguments (a fuzzed config's shape): each test is
  // charged its tokens, so the budget stops the loop after about 4,000 of them, where the
  // values it expands alone would have let 100,000 run, at 1.6 ms each before the passes
  // were made linear.
  std::string groups;
  for (size_t i = 0; i < kMaxConditionArgs / 3; ++i) groups += " ( x )";
  auto g = Run(Write("g.cmake", "set(groups" + groups +
                                    ")\nset(n 0)\nforeach(i RANGE 9999)\n  foreach(j RANGE 19)\n"
                                    "    if(${groups})\n    endif()\n    math(EXPR n \"${n} + 1\")\n"
                                    "  endforeach()\nendforeach()\n"));
  ASSERT_FALSE(g.skipped.empty());
  EXPECT_THAT(g.skipped.back().reason, HasSubstr("MiB of values read, expanded, set and copied"));
  EXPECT_LT(std::stoul(Var(g, "n")), 10000u);
  EXPECT_GT(std::stoul(Var(g, "n")), 1000u);
}

// Copies of the state and bound arguments are work too (kEntryWork, kArgumentWork): a
// function's scope and a block() start as copies of the caller's, an undecided if() forks
// every scope and target, a call binds each argument as ARGV<n>. Each of these loops ran for
// minutes on a few MB of charged bytes; now the budget stops each, and an evaluation of
// the same shape on small values still runs to the end.
TEST_F(Evaluator, CopiesAndBoundArgumentsAreChargedToTheWorkBudget) {
  // 25 variables of 2 MiB (about 100 MiB of work to make), then 10,000 copies of them.
  const std::string big =
      "set(s x)\nforeach(i RANGE 20)\n  string(APPEND s \"${s}\")\nendforeach()\n"
      "foreach(i RANGE 24)\n  set(v${i} \"${s}\")\nendforeach()\n";
  const std::string each = "foreach(i RANGE 9999)\n";
  const std::pair<const char*, std::string> loops[] = {
      {"call", "function(f)\nendfunction()\n" + each + "  f()\nendforeach()\n"},
      {"block", each + "  block()\n  endblock()\nendforeach()\n"},
      {"fork", each + "  if(EXISTS \"$ENV{HOME}/x\")\n    set(a 1)\n  endif()\nendforeach()\n"},
  };
  for (const auto& [name, loop] : loops) {
    auto r = Run(Write(std::string(name) + ".cmake", big + loop + "set(after 1)\n"));
    ASSERT_FALSE(r.skipped.empty()) << name;
    EXPECT_THAT(r.skipped.back().reason, HasSubstr("MiB of values read, expanded, set and copied"))
        << name << ": " << r.skipped.back().reason;
    EXPECT_EQ(Var(r, "after"), "<undefined>") << name;
    auto small = Run(Write(std::string(name) + "-small.cmake", "set(v x)\n" + loop + "set(after 1)\n"));
    EXPECT_EQ(Var(small, "after"), "1") << name;
  }
  // A list of 524,288 items passed to a function and to a macro, 10,000 times each.
  const std::string list = "set(l x)\nforeach(i RANGE 18)\n  list(APPEND l ${l})\nendforeach()\n";
  for (const char* kind : {"function", "macro"}) {
    auto r = Run(Write(std::string(kind) + "-args.cmake", list + kind + "(f)\nend" + kind + "()\n" + each +
                                                              "  f(${l})\nendforeach()\nset(after 1)\n"));
    ASSERT_FALSE(r.skipped.empty()) << kind;
    EXPECT_THAT(r.skipped.back().reason, HasSubstr("and copied")) << kind;
    EXPECT_EQ(Var(r, "after"), "<undefined>") << kind;
  }
  // A macro that passes its arguments on twice: 2^n arguments at depth n.
  auto m = Run(Write("double.cmake", "macro(m)\n  m(${ARGN} ${ARGN} x)\nendmacro()\nm(a)\n"));
  ASSERT_FALSE(m.skipped.empty());
}

// Targets are found by name through an index: 190,000 add_library() calls, each looking the
// name up first, took minutes when each lookup scanned every target (0.4 s now). The first
// definition of a name keeps it, through forks and merges.
TEST_F(Evaluator, ManyTargetsAreFoundByName) {
  auto r = Run(Write("t.cmake",
                     "foreach(j RANGE 18)\n  foreach(i RANGE 9999)\n"
                     "    add_library(t${j}_${i} INTERFACE IMPORTED)\n  endforeach()\nendforeach()\n"));
  EXPECT_EQ(r.targets.size(), 190000u);
  EXPECT_TRUE(r.skipped.empty());
  auto f = Run(Write("f.cmake",
                     "add_library(a INTERFACE IMPORTED)\n"
                     "if(EXISTS \"$ENV{HOME}/x\")\n  add_library(b INTERFACE IMPORTED)\nelse()\n"
                     "  add_library(c INTERFACE IMPORTED)\nendif()\n"
                     "set_target_properties(a b c PROPERTIES FOO 1)\n"
                     "if(TARGET c)\n  set(has_c 1)\nendif()\n"));
  ASSERT_EQ(f.targets.size(), 3u);
  for (const CMakeTarget& t : f.targets) {
    auto foo = t.properties.find("FOO");
    ASSERT_NE(foo, t.properties.end()) << t.name;
    EXPECT_EQ(foo->second.text, "1") << t.name;
  }
  EXPECT_TRUE(f.failures.empty());
}

// Every site in one list file holds the same path, not a copy: a run keeps a site for each
// property set and each reference made (tens of thousands on /usr's configs).
TEST_F(Evaluator, SitesInOneFileShareItsPath) {
  const std::string targets =
      Write("share/cmake/P/PTargets.cmake",
            "add_library(P::p SHARED IMPORTED)\n"
            "set_target_properties(P::p PROPERTIES INTERFACE_INCLUDE_DIRECTORIES /x\n"
            "  IMPORTED_LOCATION /y/libp.so)\n"
            "function(more t)\n  set_property(TARGET ${t} PROPERTY FOO 1)\nendfunction()\n"
            "more(P::p)\n");
  auto r = Run(Write("share/cmake/P/PConfig.cmake", "include(${CMAKE_CURRENT_LIST_DIR}/PTargets.cmake)\n"));
  ASSERT_EQ(r.targets.size(), 1u);
  const CMakeTarget& t = r.targets[0];
  const std::string& path = t.defined_at.file;
  EXPECT_EQ(path, targets);
  for (const char* property : {"INTERFACE_INCLUDE_DIRECTORIES", "IMPORTED_LOCATION", "FOO"}) {
    ASSERT_TRUE(t.set_at.count(property)) << property;
    EXPECT_EQ(&t.set_at.at(property).file.str(), &path) << property;
  }
  const CMakeReference* lib = Ref(r, "/y/libp.so");
  ASSERT_NE(lib, nullptr);
  EXPECT_EQ(&lib->site.file.str(), &path);
}

// foreach(RANGE) as cmake 3.25.1 reads it (each case run there): a step of 0 counts towards
// stop, integers are read as std::stoi does, and a bad one or a step away from stop is a
// fatal error.
TEST_F(Evaluator, ForeachRangeAsCMakesDo) {
  auto r = Run(Write("a.cmake",
                     "foreach(i RANGE 3 1)\n  list(APPEND down ${i})\nendforeach()\n"
                     "foreach(i RANGE 0 10 3)\n  list(APPEND step ${i})\nendforeach()\n"
                     "foreach(i RANGE)\n  list(APPEND none ${i})\nendforeach()\n"
                     "foreach(i RANGE 1 2 3 4)\n  list(APPEND four ${i})\nendforeach()\n"
                     "foreach(i RANGE \" 3x\")\n  list(APPEND lax ${i})\nendforeach()\n"
                     "foreach(i RANGE -2 -4)\n  list(APPEND negative ${i})\nendforeach()\n"));
  EXPECT_EQ(Var(r, "down"), "3;2;1");
  EXPECT_EQ(Var(r, "step"), "0;3;6;9");
  EXPECT_EQ(Var(r, "none"), "0");
  EXPECT_EQ(Var(r, "four"), "0");
  EXPECT_EQ(Var(r, "lax"), "0;1;2;3");
  EXPECT_EQ(Var(r, "negative"), "-2;-3;-4");
  EXPECT_TRUE(r.failures.empty());
  const std::pair<const char*, const char*> errors[] = {
      {"abc", "foreach Invalid integer: 'abc'"},
      {"99999999999", "foreach Integer out of range: '99999999999'"},
      {"1 3 -1", "foreach called with incorrect range specification: start 1, stop 3, step -1"},
  };
  for (const auto& [range, error] : errors) {
    auto e =
        Run(Write("e.cmake", std::string("foreach(i RANGE ") + range + ")\nendforeach()\nset(after 1)\n"));
    ASSERT_EQ(e.failures.size(), 1u) << range;
    EXPECT_EQ(e.failures[0].message, error);
    EXPECT_TRUE(e.stopped) << range;
    EXPECT_EQ(Var(e, "after"), "<undefined>") << range;
  }
}

// foreach() takes each argument as one item, as cmake 3.25.1 -P counts them: an escaped ';'
// in a quoted value stays inside its item (Qt6's *ToolsDependencies.cmake), a quoted list
// is one item, and only IN LISTS splits a variable's value.
TEST_F(Evaluator, ForeachKeepsEscapedSemicolonsInAnItem) {
  auto r = Run(Write("a.cmake",
                     "set(deps \"Bar\\;1.0\" \"Baz\\;2.0\")\n"
                     "foreach(d ${deps})\n  list(GET d 1 ver)\n  list(APPEND vers ${ver})\n"
                     "  math(EXPR c \"${c}+1\")\nendforeach()\n"
                     "foreach(d IN ITEMS ${deps})\n  math(EXPR ci \"${ci}+1\")\nendforeach()\n"
                     "foreach(d \"a;b\")\n  math(EXPR cq \"${cq}+1\")\nendforeach()\n"
                     "foreach(d IN LISTS deps)\n  math(EXPR cl \"${cl}+1\")\nendforeach()\n"));
  EXPECT_EQ(Var(r, "vers"), "1.0;2.0");
  EXPECT_EQ(Var(r, "c"), "2");
  EXPECT_EQ(Var(r, "ci"), "2");
  EXPECT_EQ(Var(r, "cq"), "1");
  EXPECT_EQ(Var(r, "cl"), "2");
  EXPECT_TRUE(r.failures.empty());
}

// Empty list elements are elements, as cmake 3.25.1 -P counts them (policy CMP0007 NEW): Qt 6's
// third-party dependency lists ("Mtdev\;FALSE\;\;\;") are read by list(GET <item> 4), and
// foreach(IN LISTS) visits an empty element; an empty value is an empty list, and foreach over
// an expanded ${var} drops empty arguments.
TEST_F(Evaluator, ListsKeepTheirEmptyElements) {
  auto r = Run(Write("a.cmake",
                     "set(deps \"Libudev\\;FALSE\\;\\;\\;;Mtdev\\;FALSE\\;\\;7\\;;;X\")\n"
                     "foreach(d IN LISTS deps)\n  list(LENGTH d n)\n  list(APPEND lens ${n})\nendforeach()\n"
                     "foreach(d ${deps})\n  math(EXPR plain \"${plain}+1\")\nendforeach()\n"
                     "set(one \"Mtdev;FALSE;;7;\")\nlist(GET one 3 4 got)\nlist(LENGTH one len)\n"
                     "set(none \"\")\nlist(LENGTH none zero)\nlist(APPEND one z)\n"));
  EXPECT_EQ(Var(r, "lens"), "5;5;0;1");
  EXPECT_EQ(Var(r, "plain"), "3");
  EXPECT_EQ(Var(r, "got"), "7;");
  EXPECT_EQ(Var(r, "len"), "5");
  EXPECT_EQ(Var(r, "zero"), "0");
  EXPECT_EQ(Var(r, "one"), "Mtdev;FALSE;;7;;z");
  EXPECT_TRUE(r.failures.empty());
  EXPECT_TRUE(r.skipped.empty());
}

// file(STRINGS) reads the lines of an installed text file as cmake 3.25.1 -P does (Qt 5's
// configs read their .prl files so): CR dropped, empty lines kept, ';' escaped, REGEX and
// LIMIT_COUNT; a binary file or another option is unknown.
TEST_F(Evaluator, FileStringsReadsTheLinesOfAnInstalledTextFile) {
  const std::string text = Write("s.txt", "a;b=1\n\nX = 2\r\nfoo");
  const std::string binary = Write("b.bin", std::string("ab\0cd\n", 6));
  auto r = Run(Write("a.cmake", "file(STRINGS " + text + " all)\nfile(STRINGS " + text +
                                    " re REGEX \"=\")\nfile(STRINGS " + text + " lim LIMIT_COUNT 1)\n" +
                                    "file(STRINGS " + binary + " bin)\nfile(STRINGS " + text +
                                    " hex NO_HEX_CONVERSION)\n"));
  EXPECT_EQ(Var(r, "all"), "a\\;b=1;;X = 2;foo");
  EXPECT_EQ(Var(r, "re"), "a\\;b=1;X = 2");
  EXPECT_EQ(Var(r, "lim"), "a\\;b=1");
  EXPECT_EQ(Var(r, "bin"), "<unknown>");
  EXPECT_EQ(Var(r, "hex"), "<unknown>");
}

// After an undecided if() one branch of which stops the configure (FATAL_ERROR), the rest
// runs for every consumer that configures: what it includes is decided (CapnProto's Targets
// file after its libatomic check). After a branch that returns, the rest is undecided.
TEST_F(Evaluator, AfterABranchThatStopsTheConfigureTheRestIsDecided) {
  auto r =
      Run(Write("a.cmake",
                "if(DEFINED ENV{HAVE_IT})\n  set(x 1)\nelse()\n  message(FATAL_ERROR \"none\")\nendif()\n"
                "include(${CMAKE_CURRENT_LIST_DIR}/after-stop.cmake)\n"
                "if(DEFINED ENV{OTHER})\n  return()\nendif()\n"
                "include(${CMAKE_CURRENT_LIST_DIR}/after-return.cmake)\n"));
  const CMakeReference* stop = Ref(r, "after-stop.cmake");
  const CMakeReference* ret = Ref(r, "after-return.cmake");
  ASSERT_NE(stop, nullptr);
  ASSERT_NE(ret, nullptr);
  EXPECT_TRUE(stop->undecided.empty()) << stop->undecided;
  EXPECT_FALSE(ret->undecided.empty());
  EXPECT_FALSE(r.stopped);
}

// A variable set on one path of an undecided if() and left unset on the other may or may
// not be defined: if(DEFINED) of it is undecided (it was true, so a FATAL_ERROR or a
// <Name>_FOUND FALSE under it was decided). Set on both paths, it is defined whatever it holds.
TEST_F(Evaluator, DefinedOfAVariableSetOnOnlyOnePathIsUndecided) {
  auto r = Run(Write("a.cmake",
                     "if(DEFINED ENV{HAVE_IT})\n  set(one 1)\nendif()\n"
                     "if(DEFINED ENV{HAVE_IT})\n  set(both 1)\nelse()\n  set(both 2)\nendif()\n"
                     "if(DEFINED both)\n  set(both_defined yes)\nendif()\n"
                     "if(DEFINED one)\n  message(FATAL_ERROR \"one is set\")\nendif()\n"));
  EXPECT_EQ(Var(r, "both_defined"), "yes");
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_FALSE(r.failures[0].undecided.empty());
  EXPECT_FALSE(r.stopped);
}

// string(REPEAT) as CMake: the whole count (it stopped at 4,096), an error for a count that
// is not a non-negative integer, and a result past the value bound unknown, never built.
// find_package_handle_standard_args() sets <Name>_FOUND and <NAME>_FOUND (CMake 3.25's
// FindPackageHandleStandardArgs.cmake), from find_library() results that are the consumer's
// (its environment's FREETYPE_DIR): a target a Find module defines under if(Freetype_FOUND)
// is defined, never absent.
TEST_F(Evaluator, HandleStandardArgsSetsBothSpellingsOfFound) {
  auto r = Run(Write("FindFreetype.cmake",
                     "find_library(FREETYPE_LIBRARY NAMES freetype HINTS ENV FREETYPE_DIR)\n"
                     "find_package_handle_standard_args(Freetype REQUIRED_VARS FREETYPE_LIBRARY)\n"
                     "if(Freetype_FOUND)\n  add_library(Freetype::Freetype UNKNOWN IMPORTED)\nendif()\n"));
  EXPECT_EQ(Var(r, "Freetype_FOUND"), "<unknown>");
  EXPECT_EQ(Var(r, "FREETYPE_FOUND"), "<unknown>");
  ASSERT_EQ(r.targets.size(), 1u);
  EXPECT_EQ(r.targets[0].name, "Freetype::Freetype");
}

// FindPackageHandleStandardArgs.cmake fails when a required variable is unset or false
// (if(NOT ${var})), in its keyword form and its old one (a message, then the variables):
// decided so when one of them is (Qt's FindWrapSystemOpenXR.cmake requires a variable set
// only when find_package(OpenXR) found it). Found only when every one is decided true and so
// are the component and version checks; an unset one counts only when no command that might
// have set it went unevaluated. Each expectation was checked with cmake -P.
TEST_F(Evaluator, HandleStandardArgsIsDecidedByItsRequiredVariables) {
  auto found = [&](const std::string& body) {
    return Var(Run(Write("FindX.cmake", body)), "X_FOUND") + " " +
           Var(Run(Write("FindX.cmake", body)), "X_FOUND");
  };
  EXPECT_EQ(found("set(A 1)\nfind_package_handle_standard_args(X REQUIRED_VARS A B)\n"), "FALSE FALSE");
  EXPECT_EQ(found("set(A 1)\nset(B NOTFOUND)\nfind_package_handle_standard_args(X DEFAULT_MSG A B)\n"),
            "FALSE FALSE");
  EXPECT_EQ(found("set(A 1)\nset(B yes)\nfind_package_handle_standard_args(X \"no X\" A B)\n"), "TRUE TRUE");
  EXPECT_EQ(found("find_library(L x HINTS ENV X_DIR)\nset(A 1)\nfind_package_handle_standard_args(X "
                  "REQUIRED_VARS A L)\n"),
            "<unknown> <unknown>");
  EXPECT_EQ(found("find_library(L x)\nfind_package_handle_standard_args(X REQUIRED_VARS L A)\n"),
            "FALSE FALSE");
  // A version asked for: checked only against a VERSION_VAR that is set; a minimum compared.
  const std::string asked = "set(X_FIND_VERSION 2)\nset(A 1)\n";
  EXPECT_EQ(found(asked + "find_package_handle_standard_args(X REQUIRED_VARS A)\n"), "TRUE TRUE");
  EXPECT_EQ(found(asked + "find_package_handle_standard_args(X REQUIRED_VARS A VERSION_VAR V)\n"),
            "TRUE TRUE");
  EXPECT_EQ(found(asked + "set(V 1.5)\nfind_package_handle_standard_args(X REQUIRED_VARS A VERSION_VAR V)\n"),
            "FALSE FALSE");
  EXPECT_EQ(
      found(asked + "set(V \"\")\nfind_package_handle_standard_args(X REQUIRED_VARS A VERSION_VAR V)\n"),
      "FALSE FALSE");
  EXPECT_EQ(found(asked + "set(V 2.1)\nfind_package_handle_standard_args(X REQUIRED_VARS A VERSION_VAR V)\n"),
            "TRUE TRUE");
  EXPECT_EQ(found(asked + "set(X_FIND_VERSION_EXACT 1)\nset(V 2.1)\n"
                          "find_package_handle_standard_args(X REQUIRED_VARS A VERSION_VAR V)\n"),
            "<unknown> <unknown>");
  EXPECT_EQ(found(asked +
                  "find_library(V x)\nfind_package_handle_standard_args(X REQUIRED_VARS A VERSION_VAR V)\n"),
            "FALSE FALSE");  // V-NOTFOUND is no version of 2 or later
  // HANDLE_COMPONENTS: a required component not found fails it, an optional one does not.
  const std::string components =
      "set(A 1)\nset(X_FIND_COMPONENTS \"c;d\")\nset(X_FIND_REQUIRED_c 1)\nset(X_c_FOUND 1)\n";
  EXPECT_EQ(found("set(A 1)\nfind_package_handle_standard_args(X REQUIRED_VARS A HANDLE_COMPONENTS)\n"),
            "TRUE TRUE");
  EXPECT_EQ(found(components + "set(X_FIND_REQUIRED_d 0)\n"
                               "find_package_handle_standard_args(X REQUIRED_VARS A HANDLE_COMPONENTS)\n"),
            "TRUE TRUE");
  EXPECT_EQ(found(components + "set(X_FIND_REQUIRED_d 1)\n"
                               "find_package_handle_standard_args(X REQUIRED_VARS A HANDLE_COMPONENTS)\n"),
            "FALSE FALSE");
  EXPECT_EQ(found(components + "set(X_FIND_REQUIRED_d 1)\nfind_library(X_d_FOUND x HINTS ENV X_DIR)\n"
                               "find_package_handle_standard_args(X REQUIRED_VARS A HANDLE_COMPONENTS)\n"),
            "<unknown> <unknown>");
  EXPECT_EQ(found("load_cache(${CMAKE_CURRENT_LIST_DIR} READ_WITH_PREFIX p "
                  "B)\nfind_package_handle_standard_args(X REQUIRED_VARS B)\n"),
            "<unknown> <unknown>");
}

// CMake's own Find modules are evaluated for a decided answer only (DependencyLocator): with
// EvaluatorLimits::decided_only the first undecided if() or foreach() stops the evaluation,
// recorded as skipped, and nothing after it runs; without it both branches run and merge.
// The include of a helper module by path (FindCups's ${CMAKE_CURRENT_LIST_DIR}/...) is
// include(<Module>): the evaluator's own find_package_handle_standard_args() decides.
TEST_F(Evaluator, ADecidedOnlyEvaluationStopsAtTheFirstUndecidedCondition) {
  const std::string body = "include(" + std::string(kCMakeRoot) +
                           "/Modules/FindPackageHandleStandardArgs.cmake)\n"
                           "set(before 1)\nfind_library(L no_such_library_anywhere)\n"
                           "find_package_handle_standard_args(X REQUIRED_VARS L)\n"
                           "if(CMAKE_C_COMPILER_LOADED)\n  set(A 1)\nendif()\nforeach(x "
                           "${UNKNOWN_LIST})\nendforeach()\nset(after 1)\n";
  auto run = [&](bool decided_only) {
    EvaluatorLimits limits;
    limits.decided_only = decided_only;
    CMakeEvaluator e(files_, limits);
    e.DefineUnknown("CMAKE_C_COMPILER_LOADED", "the consumer's C compiler");
    e.Run(Write("FindX.cmake", body));
    return e.Take();
  };
  const CMakeEvaluation strict = run(true);
  EXPECT_EQ(Var(strict, "X_FOUND"), "FALSE");
  EXPECT_TRUE(strict.included.empty());  // FindPackageHandleStandardArgs.cmake is not run
  EXPECT_EQ(Var(strict, "before"), "1");
  EXPECT_EQ(Var(strict, "after"), "<undefined>");
  ASSERT_EQ(strict.skipped.size(), 1u);
  EXPECT_EQ(strict.skipped[0].command, "if");
  const CMakeEvaluation both = run(false);
  EXPECT_EQ(Var(both, "X_FOUND"), "FALSE");
  EXPECT_EQ(Var(both, "A"), "<unknown>");
  EXPECT_EQ(Var(both, "after"), "1");
  EXPECT_TRUE(both.undecided);
  EXPECT_TRUE(both.skipped.empty());
}

// get_target_property() of a computed location (cmTargetPropertyComputer::GetLocation):
// LOCATION, LOCATION_<CONFIG> and any <CONFIG>_LOCATION but IMPORTED_LOCATION are the file
// CMake maps the configuration to (Vc's config reads INTERFACE_LOCATION of Vc::Vc, whose only
// location is IMPORTED_LOCATION_NONE, and checks that it exists); none is <target>-NOTFOUND.
TEST_F(Evaluator, ComputedLocationPropertiesAreTheImportedLocation) {
  auto r = Run(
      Write("FindLoc.cmake",
            "add_library(V::v STATIC IMPORTED)\n"
            "set_property(TARGET V::v APPEND PROPERTY IMPORTED_CONFIGURATIONS NONE)\n"
            "set_target_properties(V::v PROPERTIES IMPORTED_LOCATION_NONE /usr/lib/libV.a)\n"
            "get_target_property(a V::v INTERFACE_LOCATION)\n"
            "get_target_property(b V::v LOCATION)\n"
            "get_target_property(c V::v LOCATION_Release)\n"
            "get_target_property(d V::v IMPORTED_LOCATION)\n"
            "add_library(W::w SHARED IMPORTED)\n"
            "set_target_properties(W::w PROPERTIES IMPORTED_LOCATION /w.so IMPORTED_LOCATION_DEBUG /wd.so)\n"
            "get_target_property(e W::w DEBUG_LOCATION)\nget_target_property(f W::w LOCATION)\n"
            "add_library(N::n UNKNOWN IMPORTED)\nget_target_property(g N::n LOCATION)\n"
            "add_library(I::i INTERFACE IMPORTED)\nget_target_property(h I::i LOCATION)\n"));
  EXPECT_EQ(Var(r, "a"), "/usr/lib/libV.a");
  EXPECT_EQ(Var(r, "b"), "/usr/lib/libV.a");
  EXPECT_EQ(Var(r, "c"), "/usr/lib/libV.a");
  EXPECT_EQ(Var(r, "d"), "d-NOTFOUND");
  EXPECT_EQ(Var(r, "e"), "/wd.so");
  EXPECT_EQ(Var(r, "f"), "/w.so");
  EXPECT_EQ(Var(r, "g"), "N::n-NOTFOUND");
  EXPECT_EQ(Var(r, "h"), "h-NOTFOUND");
}

// cmake_parse_arguments(<prefix> <options> <one> <multi> <args>...) flattens each of <args>
// as a list, empty items dropped (cmExpandList): libappimage's import_pkgconfig_target()
// passes "${ARGN}" quoted, one argument holding every item.
TEST_F(Evaluator, ParseArgumentsFlattensAQuotedListOfArguments) {
  auto r = Run(Write("FindArgs.cmake",
                     "function(f)\n"
                     "  cmake_parse_arguments(P \"STATIC\" \"NAME;TARGET\" \"\" \"${ARGN}\")\n"
                     "  set(name ${P_NAME} PARENT_SCOPE)\n  set(target ${P_TARGET} PARENT_SCOPE)\n"
                     "  set(static ${P_STATIC} PARENT_SCOPE)\nendfunction()\n"
                     "f(NAME libglib TARGET glib-2.0>=2.40 STATIC)\n"));
  EXPECT_EQ(Var(r, "name"), "libglib");
  EXPECT_EQ(Var(r, "target"), "glib-2.0>=2.40");
  EXPECT_EQ(Var(r, "static"), "TRUE");
}

// What CMake fails at configure and a plain consumer meets: find_dependency() before
// CMakeFindDependencyMacro is included (by the config, or a dependency loaded before it) is an
// unknown command (QMobipocket6), recorded, and the evaluation goes on as for a caller that
// included it; a module's command is known from an include() of any module that includes
// that module (CMakePackageConfigHelpers), and a package's own function of that name is its
// own; include(<Module>) of a module found nowhere opens a file of
// that name in the consumer's source directory, which has none (KPim6Akonadi's
// include(ECMMarkAsTest)); include(... OPTIONAL) and a file name with ".cmake" stay the
// consumer's. find_file() limited to its own HINTS and PATHS (NO_DEFAULT_PATH) is answered.
TEST_F(Evaluator, WhatAPlainConsumerLacksFailsItsConfigure) {
  auto unknown = Run(Write("a.cmake", "find_dependency(Dep)\nset(after 1)\n"));
  ASSERT_EQ(unknown.failures.size(), 1u);
  EXPECT_EQ(unknown.failures[0].message,
            "Unknown CMake command \"find_dependency\" (CMakeFindDependencyMacro is not included).");
  EXPECT_EQ(unknown.failures[0].module_command, "find_dependency");
  EXPECT_EQ(Var(unknown, "after"), "1");
  auto through =
      Run(Write("helpers.cmake",
                "include(CMakePackageConfigHelpers)\n"
                "write_basic_config_version_file(v.cmake VERSION 1 COMPATIBILITY AnyNewerVersion)\n"
                "check_include_file(x.h HAVE_X)\n"));
  ASSERT_EQ(through.failures.size(), 1u);
  EXPECT_EQ(through.failures[0].module_command, "check_include_file");
  auto own = Run(
      Write("own.cmake", "function(check_include_file)\nendfunction()\ncheck_include_file(x.h HAVE_X)\n"));
  EXPECT_TRUE(own.failures.empty());
  // Evaluated apart (no resolver), a dependency loaded first may have included any module.
  auto after_dependency =
      Run(Write("dep.cmake", "find_package(Dep QUIET)\ncheck_include_file(x.h HAVE_X)\n"));
  EXPECT_TRUE(after_dependency.failures.empty());
  auto by_path =
      Run(Write("b.cmake", "include(" + std::string(kCMakeRoot) +
                               "/Modules/CMakeFindDependencyMacro.cmake)\nfind_dependency(Dep)\n"));
  EXPECT_TRUE(by_path.failures.empty());
  auto missing = Run(Write("c.cmake",
                           "include(NoSuchModuleAnywhere)\ninclude(NoSuchModuleAnywhere OPTIONAL)\n"
                           "include(consumer_file.cmake)\nset(after 1)\n"));
  ASSERT_EQ(missing.failures.size(), 1u);
  EXPECT_THAT(missing.failures[0].message, ::testing::HasSubstr("NoSuchModuleAnywhere"));
  EXPECT_EQ(Var(missing, "after"), "1");
  // A module path set on one undecided path only: the module may be there.
  auto maybe = Run(Write("e.cmake",
                         "if(\"$ENV{X}\")\n  list(APPEND CMAKE_MODULE_PATH /somewhere)\nendif()\n"
                         "include(NoSuchModuleAnywhere)\n"));
  EXPECT_TRUE(maybe.failures.empty());
  Write("targets/x-targets.cmake", "");
  const std::string dir = (dir_ / "targets").string();
  auto found = Run(Write("d.cmake", "find_file(F NAMES none.cmake x-targets.cmake HINTS " + dir +
                                        " NO_DEFAULT_PATH)\nfind_file(G x.cmake HINTS " + dir +
                                        " NO_DEFAULT_PATH)\nfind_file(H x-targets.cmake)\n"));
  EXPECT_EQ(Var(found, "F"), dir + "/x-targets.cmake");
  EXPECT_EQ(Var(found, "G"), "G-NOTFOUND");
  EXPECT_EQ(Var(found, "H"), "<unknown>");
}

// find_library() asks the world about each file name in each directory it searches (some
// sixty paths a name): a loop of searches for new names is charged for them and stops at the
// work budget, not after asking for hundreds of thousands of paths.
TEST_F(Evaluator, ALoopOfLibrarySearchesStopsAtTheWorkBudget) {
  auto r = Run(Write("FindMany.cmake",
                     "foreach(i RANGE 9999)\n  find_library(L${i} no_such_library_${i})\nendforeach()\n"));
  EXPECT_EQ(Var(r, "L0"), "L0-NOTFOUND");
  EXPECT_EQ(Var(r, "L9999"), "<undefined>");
  EXPECT_TRUE(r.stopped || !r.skipped.empty());
}

TEST_F(Evaluator, StringRepeatAsCMakeDoes) {
  auto r = Run(Write("a.cmake",
                     "string(REPEAT ab 5000 long)\nstring(LENGTH \"${long}\" n)\n"
                     "string(REPEAT ab 0 empty)\nstring(REPEAT \"\" 7 nothing)\n"
                     "string(REPEAT abcdefgh 1000000000 huge)\n"));
  EXPECT_EQ(Var(r, "n"), "10000");
  EXPECT_EQ(Var(r, "empty"), "");
  EXPECT_EQ(Var(r, "nothing"), "");
  EXPECT_EQ(Var(r, "huge"), "<unknown>");
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_THAT(r.skipped[0].reason, HasSubstr("a value longer than"));
  for (const char* count : {"-1", "x", " -1", "3x", ""}) {  // cmake 3.25.1 refuses each
    auto e = Run(Write("e.cmake", std::string("string(REPEAT ab \"") + count + "\" out)\n"));
    ASSERT_EQ(e.failures.size(), 1u) << "'" << count << "'";
    EXPECT_EQ(e.failures[0].message, "string(REPEAT): repeat count is not a positive number.");
  }
}

// Each reduction pass keeps CMake's order (cmake 3.25.1 gives each of these): unary tests take
// the next argument, binary operators and AND/OR chain left to right on the result before
// them, so does NOT, and a condition left with more than one argument, or with a parenthesis
// that is not closed, fails.
TEST_F(Evaluator, ConditionPassesChainAsCMakesDo) {
  auto r = Run(Write("a.cmake",
                     "set(v a)\nset(p \"(\")\n"
                     "if(v STREQUAL a STREQUAL 1)\n  set(chain 1)\nendif()\n"
                     "if(FALSE OR TRUE AND FALSE)\n  set(and_last 1)\nelse()\n  set(and_last 0)\nendif()\n"
                     "if(DEFINED v AND (DEFINED w OR v STREQUAL a) AND NOT DEFINED DEFINED)\n"
                     "  set(mixed 1)\nendif()\n"
                     "if(NOT FALSE)\n  set(not1 1)\nendif()\n"
                     "if(NOT NOT TRUE)\n  set(not2 1)\nendif()\n"
                     "if(${p} TRUE)\n  set(unbalanced 1)\nendif()\n"
                     "if(DEFINED)\n  set(alone 1)\nelse()\n  set(alone 0)\nendif()\n"
                     "if(EXISTS EXISTS)\n  set(exists2 1)\nelse()\n  set(exists2 0)\nendif()\n"));
  EXPECT_EQ(Var(r, "chain"), "1");
  EXPECT_EQ(Var(r, "and_last"), "0");  // (FALSE OR TRUE) AND FALSE: one pass
  EXPECT_EQ(Var(r, "mixed"), "1");
  EXPECT_EQ(Var(r, "not1"), "1");
  EXPECT_EQ(Var(r, "not2"), "<undefined>");        // "Unknown arguments specified"
  EXPECT_EQ(Var(r, "unbalanced"), "<undefined>");  // "mismatched parenthesis in condition"
  EXPECT_EQ(Var(r, "alone"), "0");                 // DEFINED without an argument names a variable
  EXPECT_EQ(Var(r, "exists2"), "0");               // EXISTS takes the second EXISTS as its path
}

TEST_F(Evaluator, GlobIncludeOptionalAndTargets) {
  Write("FooTargets-release.cmake",
        "set_property(TARGET foo::foo APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)\n"
        "set_target_properties(foo::foo PROPERTIES IMPORTED_LOCATION_RELEASE \"/nonexistent/libfoo.so.1\")\n"
        "list(APPEND _cmake_import_check_files_for_foo::foo \"/nonexistent/libfoo.so.1\")\n");
  auto r = Run(Write("FooTargets.cmake",
                     "add_library(foo::foo SHARED IMPORTED)\n"
                     "set_target_properties(foo::foo PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "
                     "\"$<BUILD_INTERFACE:/build/inc>;$<INSTALL_INTERFACE:" +
                         dir_.string() +
                         ">\")\n"
                         "file(GLOB cfgs \"${CMAKE_CURRENT_LIST_DIR}/FooTargets-*.cmake\")\n"
                         "foreach(f IN LISTS cfgs)\n  include(\"${f}\")\nendforeach()\n"
                         "include(\"${CMAKE_CURRENT_LIST_DIR}/extras.cmake\" OPTIONAL RESULT_VARIABLE got)\n"
                         "include(CMakeFindDependencyMacro)\n"));
  ASSERT_EQ(r.targets.size(), 1u);
  EXPECT_EQ(r.targets[0].type, "SHARED");
  const CMakeReference* lib = Ref(r, "/libfoo.so.1");
  ASSERT_NE(lib, nullptr);
  EXPECT_EQ(lib->via, "IMPORTED_LOCATION_RELEASE");
  EXPECT_FALSE(lib->exists);
  EXPECT_EQ(Ref(r, "/build/inc"), nullptr) << "BUILD_INTERFACE is not for consumers of the install";
  const CMakeReference* extras = Ref(r, "/extras.cmake");
  ASSERT_NE(extras, nullptr);
  EXPECT_TRUE(extras->optional);
  EXPECT_EQ(Var(r, "got"), dir_.string() + "/extras.cmake-NOTFOUND");
  EXPECT_TRUE(r.skipped.empty()) << r.skipped[0].reason;
}

// ".." as the kernel takes it: "staging/../include" exists only when staging/ does, and
// "link/.." is the parent of the link's target, not of the link.
TEST_F(Evaluator, DotDotIsPhysical) {
  std::filesystem::create_directories(dir_ / "p/include");
  std::filesystem::create_directories(dir_ / "real/deep");
  std::filesystem::create_directory_symlink(dir_ / "real/deep", dir_ / "p/link");
  Write("real/marker", "");
  const std::string d = dir_.string();
  EXPECT_EQ(files_.Exists(d + "/p/include"), Tri::kTrue);
  EXPECT_EQ(files_.Exists(d + "/p/staging/../include"), Tri::kFalse);
  EXPECT_EQ(files_.Exists(d + "/p/link/../marker"), Tri::kTrue);    // real/deep/.. is real/
  EXPECT_EQ(files_.Exists(d + "/p/link/../include"), Tri::kFalse);  // not p/include
  Write("p/cfg.cmake", "if(EXISTS \"" + d +
                           "/p/staging/../include\")\n  set(a yes)\nelse()\n  set(a no)\nendif()\n"
                           "add_library(x INTERFACE IMPORTED)\n"
                           "set_target_properties(x PROPERTIES INTERFACE_INCLUDE_DIRECTORIES \"" +
                           d + "/p/staging/../include\")\n");
  CMakeEvaluation r = Run(d + "/p/cfg.cmake");
  EXPECT_EQ(Var(r, "a"), "no");
  const CMakeReference* ref = Ref(r, "/p/staging/../include");
  ASSERT_NE(ref, nullptr) << "the reference keeps the path as written";
  EXPECT_FALSE(ref->exists);
}

// find_package(<Dep> <version>)'s verdict on a version file, with the files CMake's own
// write_basic_package_version_file() writes. Each expectation is what cmake 3.25 itself
// answers (find_package(<name> <version> CONFIG PATHS <dir>) in a script).
TEST_F(Evaluator, VersionFilesJudgeTheVersionAskedFor) {
  auto version_file = [&](const std::string& name, const std::string& compatibility) {
    std::ifstream in(std::string(kCMakeRoot) + "/Modules/BasicConfigVersion-" + compatibility + ".cmake.in");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_FALSE(text.empty()) << compatibility;
    for (auto [from, to] : {std::pair<std::string, std::string>{"@CVF_VERSION@", "1.4.0"},
                            {"@CMAKE_SIZEOF_VOID_P@", "8"},
                            {"@CVF_ARCH_INDEPENDENT@", "FALSE"}})
      for (size_t at; (at = text.find(from)) != std::string::npos;) text.replace(at, from.size(), to);
    Write(name + "/" + name + "ConfigVersion.cmake", text);
    return Write(name + "/" + name + "Config.cmake", "");
  };
  const std::string same_major = version_file("Major", "SameMajorVersion");
  const std::string any_newer = version_file("Newer", "AnyNewerVersion");
  const std::string same_minor = version_file("Minor", "SameMinorVersion");
  const std::string exact = version_file("Exact", "ExactVersion");
  const std::string none = Write("None/NoneConfig.cmake", "");
  // gftl-shared's: any version when none is asked for, which find_package() tells it by
  // PACKAGE_FIND_VERSION_MAJOR 0 (cmFindPackageCommand sets every part, 0 when not asked).
  Write(
      "Gftl/GftlConfigVersion.cmake",
      "set(PACKAGE_VERSION 1.0.7)\nif(PACKAGE_FIND_VERSION_MAJOR EQUAL 0)\n  set(PACKAGE_VERSION_COMPATIBLE "
      "TRUE)\nelseif(\"${PACKAGE_FIND_VERSION_MAJOR}\" EQUAL \"1\" AND \"${PACKAGE_FIND_VERSION_MINOR}\" "
      "EQUAL "
      "\"0\")\n  set(PACKAGE_VERSION_EXACT TRUE)\nelse()\n  set(PACKAGE_VERSION_UNSUITABLE TRUE)\nendif()\n");
  const std::string gftl = Write("Gftl/GftlConfig.cmake", "");
  struct Case {
    std::string config, version;
    bool exact, accepted;
  };
  for (const Case& c : std::vector<Case>{{same_major, "1.1", false, true},
                                         {same_major, "2.0", false, false},
                                         {same_major, "1.5", false, false},
                                         {same_major, "1.0...<2.0", false, true},
                                         {same_major, "1.5...<2.0", false, false},
                                         {same_major, "1.4.0", true, true},
                                         {same_major, "1.4", true, false},
                                         {any_newer, "0.9", false, true},
                                         {any_newer, "3.0", false, false},
                                         {same_minor, "1.4", false, true},
                                         {same_minor, "1.3", false, false},
                                         {exact, "1.4.0", false, true},
                                         {exact, "1.4", false, false},
                                         {exact, "1.3", false, false},
                                         {none, "1.0", false, false},
                                         {none, "", false, true},
                                         {gftl, "", false, true},
                                         {gftl, "1.0", false, true},
                                         {gftl, "1.1", false, false}}) {
    VersionVerdict v = CheckVersionFile("X", c.config, c.version, c.exact, files_);
    EXPECT_EQ(v.accepted, c.accepted)
        << c.config << " asked " << c.version << (c.exact ? " EXACT" : "") << ": " << v.why;
    if (!c.accepted) EXPECT_FALSE(v.why.empty());
  }
}

// if(TARGET dep::x) is decided by what the resolver says the dependency defines, from the
// find_package() that loads it on: before it, or with the dependency's targets not all
// known, a target none of the loaded ones defines is undecided.
TEST_F(Evaluator, TheResolversAnswerDecidesIfTarget) {
  struct Answering : DependencyResolver {
    Answer answer;
    std::vector<std::string> asked;
    Answer Resolve(const CMakeDependency& d, const std::map<std::string, CMakeDefinition>&,
                   const CallerScope&) override {
      asked.push_back(d.name);
      return answer;
    }
  };
  const std::string cfg =
      Write("cfg.cmake",
            "if(TARGET Dep::lib)\n  set(before yes)\nelse()\n  set(before no)\nendif()\n"
            "include(CMakeFindDependencyMacro)\nfind_dependency(Dep)\n"
            "if(TARGET Dep::lib)\n  set(has yes)\nelse()\n  set(has no)\nendif()\n"
            "if(TARGET Dep::other)\n  set(other yes)\nelse()\n  set(other no)\nendif()\n");
  auto run = [&](DependencyResolver* resolver, const std::string& file = "") {
    CMakeEvaluator e(files_);
    e.SetResolver(resolver);
    e.Run(file.empty() ? cfg : file);
    return e.Take();
  };
  CMakeEvaluation unknown = run(nullptr);
  EXPECT_EQ(Var(unknown, "has"), "<unknown>");
  Answering known;
  known.answer.counts = true;
  known.answer.defined = {TargetNames({"Dep::lib"}), true};
  CMakeEvaluation decided = run(&known);
  EXPECT_EQ(known.asked, std::vector<std::string>{"Dep"});
  EXPECT_EQ(Var(decided, "before"), "no");
  EXPECT_EQ(Var(decided, "has"), "yes");
  EXPECT_EQ(Var(decided, "other"), "no");
  Answering partly;
  partly.answer.counts = true;
  partly.answer.defined = {TargetNames({"Dep::lib"}), false};
  CMakeEvaluation partial = run(&partly);
  EXPECT_EQ(Var(partial, "has"), "yes");
  EXPECT_EQ(Var(partial, "other"), "<unknown>");
  // A Find module of CMake's whose targets are not listed (FindPython) defines targets of its
  // own namespace only: Halide_Python's Targets file, after find_dependency(Python), tests
  // Halide::Halide, and CMake sets its _FOUND false.
  const std::string module =
      Write("module.cmake",
            "include(CMakeFindDependencyMacro)\nfind_dependency(Dep)\n"
            "if(TARGET Dep::any)\n  set(own yes)\nelse()\n  set(own no)\nendif()\n"
            "if(TARGET Other::lib)\n  set(other yes)\nelse()\n  set(other no)\nendif()\n");
  Answering cmake_module;
  cmake_module.answer.counts = true;
  cmake_module.answer.defined.cmake_module = true;
  CMakeEvaluation by_module = run(&cmake_module, module);
  EXPECT_EQ(Var(by_module, "own"), "<unknown>");
  EXPECT_EQ(Var(by_module, "other"), "no");
  Answering unevaluated;  // a config not evaluated: its targets may be of any namespace
  unevaluated.answer.counts = true;
  CMakeEvaluation by_config = run(&unevaluated, module);
  EXPECT_EQ(Var(by_config, "other"), "<unknown>");
}

// A dependency only a consumer that asks for a component looks for, and that is found
// nowhere, leaves what a plain consumer gets from the dependencies complete: if(TARGET) on a
// target none of them defines is decided false. One every consumer asks for does not, and
// neither does it for a dependency's own component-only dependency (its targets stay known).
TEST_F(Evaluator, AMissingDependencyOnlyAComponentAsksForLeavesTheDependencyTargetsComplete) {
  Write("prefix/lib/cmake/Dep/DepConfig.cmake",
        "add_library(Dep::lib INTERFACE IMPORTED)\n"
        "set(Dep_COMPONENTS opt)\n"
        "if(opt IN_LIST Dep_FIND_COMPONENTS)\n  find_dependency(NoSuchPackageAnywhere)\nendif()\n");
  auto config = [&](const std::string& name, const std::string& missing) {
    return Write("prefix/lib/cmake/" + name + "/" + name + "Config.cmake",
                 "set(" + name +
                     "_COMPONENTS extra)\ninclude(CMakeFindDependencyMacro)\nfind_dependency(Dep)\n" +
                     missing + "if(TARGET Dep::other)\n  set(other yes)\nelse()\n  set(other no)\nendif()\n");
  };
  CMakePackage asked{
      .name = "Pkg",
      .config = config(
          "Pkg",
          "if(extra IN_LIST Pkg_FIND_COMPONENTS)\n  find_dependency(NoSuchPackageAnywhere)\nendif()\n")};
  CMakePackage plain{.name = "Plain", .config = config("Plain", "find_dependency(NoSuchPackageAnywhere)\n")};
  std::vector<CMakePackage*> all{&asked, &plain};
  ConfigSearch configs(files_);
  DependencyLocator locator(all, {(dir_ / "prefix").string()}, 1, false, files_, configs);
  locator.EvaluateAudited();
  ASSERT_EQ(asked.dependencies.size(), 2u);
  EXPECT_EQ(asked.dependencies[0].found, (dir_ / "prefix/lib/cmake/Dep/DepConfig.cmake").string());
  EXPECT_TRUE(asked.dependencies[0].targets_known);
  EXPECT_EQ(asked.dependencies[1].request.asked_component, "extra");
  EXPECT_TRUE(asked.dependencies[1].found.empty());
  EXPECT_EQ(asked.dependencies[0].targets.set(), std::set<std::string>{"Dep::lib"});
  ASSERT_EQ(plain.dependencies.size(), 2u);
  EXPECT_FALSE(plain.dependencies[1].targets_known);

  EXPECT_EQ(Var(asked.evaluation, "other"), "no");
  EXPECT_EQ(Var(plain.evaluation, "other"), "<unknown>");
}

// The targets an interface property names in expressions that fail without them, as cmake
// 3.25 evaluates them: at an item's top level or under $<BUILD_INTERFACE:...> ("No target
// \"gone\""), not under a condition ($<$<CONFIG:Nope>:$<TARGET_OBJECTS:gone>> generates).
TEST(Genex, TargetsNamedByItems) {
  auto names = [](std::string_view value) {
    std::string out;
    for (const TargetReference& r : TargetsNamedByItems(value)) out += r.expression + ":" + r.target + " ";
    return out;
  };
  EXPECT_EQ(names("$<TARGET_OBJECTS:objs>"), "TARGET_OBJECTS:objs ");
  EXPECT_EQ(names("a;$<TARGET_PROPERTY:Ns::t,INTERFACE_X>;$<TARGET_PROPERTY:INTERFACE_Y>"),
            "TARGET_PROPERTY:Ns::t ");
  EXPECT_EQ(names("$<BUILD_INTERFACE:$<TARGET_FILE_DIR:gone>>;$<LINK_ONLY:$<TARGET_LINKER_FILE:l>>"),
            "TARGET_FILE_DIR:gone TARGET_LINKER_FILE:l ");
  EXPECT_EQ(names("$<$<CONFIG:Nope>:$<TARGET_OBJECTS:gone>>;$<TARGET_FILE:$<TARGET_PROPERTY:n>>"), "");
  EXPECT_EQ(names("$<TARGET_EXISTS:x>;$<TARGET_NAME_IF_EXISTS:y>;plain"), "");
}

TEST(Genex, InstallInterfaceItems) {
  EXPECT_EQ(InstallInterfaceItems("$<BUILD_INTERFACE:/b>;$<INSTALL_INTERFACE:/i>;/plain"),
            (std::vector<std::string>{"/i", "/plain"}));
  EXPECT_EQ(InstallInterfaceItems("$<$<CONFIG:Debug>:/dbg>;$<TARGET_FILE:t>"),
            std::vector<std::string>{"/dbg"});
  EXPECT_EQ(InstallInterfaceItems("$<LINK_ONLY:/x/libz.a>"), std::vector<std::string>{"/x/libz.a"});
  // CMake evaluates the whole value, then splits it: a list inside an expression is items
  // (Qt 5's static dependencies, $<1:/l/libQt5Qml.so;Threads::Threads>), and a ';' of an
  // expression whose condition is false takes nothing with it.
  EXPECT_EQ(InstallInterfaceItems("a;$<1:/l/libQt5Qml.so;Threads::Threads>;$<0:x;y>;b"),
            (std::vector<std::string>{"a", "/l/libQt5Qml.so", "Threads::Threads", "b"}));
  // The consumer's platform is Linux: mongoc 1.30's Windows-only libraries are no items.
  EXPECT_EQ(
      InstallInterfaceItems("m;$<$<PLATFORM_ID:Windows>:advapi32.lib>;$<$<PLATFORM_ID:Darwin,Linux>:dl>"),
      (std::vector<std::string>{"m", "dl"}));
  // What $<TARGET_EXISTS:t> guards is linked only where t exists: never a missing target
  // (cifpp links $<$<TARGET_EXISTS:std::atomic>:std::atomic>).
  EXPECT_EQ(InstallInterfaceItems("Threads::Threads;$<$<TARGET_EXISTS:std::atomic>:std::atomic>"),
            std::vector<std::string>{"Threads::Threads"});
}

// Qt 6.8's private include directories: $<$<BOOL:$<TARGET_PROPERTY:Qt6::Concurrent,
// _qt_module_has_private_headers>>:dir>, read from the target as CMake reads it; a target
// not known leaves the condition unknown, taken as true as before.
TEST(Genex, TargetPropertiesOfKnownTargetsDecideConditions) {
  const TargetPropertyLookup lookup = [](std::string_view target, std::string_view property) {
    std::optional<std::string> out;
    if (target == "Qt6::Gui") out = property == "_qt_module_has_private_headers" ? "TRUE" : "";
    if (target == "Qt6::Concurrent") out = "";
    return out;
  };
  auto items = [&](const std::string& target) {
    return InstallInterfaceItems(
        "$<$<BOOL:$<TARGET_PROPERTY:" + target + ",_qt_module_has_private_headers>>:/inc/private>;/inc",
        lookup);
  };
  EXPECT_EQ(items("Qt6::Gui"), (std::vector<std::string>{"/inc/private", "/inc"}));
  EXPECT_EQ(items("Qt6::Concurrent"), std::vector<std::string>{"/inc"});
  EXPECT_EQ(items("Other::Lib"), (std::vector<std::string>{"/inc/private", "/inc"}));
  EXPECT_EQ(InstallInterfaceItems("$<$<BOOL:x-NOTFOUND>:a>;$<$<BOOL:0.0>:b>"), std::vector<std::string>{"b"});
}

TEST(PackageConfig, NamesAndPrefixes) {
  EXPECT_EQ(ConfigPackageName("hip-config.cmake").value_or(""), "hip");
  EXPECT_EQ(ConfigPackageName("WidgetConfig.cmake").value_or(""), "Widget");
  EXPECT_FALSE(ConfigPackageName("hip-config-amd.cmake"));
  EXPECT_FALSE(ConfigPackageName("WidgetConfigVersion.cmake"));
  EXPECT_EQ(PackagePrefixOf("/usr/lib/x86_64-linux-gnu/cmake/hip", "hip"), "/usr");
  EXPECT_EQ(PackagePrefixOf("/opt/rocm/lib/cmake/rocblas", "rocblas"), "/opt/rocm");
  EXPECT_EQ(PackagePrefixOf("/usr/share/rocmcmakebuildtools/cmake", "ROCmCMakeBuildTools"), "/usr");
  EXPECT_EQ(PackagePrefixOf("/nix/store/x-ck/lib/cmake/composable_kernel", "composable_kernel"),
            "/nix/store/x-ck");
}

}  // namespace
}  // namespace rocm_audit

namespace rocm_audit {
namespace {

TEST(MathExpression, PrecedenceWrapAndErrors) {
  EXPECT_EQ(EvaluateMathExpression("1 << 4 | 1"), 17);
  EXPECT_EQ(EvaluateMathExpression("7 % 3 + 10 / 3"), 4);
  EXPECT_EQ(EvaluateMathExpression("5 - 3 - 1"), 1);
  EXPECT_EQ(EvaluateMathExpression("8 >> 1 ^ 1"), 5);
  EXPECT_EQ(EvaluateMathExpression("-(2+3)*~0"), 5);
  for (const char* bad : {"1/0", "1 << 64", "((1)", "1 +", "x"})
    EXPECT_FALSE(EvaluateMathExpression(bad)) << bad;
}

// What find_dependency() leaves a config, as CMake 3.25 leaves it (each checked with a real
// find_package() of the same files): the dependency's functions and macros (global once
// defined), its <Dep>_VERSION* from its version file, <Dep>_DIR; the config's own
// <Name>_VERSION*; a Find module it ships in CMAKE_MODULE_PATH, evaluated, and the targets
// of CMake's own Find modules (FindThreads) and of pkg_check_modules(IMPORTED_TARGET) of a
// module the machine has (zlib.pc, from zlib1g-dev).
TEST_F(Evaluator, ADependencyLeavesItsCommandsVersionAndFindModules) {
  Write("lib/cmake/Dep/DepConfigVersion.cmake",
        "set(PACKAGE_VERSION 5.15.8)\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n");
  Write("lib/cmake/Dep/DepHelpers.cmake",
        "macro(dep_helper out)\n  set(${out} \"from-dep\")\nendmacro()\n"
        "function(dep_function)\n  set(dep_called yes PARENT_SCOPE)\nendfunction()\n");
  const std::string dep = Write("lib/cmake/Dep/DepConfig.cmake",
                                "include(${CMAKE_CURRENT_LIST_DIR}/DepHelpers.cmake)\n"
                                "add_library(Dep::dep INTERFACE IMPORTED)\n");
  Write("lib/cmake/Con/ConConfigVersion.cmake",
        "set(PACKAGE_VERSION 2.1)\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n");
  Write("lib/cmake/Con/FindShipped.cmake",
        "find_package(PkgConfig)\npkg_check_modules(SHIP IMPORTED_TARGET zlib)\n"
        "add_library(Shipped::Shipped INTERFACE IMPORTED)\n"
        "target_link_libraries(Shipped::Shipped INTERFACE PkgConfig::SHIP)\nset(Shipped_FOUND TRUE)\n");
  const std::string con =
      Write("lib/cmake/Con/ConConfig.cmake",
            "include(CMakeFindDependencyMacro)\n"
            "list(APPEND CMAKE_MODULE_PATH ${CMAKE_CURRENT_LIST_DIR})\n"
            "find_dependency(Dep)\nfind_dependency(Threads)\nfind_dependency(Shipped)\n"
            "dep_helper(helped)\ndep_function()\n"
            "set(dep_seen \"${Dep_VERSION_MAJOR}.${Dep_VERSION_MINOR} ${Dep_VERSION_COUNT}\")\n"
            "set(own \"${Con_VERSION} ${Con_VERSION_MINOR} ${Con_VERSION_PATCH}\")\n"
            "add_library(Con::con INTERFACE IMPORTED)\n"
            "target_link_libraries(Con::con INTERFACE Dep::dep Threads::Threads Shipped::Shipped)\n");
  CMakePackage d{.name = "Dep", .config = dep}, c{.name = "Con", .config = con};
  ConfigSearch search(files_);
  std::vector<CMakePackage*> all{&d, &c};
  DependencyLocator locator(all, {dir_.string()}, 1, false, files_, search);
  locator.EvaluateAudited();
  const CMakeEvaluation& e = c.evaluation;
  EXPECT_EQ(Var(e, "helped"), "from-dep");
  EXPECT_EQ(Var(e, "dep_called"), "yes");
  EXPECT_EQ(Var(e, "dep_seen"), "5.15 3");
  EXPECT_EQ(Var(e, "Dep_DIR"), (dir_ / "lib/cmake/Dep").string());
  EXPECT_EQ(Var(e, "own"), "2.1 1 0");
  for (const CMakeSkipped& s : e.skipped)
    EXPECT_NE(s.reason, "a command rocm-audit does not evaluate") << s.command;
  ASSERT_EQ(c.dependencies.size(), 3u);
  EXPECT_EQ(c.dependencies[2].found, (dir_ / "lib/cmake/Con/FindShipped.cmake").string());
  std::set<std::string> targets;
  for (const LocatedDependency& l : c.dependencies) {
    EXPECT_TRUE(l.targets_known) << l.request.name;
    targets.insert(l.targets.begin(), l.targets.end());
  }
  for (const char* name : {"Dep::dep", "Threads::Threads", "Shipped::Shipped", "PkgConfig::SHIP"})
    EXPECT_TRUE(targets.count(name)) << name;
}

}  // namespace
}  // namespace rocm_audit
