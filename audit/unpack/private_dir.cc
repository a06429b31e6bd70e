#include "audit/unpack/private_dir.h"

#include <ftw.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <thread>
#include <vector>

namespace rocm_audit {
namespace {

std::mutex g_mutex;
std::vector<std::string>* g_live =
    new std::vector<std::string>;  // never destroyed: the signal thread may outlive main

int RemoveOne(const char* path, const struct stat*, int type, struct FTW*) {
  if (type == FTW_DP || type == FTW_D)
    rmdir(path);
  else
    unlink(path);
  return 0;
}

// Blocks the cleanup signals in every thread started after this (they inherit the mask), and
// starts the one thread that takes them.
void StartSignalThread() {
  static std::once_flag once;
  std::call_once(once, [] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread([set] {
      int sig = 0;
      sigwait(&set, &sig);
      {
        std::lock_guard<std::mutex> lock(g_mutex);
        // Unpacking may still be writing: moved aside first, the directory takes no new
        // member (every write goes through its path), and what was in flight is removed too.
        for (const std::string& dir : *g_live) {
          std::string aside = dir + ".removing";
          if (rename(dir.c_str(), aside.c_str()) != 0) aside = dir;
          RemoveTree(aside);
          RemoveTree(aside);
        }
        g_live->clear();
      }
      // The status a shell reports for death by this signal.
      _exit(128 + sig);
    }).detach();
  });
}

}  // namespace

void RemoveTree(const std::string& path) {
  if (path.empty()) return;
  nftw(path.c_str(), RemoveOne, 16, FTW_PHYS | FTW_DEPTH | FTW_MOUNT);
}

PrivateDir::PrivateDir(std::string* error) {
  StartSignalThread();
  const char* tmp = getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/rocm-audit-unpack-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!mkdtemp(buf.data())) {
    *error = "cannot create a private directory under " + pattern.substr(0, pattern.rfind('/'));
    return;
  }
  path_ = buf.data();
  g_live->push_back(path_);
}

PrivateDir::~PrivateDir() {
  if (path_.empty()) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  RemoveTree(path_);
  g_live->erase(std::remove(g_live->begin(), g_live->end(), path_), g_live->end());
}

}  // namespace rocm_audit
