# rocm_audit_install([FAIL_ON error|warning|note|none] [SUPPRESS file] [BASELINE file]
#                    [OPTIONS args...])
#
# Audits the install prefix with rocm-audit at `cmake --install` time, after everything
# this project installs (call it last in the top-level CMakeLists.txt). With DESTDIR set,
# the staged tree is audited as it will be once installed on this system:
# rocm-audit --root $DESTDIR --root / $DESTDIR$CMAKE_INSTALL_PREFIX.
# A finding at FAIL_ON (default error) fails the install step.
#
#   find_package(RocmAudit)   # or include(/usr/share/cmake/RocmAudit/RocmAudit.cmake)
#   rocm_audit_install(SUPPRESS ${CMAKE_SOURCE_DIR}/rocm-audit.suppress)
include_guard(GLOBAL)

find_program(ROCM_AUDIT_EXECUTABLE rocm-audit DOC "rocm-audit, the auditor of ROCm install trees")

function(rocm_audit_install)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "FAIL_ON;SUPPRESS;BASELINE" "OPTIONS")
  if(NOT ROCM_AUDIT_EXECUTABLE)
    message(FATAL_ERROR "rocm_audit_install: rocm-audit not found (set ROCM_AUDIT_EXECUTABLE)")
  endif()
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
  install(CODE "
    set(_rocm_audit_args \"${args}\")
    set(_rocm_audit_prefix \"\${CMAKE_INSTALL_PREFIX}\")
    if(DEFINED ENV{DESTDIR} AND NOT \"\$ENV{DESTDIR}\" STREQUAL \"\")
      list(APPEND _rocm_audit_args --root \"\$ENV{DESTDIR}\" --root /)
      set(_rocm_audit_prefix \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
    endif()
    message(STATUS \"rocm-audit: auditing \${_rocm_audit_prefix}\")
    execute_process(COMMAND \"${ROCM_AUDIT_EXECUTABLE}\" \${_rocm_audit_args} \"\${_rocm_audit_prefix}\"
                    RESULT_VARIABLE _rocm_audit_status)
    if(NOT _rocm_audit_status EQUAL 0)
      message(FATAL_ERROR \"rocm-audit: the installed tree has findings at ${arg_FAIL_ON} or above (exit \${_rocm_audit_status})\")
    endif()
  ")
endfunction()
