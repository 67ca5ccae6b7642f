# Makes rankscope-cli-VERSION-linux-ARCH.tar.gz: the core-only command line with every library it needs beyond glibc
# (Qt Core and what Qt Core needs, libstdc++), found through the binary's $ORIGIN, so the folder runs on any Linux
# machine with the build machine's glibc or newer and nothing else installed: a cluster node without root or Qt.
#   cmake -DBINARY=build/release/app/rankscope-cli -DVERSION=0.1.0 -DOUT=dist -P cmake/cli_folder.cmake
foreach(var BINARY VERSION OUT)
    if(NOT ${var})
        message(FATAL_ERROR "cli_folder.cmake needs -D${var}=...")
    endif()
endforeach()
execute_process(COMMAND uname -m OUTPUT_VARIABLE arch OUTPUT_STRIP_TRAILING_WHITESPACE)
set(name rankscope-cli-${VERSION}-linux-${arch})
set(folder ${OUT}/${name})
file(REMOVE_RECURSE ${folder})
file(MAKE_DIRECTORY ${folder}/bin ${folder}/lib)
file(COPY ${BINARY} DESTINATION ${folder}/bin)

# The libraries the loader would find for it here, minus glibc's own (the loader, libc, libm, libpthread, libdl,
# librt): those must be the target machine's, matched to its kernel and loader.
execute_process(COMMAND ldd ${BINARY} OUTPUT_VARIABLE listing RESULT_VARIABLE failed)
if(failed)
    message(FATAL_ERROR "ldd ${BINARY} failed")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(glibc "^(linux-vdso|ld-linux|libc|libm|libpthread|libdl|librt|libresolv|libutil)[.-]")
set(bundled "")
foreach(line ${lines})
    if(line MATCHES "^[ \t]*([^ ]+) => ([^ ]+) \\(")
        set(soname ${CMAKE_MATCH_1})
        set(path ${CMAKE_MATCH_2})
        if(soname MATCHES "${glibc}")
            continue()
        endif()
        # The file under its soname (the name the loader asks for), its contents those of the real file.
        file(READ ${path} bytes HEX LIMIT 0) # fails here, not later, when the file cannot be read
        configure_file(${path} ${folder}/lib/${soname} COPYONLY)
        list(APPEND bundled ${soname})
    elseif(line MATCHES "not found")
        message(FATAL_ERROR "${BINARY}: a library is not found: ${line}")
    endif()
endforeach()
list(JOIN bundled ", " bundled_text)
execute_process(COMMAND ldd --version OUTPUT_VARIABLE ldd_version)
string(REGEX MATCH "[0-9]+\\.[0-9]+" glibc_version "${ldd_version}")
file(WRITE ${folder}/README.txt "rankscope-cli ${VERSION}: RankScope's command line (info, diff, top, steps, digest, mcp)
with the libraries it needs beyond glibc, for Linux ${arch} with glibc ${glibc_version} or newer. Nothing to install:
unpack anywhere and run bin/rankscope-cli (it finds lib/ next to itself), e.g.
  srun bash -c 'rankscope-cli-${VERSION}-linux-${arch}/bin/rankscope-cli digest --rank $SLURM_PROCID run/rank$SLURM_PROCID.pickle -o d'
Bundled: ${bundled_text}.
")
execute_process(COMMAND ${CMAKE_COMMAND} -E tar czf ${name}.tar.gz ${name} WORKING_DIRECTORY ${OUT}
    RESULT_VARIABLE failed)
if(failed)
    message(FATAL_ERROR "packing ${folder} failed")
endif()
message(STATUS "${OUT}/${name}.tar.gz: bin/rankscope-cli and ${bundled_text}")
