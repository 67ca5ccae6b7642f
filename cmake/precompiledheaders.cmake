# Precompiled headers (RANKSCOPE_PCH, gcc): the headers of the standard library, Qt and nlohmann_json that nearly every
# unity group includes are parsed once per build instead of once per group. Parsing them was about half of a group's
# compile time (tst_widgets: 37 s of CPU without, 20 s with), and a clean build is most of CI's gcc stage.
#
# Two sets, each compiled once by a target of its own and reused by every target of its kind (REUSE_FROM): the core's
# (no header of Qt Gui, so the core's targets see nothing of a display) and the window's. A reused header is valid
# only where the reusing target compiles with the same options and defines no macro the header tested otherwise:
# every target here does (the Qt modules' macros a target lacks are only ever defined by the header, never tested
# differently); gcc's -Winvalid-pch, which CMake adds, makes any exception a warning, and -Werror a failed build.
# Qt Test is left out of both: its macros name each test target's own folders.
set(RANKSCOPE_PCH_CORE
    <algorithm> <array> <atomic> <charconv> <cmath> <cstdint> <cstring> <deque> <functional> <limits> <map>
    <memory> <mutex> <optional> <set> <span> <string> <string_view> <tuple> <unordered_map> <unordered_set>
    <utility> <vector>
    <QByteArray> <QCoreApplication> <QDir> <QFile> <QFileInfo> <QHash> <QList> <QObject> <QRegularExpression>
    <QString> <QStringList> <QtConcurrent>
    <nlohmann/json.hpp>)
set(RANKSCOPE_PCH_GUI
    ${RANKSCOPE_PCH_CORE}
    <QAbstractItemModel> <QAction> <QApplication> <QComboBox> <QDialog> <QEvent> <QHeaderView> <QLabel>
    <QLineEdit> <QMenu> <QPainter> <QPushButton> <QSettings> <QSplitter> <QTimer> <QToolButton> <QTreeView>
    <QVBoxLayout> <QWidget>
    <qcustomplot.h>)

file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/pch_host.cpp "// The translation unit the precompiled headers are built with.\n")

function(rankscope_pch_host name)
    add_library(${name} OBJECT ${CMAKE_CURRENT_BINARY_DIR}/pch_host.cpp)
    target_link_libraries(${name} PRIVATE ${ARGN} nlohmann_json::nlohmann_json)
    rankscope_set_warnings(${name})
endfunction()

# The targets rankscope_set_warnings saw, each given the set of its kind: a target that links the widgets, the window
# or the drawing commands (or Qt Widgets itself) takes the window's.
function(rankscope_use_precompiled_headers)
    get_property(targets GLOBAL PROPERTY RANKSCOPE_TARGETS)
    rankscope_pch_host(rankscope_pch_core Qt6::Core Qt6::Concurrent)
    target_precompile_headers(rankscope_pch_core PRIVATE ${RANKSCOPE_PCH_CORE})
    if(RANKSCOPE_GUI)
        rankscope_pch_host(rankscope_pch_gui Qt6::Core Qt6::Concurrent Qt6::Gui Qt6::Widgets Qt6::PrintSupport
            QCustomPlot::QCustomPlot)
        target_precompile_headers(rankscope_pch_gui PRIVATE ${RANKSCOPE_PCH_GUI})
    endif()
    foreach(target ${targets})
        get_target_property(libraries ${target} LINK_LIBRARIES)
        set(host rankscope_pch_core)
        foreach(library rankscope_widgets rankscope_window rankscope_cli_drawing Qt6::Widgets)
            if(RANKSCOPE_GUI AND library IN_LIST libraries)
                set(host rankscope_pch_gui)
            endif()
        endforeach()
        set_target_properties(${target} PROPERTIES PRECOMPILE_HEADERS_REUSE_FROM ${host})
    endforeach()
endfunction()
