//===- Subprocess.cpp - Run one manifest in a child process ---------------===//

#include "nvfp4-run/Subprocess.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace nvfp4::run;

ChildResult nvfp4::run::runInChild(const std::function<int(int)> &body,
                                   int timeoutSeconds) {
  ChildResult result{ChildResult::Kind::ForkFailed};
  int fds[2];
  if (pipe(fds) != 0)
    return result;
  // Buffered output would otherwise be printed by both processes.
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return result;
  }
  if (pid == 0) {
    close(fds[0]);
    int code = body(fds[1]);
    std::fflush(nullptr);
    _exit(code);
  }
  close(fds[1]);

  // The child writes a few short lines, far below the pipe's capacity, so
  // reading after it exits cannot block it.
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(timeoutSeconds);
  int status = 0;
  bool timedOut = false, lost = false;
  while (true) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid)
      break;
    if (done < 0 && errno != EINTR) {
      lost = true;
      break;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
      timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }

  char buffer[4096];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof(buffer))) > 0 ||
         (n < 0 && errno == EINTR))
    if (n > 0)
      result.messages.append(buffer, n);
  close(fds[0]);

  if (lost) {
    result.kind = ChildResult::Kind::ForkFailed;
  } else if (timedOut) {
    result.kind = ChildResult::Kind::TimedOut;
  } else if (WIFEXITED(status)) {
    result.kind = ChildResult::Kind::Exited;
    result.code = WEXITSTATUS(status);
  } else {
    result.kind = ChildResult::Kind::Signaled;
    result.code = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }
  return result;
}
