# rocm_audit_install([FAIL_ON error|warning|note|none] [SUPPRESS file] [BASELINE file]
#                    [OPTIONS args...])
#
# Audits the install prefix with rocm-audit at `cmake --install` time, after every install
# rule of the project, whichever directory it is in and whatever the project's policies.
# With DESTDIR set, the staged tree is audited as it will be once installed on this system:
# rocm-audit --root $DESTDIR --root / $DESTDIR$CMAKE_INSTALL_PREFIX.
#
# What fails the install step: a finding at FAIL_ON (default error) or above, unless a
# waiver in SUPPRESS or the BASELINE report accepts it; and rocm-audit itself failing (a
# tool error, such as a prefix nothing was installed into), which is reported as that. The
# checks whose findings are errors by default: bundle-id-mismatch, cmake-config-error, cmake-consumer-scope,
# cmake-dependency-version, cmake-missing-file, cmake-missing-library, cmake-missing-target, cmake-no-location,
# malformed-bundle, malformed-file, missing-arch, missing-arch-data, missing-version,
# mixed-soname, package-limit, package-member-refused, rpath-build-dir, rpath-relative,
# special-file, undefined-symbol, unresolved-library, upload-not-audited (rocm-audit --explain
# ID says which of a check's findings are only warnings or notes). So a RUNPATH into a build tree, such as
# -Wl,-rpath,/home/me/src/tinyroc/build/lib, or into the project's own source or build
# directory whatever its name (unless the install prefix is inside it), fails the install.
#
#   find_package(RocmAudit)   # or include(/usr/share/cmake/RocmAudit/RocmAudit.cmake)
#   rocm_audit_install(SUPPRESS ${CMAKE_SOURCE_DIR}/rocm-audit.suppress)
#
# Install rules run in the order cmake_install.cmake includes them. Under policy CMP0082
# NEW (cmake_minimum_required 3.14 or later) a subdirectory's rules run where its
# add_subdirectory() stands, so the audit is deferred to the end of the top-level directory
# and runs after every rule. Under OLD, every subdirectory's rules run after all of the
# top-level directory's own, so the audit is a subdirectory of its own, which must be the
# last one added: rocm_audit_install() is then called last in the top-level CMakeLists.txt,
# and refuses, naming CMP0082, when it is not.
include_guard(GLOBAL)

find_program(ROCM_AUDIT_EXECUTABLE rocm-audit DOC "rocm-audit, the auditor of ROCm install trees")

function(rocm_audit_install)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "FAIL_ON;SUPPRESS;BASELINE" "OPTIONS")
  if(NOT ROCM_AUDIT_EXECUTABLE)
    message(FATAL_ERROR "rocm_audit_install: rocm-audit not found (set ROCM_AUDIT_EXECUTABLE)")
  endif()
  if(CMAKE_VERSION VERSION_LESS 3.19)
    message(FATAL_ERROR "rocm_audit_install: CMake ${CMAKE_VERSION} cannot defer a call (3.19 can), so "
                        "the audit could run before the install rules of subdirectories (policy CMP0082)")
  endif()
  get_property(scheduled GLOBAL PROPERTY _ROCM_AUDIT_INSTALL_SCHEDULED)
  if(scheduled)
    message(FATAL_ERROR "rocm_audit_install: called twice; one audit covers the whole install prefix")
  endif()
  set_property(GLOBAL PROPERTY _ROCM_AUDIT_INSTALL_SCHEDULED TRUE)
  if(NOT arg_FAIL_ON)
    set(arg_FAIL_ON error)
  endif()
  set(args --no-progress --fail-on ${arg_FAIL_ON})
  if(arg_SUPPRESS)
    list(APPEND args --suppress ${arg_SUPPRESS})
  endif()
  if(arg_BASELINE)
    list(APPEND args --baseline ${arg_BASELINE})
  endif()
  list(APPEND args ${arg_OPTIONS})
  # The install script runs at install time: the prefix and DESTDIR are read then.
  set(code "
    set(_rocm_audit_args \"${args}\")
    set(_rocm_audit_prefix \"\${CMAKE_INSTALL_PREFIX}\")
    set(_rocm_audit_as \"\")
    # The project's build and source trees exist only while it is built: an RPATH/RUNPATH
    # into either is rpath-build-dir, whatever the directory is named (not the one that
    # holds the install prefix, where the installed files are meant to stay).
    foreach(_rocm_audit_dir IN ITEMS \"${CMAKE_BINARY_DIR}\" \"${CMAKE_SOURCE_DIR}\")
      string(FIND \"\${CMAKE_INSTALL_PREFIX}/\" \"\${_rocm_audit_dir}/\" _rocm_audit_at)
      if(NOT _rocm_audit_at EQUAL 0)
        list(APPEND _rocm_audit_args --forbid-rpath \"\${_rocm_audit_dir}/*\")
      endif()
    endforeach()
    if(DEFINED ENV{DESTDIR} AND NOT \"\$ENV{DESTDIR}\" STREQUAL \"\")
      list(APPEND _rocm_audit_args --root \"\$ENV{DESTDIR}\" --root /)
      set(_rocm_audit_prefix \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
      set(_rocm_audit_as \" as installed over /\")
    endif()
    message(STATUS \"rocm-audit: auditing the install prefix \${_rocm_audit_prefix}\${_rocm_audit_as} (fails at ${arg_FAIL_ON})\")
    execute_process(COMMAND \"${ROCM_AUDIT_EXECUTABLE}\" \${_rocm_audit_args} \"\${_rocm_audit_prefix}\"
                    RESULT_VARIABLE _rocm_audit_status)
    if(_rocm_audit_status EQUAL 1)
      message(FATAL_ERROR \"rocm-audit: \${_rocm_audit_prefix} has findings at ${arg_FAIL_ON} or above (listed above)\")
    elseif(NOT _rocm_audit_status EQUAL 0)
      message(FATAL_ERROR \"rocm-audit: could not audit \${_rocm_audit_prefix}: a tool error, not a finding (exit \${_rocm_audit_status}; its message is above)\")
    endif()
  ")
  # A deferred call's arguments are expanded when it runs: what it needs goes in as bracket
  # arguments, which are never expanded.
  cmake_policy(GET CMP0082 install_order)
  if(install_order STREQUAL "NEW")
    cmake_language(EVAL CODE
      "cmake_language(DEFER DIRECTORY [==[${CMAKE_SOURCE_DIR}]==] CALL install CODE [==[${code}]==])")
    return()
  endif()
  if(NOT CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)
    message(FATAL_ERROR "rocm_audit_install: under policy CMP0082 OLD (cmake_minimum_required before 3.14) "
                        "call it last in the top-level CMakeLists.txt, or set the policy to NEW; here the "
                        "audit could run before other directories' install rules")
  endif()
  set(dir ${CMAKE_BINARY_DIR}/rocm-audit-install)
  file(WRITE ${dir}/source/CMakeLists.txt "install(CODE [==[${code}]==])\n")
  add_subdirectory(${dir}/source ${dir}/build)
  cmake_language(EVAL CODE
    "cmake_language(DEFER DIRECTORY [==[${CMAKE_SOURCE_DIR}]==] CALL _rocm_audit_check_last [==[${dir}/source]==])")
endfunction()

# Under CMP0082 OLD: the audit's subdirectory must be the last one the top-level directory
# adds, or a later one's install rules would run after the audit.
function(_rocm_audit_check_last audit_dir)
  get_property(subdirectories DIRECTORY ${CMAKE_SOURCE_DIR} PROPERTY SUBDIRECTORIES)
  list(GET subdirectories -1 last)
  if(NOT last STREQUAL audit_dir)
    message(FATAL_ERROR "rocm_audit_install: add_subdirectory(${last}) comes after rocm_audit_install(); under "
                        "policy CMP0082 OLD (cmake_minimum_required before 3.14) its install rules would run "
                        "after the audit: call rocm_audit_install() last, or set the policy to NEW")
  endif()
endfunction()
