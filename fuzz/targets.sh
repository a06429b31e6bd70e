# The fuzz targets, for the scripts of fuzz/ to source (fuzz/CMakeLists.txt names each with
# the libraries it links).
fuzz_targets=(elf archive device_code bundle code_object offload_binary cmake_list_file cmake_evaluator
              policy_files report_reader unpack package_metadata audit)
