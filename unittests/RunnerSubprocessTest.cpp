//===- RunnerSubprocessTest.cpp - nvfp4-run: child processes
//----------------===//

#include "nvfp4-run/Subprocess.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <string>
#include <unistd.h>

using namespace nvfp4::run;

namespace {

TEST(RunnerSubprocess, ReportsExitCodeAndMessages) {
  ChildResult r = runInChild(
      [](int fd) {
        EXPECT_EQ(write(fd, "copy 4270\n", 10), 10);
        return 3;
      },
      10);
  EXPECT_EQ(r.kind, ChildResult::Kind::Exited);
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.messages, "copy 4270\n");
  r = runInChild([](int) { return 0; }, 10);
  EXPECT_EQ(r.kind, ChildResult::Kind::Exited);
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.messages, "");
}

TEST(RunnerSubprocess, ReportsCrashesAndHangs) {
  ChildResult r = runInChild(
      [](int) {
        std::raise(SIGTERM);
        return 0;
      },
      10);
  EXPECT_EQ(r.kind, ChildResult::Kind::Signaled);
  EXPECT_EQ(r.code, SIGTERM);

  auto start = std::chrono::steady_clock::now();
  r = runInChild(
      [](int) {
        pause();
        return 0;
      },
      1);
  EXPECT_EQ(r.kind, ChildResult::Kind::TimedOut);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

} // namespace
