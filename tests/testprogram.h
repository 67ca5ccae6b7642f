// SPDX-License-Identifier: MIT
#pragma once

#include <QTest>

#include <functional>
#include <vector>

/// Several test classes in one program (tests/testprogram.cpp has its main): each file registers its class with
/// RANKSCOPE_TEST_CLASS instead of QTEST_MAIN or QTEST_GUILESS_MAIN, and the main sets up what those did (the
/// class's initMain, then a QApplication where the program links the widgets, a QCoreApplication elsewhere). Every test
/// program pays once for Qt Test's and the core's headers and once for its link; a dozen small programs paid a dozen
/// times in each of CI's two builds. ctest still runs one class per process (`tst_core TestReader`), so a class sees
/// the process as it did alone.
namespace TestProgram {

struct Class
{
    const char* name;
    void (*initMain)(); // the class's static initMain(), where it has one: before the application exists
    std::function<int(int argc, char** argv)> run;
};

inline std::vector<Class>& classes()
{
    static std::vector<Class> registered;
    return registered;
}

struct Registration
{
    Registration(const char* name, void (*initMain)(), std::function<int(int, char**)> run)
    {
        classes().push_back({ name, initMain, std::move(run) });
    }
};

} // namespace TestProgram

#define RANKSCOPE_TEST_CLASS(TestObject)                                                                               \
    static const TestProgram::Registration registration##TestObject(                                                   \
        #TestObject, &QTest::Internal::callInitMain<TestObject>, [](int argc, char** argv) {                           \
            TestObject tc;                                                                                             \
            QTEST_SET_MAIN_SOURCE_PATH                                                                                 \
            return QTest::qExec(&tc, argc, argv);                                                                      \
        });
