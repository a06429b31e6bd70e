#!/bin/sh
# probe.sh CMAKE GENERATOR MAKE_PROGRAM WORKDIR PACKAGE CONFIG_DIR: where real CMake fails a
# consumer of find_package(PACKAGE CONFIG REQUIRED) that loads the config in CONFIG_DIR
# (PACKAGE_DIR, as a consumer sets for a config below no prefix it searches, LLVM 14's under
# /usr/lib/llvm-14), as tests/cli/cmake_agreement_test.cc probes:
# configure; generate, a probe executable linked against every imported library target and a
# custom command depending on every imported executable (a tool such as Qt's moc is run, not
# linked: linking one is the consumer's error, whatever the package); build, the probes
# built, which opens every imported file and never runs one. Prints "stage: configure|generate|build|
# passes" last, after CMake's output. The compiler checks of project() run once per WORKDIR:
# its template build directory is copied back in place before each package (CMake refuses a
# build directory moved from where it was configured).
set -u
cmake=$1 generator=$2 make_program=$3 dir=$4 package=$5 config_dir=$6
make_define=
[ -n "$make_program" ] && make_define="-DCMAKE_MAKE_PROGRAM=$make_program"
mkdir -p "$dir"
cd "$dir" || exit 2
if [ ! -d template ]; then
  echo 'int main(void) { return 0; }' > probe.c
  printf 'cmake_minimum_required(VERSION 3.25)\nproject(probe LANGUAGES C CXX)\n' > CMakeLists.txt
  rm -rf build
  "$cmake" -G "$generator" $make_define -S . -B build > /dev/null 2>&1 || { echo "stage: template failed"; exit 2; }
  mv build template
fi
rm -rf build
cp -a template build
cat > CMakeLists.txt <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(probe LANGUAGES C CXX)
find_package($package CONFIG REQUIRED)
get_directory_property(targets IMPORTED_TARGETS)
foreach(t IN LISTS targets)
  get_target_property(type \${t} TYPE)
  string(MAKE_C_IDENTIFIER "\${t}" id)
  if(type STREQUAL "EXECUTABLE")
    add_custom_command(OUTPUT \${id}.stamp COMMAND \${CMAKE_COMMAND} -E touch \${id}.stamp DEPENDS \${t})
    add_custom_target(probe_\${id} ALL DEPENDS \${id}.stamp)
    continue()
  endif()
  add_executable(probe_\${id} probe.c)
  target_link_libraries(probe_\${id} PRIVATE \${t})
endforeach()
CMAKE
out=$("$cmake" -G "$generator" $make_define -S . -B build -DCMAKE_PREFIX_PATH=/usr "-D${package}_DIR=$config_dir" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ]; then
  # CMake prints "-- Configuring done" before it generates, and only when configure passed.
  case $out in *"-- Configuring done"*) echo "stage: generate" ;; *) echo "stage: configure" ;; esac
  exit 0
fi
if "$cmake" --build build 2>&1; then echo "stage: passes"; else echo "stage: build"; fi
