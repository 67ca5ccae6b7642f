// SPDX-License-Identifier: MIT
// The main of a program of several test classes (testprogram.h): `PROGRAM CLASS [Qt Test arguments]` runs one class,
// `PROGRAM [Qt Test arguments]` every class in turn; `PROGRAM -classes` lists them.
#include "testprogram.h"

#if defined(QT_WIDGETS_LIB)
#include <QApplication>
using Application = QApplication;
#else
#include <QCoreApplication>
using Application = QCoreApplication;
#endif

#include <algorithm>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
    const std::vector<TestProgram::Class>& classes = TestProgram::classes();
    if (argc > 1 && std::strcmp(argv[1], "-classes") == 0) {
        for (const TestProgram::Class& c : classes)
            std::printf("%s\n", c.name);
        return 0;
    }
    const auto named = argc > 1 ? std::find_if(classes.begin(), classes.end(),
                           [&](const TestProgram::Class& c) { return std::strcmp(c.name, argv[1]) == 0; })
                                : classes.end();
    for (const TestProgram::Class& c : classes) {
        if (named == classes.end() || &c == &*named)
            c.initMain();
    }
    // As QTEST_MAIN sets it up.
    Application app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    if (named != classes.end()) {
        // The class's name stands where Qt Test expects the program's: the rest are its own arguments.
        return named->run(argc - 1, argv + 1);
    }
    int failed = 0;
    for (const TestProgram::Class& c : classes)
        failed += c.run(argc, argv);
    return std::min(failed, 127);
}
