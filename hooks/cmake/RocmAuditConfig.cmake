# find_package(RocmAudit) for the installed rocm-audit: provides rocm_audit_install().
get_filename_component(_rocm_audit_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
find_program(ROCM_AUDIT_EXECUTABLE rocm-audit HINTS "${_rocm_audit_prefix}/bin" NO_DEFAULT_PATH)
find_program(ROCM_AUDIT_EXECUTABLE rocm-audit)
include("${CMAKE_CURRENT_LIST_DIR}/RocmAudit.cmake")
set(RocmAudit_FOUND TRUE)
