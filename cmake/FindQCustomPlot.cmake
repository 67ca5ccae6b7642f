# Provides QCustomPlot::QCustomPlot, the Qt 6 build of QCustomPlot.
# Debian ships two config packages: QCustomPlot (the Qt 5 build) and QCustomPlotQt6; only the latter is usable
# here, and its imported target does not find Qt6::PrintSupport by itself.
find_package(Qt6 REQUIRED COMPONENTS Widgets PrintSupport)
find_package(QCustomPlotQt6 CONFIG QUIET)
if(TARGET QCustomPlotQt6::QCustomPlotQt6)
    get_target_property(QCustomPlot_LIBRARY QCustomPlotQt6::QCustomPlotQt6 LOCATION)
    get_target_property(QCustomPlot_INCLUDE_DIR QCustomPlotQt6::QCustomPlotQt6 INTERFACE_INCLUDE_DIRECTORIES)
else()
    find_library(QCustomPlot_LIBRARY NAMES QCustomPlotQt6 qcustomplot-qt6)
    find_path(QCustomPlot_INCLUDE_DIR NAMES qcustomplot.h)
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(QCustomPlot REQUIRED_VARS QCustomPlot_LIBRARY QCustomPlot_INCLUDE_DIR)
mark_as_advanced(QCustomPlot_LIBRARY QCustomPlot_INCLUDE_DIR)
if(QCustomPlot_FOUND AND NOT TARGET QCustomPlot::QCustomPlot)
    add_library(QCustomPlot::QCustomPlot UNKNOWN IMPORTED)
    set_target_properties(QCustomPlot::QCustomPlot PROPERTIES
        IMPORTED_LOCATION "${QCustomPlot_LIBRARY}"
        INTERFACE_INCLUDE_DIRECTORIES "${QCustomPlot_INCLUDE_DIR}"
        INTERFACE_COMPILE_DEFINITIONS QCUSTOMPLOT_USE_LIBRARY
        INTERFACE_LINK_LIBRARIES "Qt6::Widgets;Qt6::PrintSupport")
endif()
