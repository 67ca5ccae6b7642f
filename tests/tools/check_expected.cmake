# Regenerates expected_info.json with CPython and fails when it differs from the committed file.
file(GLOB files RELATIVE "${DATA}" "${DATA}/*.pickle")
list(SORT files)
execute_process(COMMAND "${PYTHON}" "${SCRIPT}" ${files} WORKING_DIRECTORY "${DATA}"
    OUTPUT_VARIABLE fresh RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "expected_info.py failed")
endif()
file(READ "${DATA}/expected_info.json" committed)
if(NOT fresh STREQUAL committed)
    message(FATAL_ERROR "tests/data/expected_info.json is out of date; regenerate it (see tests/data/README.md)")
endif()
