# Fails when a source of the application includes an operating system's header, or calls a compiler's builtin,
# outside the platform layer (models/platform): every OS call goes through platform.h, so that a port to another
# system is one new file there. Tests may include one only under a RANKSCOPE_PLATFORM_<NAME> guard.
#   cmake -DSOURCE_DIR=... -P check_platform_headers.cmake
set(os_headers "sys/[a-z_]+\\.h|unistd\\.h|fcntl\\.h|dlfcn\\.h|pthread\\.h|sched\\.h|malloc\\.h")
string(APPEND os_headers "|windows\\.h|io\\.h|mach/[a-z_]+\\.h")
file(GLOB_RECURSE sources LIST_DIRECTORIES false RELATIVE ${SOURCE_DIR}
    ${SOURCE_DIR}/models/*.cpp ${SOURCE_DIR}/models/*.h ${SOURCE_DIR}/app/*.cpp ${SOURCE_DIR}/app/*.h
    ${SOURCE_DIR}/widgets/*.cpp ${SOURCE_DIR}/widgets/*.h)
list(FILTER sources EXCLUDE REGEX "^models/platform/")
list(LENGTH sources count)
if(count LESS 50)
    message(FATAL_ERROR "found only ${count} sources under ${SOURCE_DIR}: not the source tree this check expects")
endif()
set(offenders "")
foreach(source ${sources})
    file(STRINGS ${SOURCE_DIR}/${source} lines REGEX "#[ \t]*include[ \t]*<(${os_headers})>|__builtin_|__attribute__")
    foreach(line ${lines})
        string(STRIP "${line}" line)
        string(APPEND offenders "\n  ${source}: ${line}")
    endforeach()
endforeach()
if(offenders)
    message(FATAL_ERROR "outside models/platform, OS headers or compiler builtins:${offenders}")
endif()
message(STATUS "${count} sources: no OS header or compiler builtin outside models/platform")
