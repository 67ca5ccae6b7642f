# Installs the build into a fresh prefix and checks the layout a desktop expects: the binary, the .desktop file
# (which desktop-file-validate must accept), the icons and the translations.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" RESULT_VARIABLE rc
    OUTPUT_QUIET)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install failed")
endif()
set(id io.github.rankscope.RankScope)
foreach(path bin/rankscope share/applications/${id}.desktop share/icons/hicolor/scalable/apps/${id}.svg
        share/icons/hicolor/16x16/apps/${id}.png share/icons/hicolor/48x48/apps/${id}.png
        share/icons/hicolor/256x256/apps/${id}.png share/rankscope/translations/rankscope_zh_CN.qm
        share/rankscope/translations/rankscope_en.qm share/rankscope/python/rankscope_capture.py)
    if(NOT EXISTS "${PREFIX}/${path}")
        message(FATAL_ERROR "missing after install: ${path}")
    endif()
endforeach()
# Compiled Qt catalogues start with Qt's magic number.
foreach(language zh_CN en)
    file(READ "${PREFIX}/share/rankscope/translations/rankscope_${language}.qm" magic LIMIT 4 HEX)
    if(NOT magic STREQUAL "3cb86418")
        message(FATAL_ERROR "rankscope_${language}.qm is not a Qt translation catalogue (starts with ${magic})")
    endif()
endforeach()
find_program(VALIDATE desktop-file-validate REQUIRED)
execute_process(COMMAND "${VALIDATE}" "${PREFIX}/share/applications/${id}.desktop" RESULT_VARIABLE rc
    OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out STREQUAL "")
    message(FATAL_ERROR "desktop-file-validate: ${out}")
endif()
file(REMOVE_RECURSE "${PREFIX}")
