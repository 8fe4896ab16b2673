// The client of the priority-inversion benchmark on omniORB, the peer of
// `rtorb-bench priority-client`, with the same protocol and figures.
//
// One high-priority thread C0 calls HIGH and N low-priority threads call
// LOW, twoway cube_octet, each thread with its own object reference. Each
// thread's slot k is due at start + k * period on CLOCK_MONOTONIC, start
// common to all threads (the phases aligned) and, with --slot-grid-ns G
// --slot-at-ns A, at a time that is A modulo G (where the benchmark put
// C0's slots against the kernel's tick); a thread sleeps until its
// slot with clock_nanosleep(TIMER_ABSTIME), issues a late call at once and
// skips no slot, and stops at the end of its last slot, counting the slots
// left as missed. A call whose reply comes after its deadline (the next
// slot) is missed too; missed_late_wakeup counts the misses a late
// wake-up caused: the thread woke late for the slot or an earlier one, and
// no call since took longer than the period.
//
// C0 runs under SCHED_FIFO 90, the low threads under SCHED_FIFO 10
// (--policy other: all under SCHED_OTHER); where the process may not use
// SCHED_FIFO it says so and runs them under SCHED_OTHER. A watchdog thread
// at the most urgent SCHED_FIFO priority puts every thread under
// SCHED_OTHER and exits 4 if the run overruns its deadline.
//
// It prints one JSON object: orb, policy, note, and for "high" (C0) and
// "low" (the low threads together) threads, slots, calls, missed,
// missed_late_wakeup, mean_us,
// p50_us, p99_us, max_us, stddev_us (population standard deviation), and
// client_locks and server_locks as null (omniORB does not count them). A
// percentile is the smallest time that at least that fraction of the
// calls took no longer than.
//
// It locks its memory (mlockall), as rtorb's client does, unless given
// --no-mlock; where the system refuses it warns and goes on.
//
// Usage: priority_client [-n N] [--high-hz HZ] [--low-hz HZ]
//                        [--duration-ms MS] [--policy fifo|other]
//                        [--watchdog-ms MS] [--no-mlock] [-ORB options]
//                        HIGH LOW
// The watchdog's deadline is by default twice the run, and 20 s.
// Exits 0 on success, 1 on a wrong result, 2 on a usage error, 3 on a
// CORBA exception, 4 when the watchdog fired.

#include <omniORB4/CORBA.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <iostream>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <sched.h>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <algorithm>
#include <vector>

#include "cubit.hh"

namespace {

constexpr int kHighFifo = 90;
constexpr int kLowFifo = 10;
constexpr unsigned kWarmupCalls = 5;
constexpr uint64_t kStartDelayNs = 20000000;
constexpr CORBA::ULong kCallTimeoutMs = 10000;

uint64_t now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<uint64_t>(t.tv_sec) * 1000000000u + static_cast<uint64_t>(t.tv_nsec);
}

void sleep_until(uint64_t at) {
  timespec t;
  t.tv_sec = static_cast<time_t>(at / 1000000000u);
  t.tv_nsec = static_cast<long>(at % 1000000000u);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, nullptr) == EINTR) {
  }
}

CORBA::Octet cube_u8(CORBA::Octet v) {
  uint32_t x = v;
  return static_cast<CORBA::Octet>((x * x * x) & 0xffu);
}

// Every thread waits until all have arrived, twice over a run.
class Barrier {
 public:
  explicit Barrier(size_t count) : count_(count) {}
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    size_t round = round_;
    if (++arrived_ == count_) {
      arrived_ = 0;
      ++round_;
      changed_.notify_all();
      return;
    }
    changed_.wait(lock, [&] { return round_ != round; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  size_t count_;
  size_t arrived_ = 0;
  size_t round_ = 0;
};

// Puts every thread of the process under SCHED_OTHER.
int demote_all() {
  int demoted = 0;
  DIR* dir = opendir("/proc/self/task");
  if (!dir) return 0;
  sched_param param;
  std::memset(&param, 0, sizeof param);
  while (dirent* e = readdir(dir)) {
    pid_t tid = static_cast<pid_t>(std::atoi(e->d_name));
    if (tid <= 0) continue;
    int policy = sched_getscheduler(tid);
    if ((policy == SCHED_FIFO || policy == SCHED_RR) &&
        sched_setscheduler(tid, SCHED_OTHER, &param) == 0) {
      ++demoted;
    }
  }
  closedir(dir);
  return demoted;
}

// Waits, at the most urgent SCHED_FIFO priority it may have, for the run to
// end; at the deadline demotes every thread and ends the process.
class Watchdog {
 public:
  explicit Watchdog(uint64_t deadline_ms) {
    thread_ = std::thread([this, deadline_ms] {
      sched_param p;
      std::memset(&p, 0, sizeof p);
      p.sched_priority = sched_get_priority_max(SCHED_FIFO);
      pthread_setschedparam(pthread_self(), SCHED_FIFO, &p);
      std::unique_lock<std::mutex> lock(mutex_);
      bool done = changed_.wait_for(lock, std::chrono::milliseconds(deadline_ms),
                                    [this] { return disarmed_; });
      if (done) return;
      int demoted = demote_all();
      std::cerr << "priority_client: watchdog: the run did not finish within " << deadline_ms
                << " ms; " << demoted << " threads now run under SCHED_OTHER" << std::endl;
      _exit(4);
    });
  }
  void disarm() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      disarmed_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool disarmed_ = false;
  std::thread thread_;
};

struct ThreadResult {
  std::vector<uint64_t> latencies_ns;
  uint64_t slots = 0;
  uint64_t missed = 0;
  uint64_t missed_late_wakeup = 0;
  std::string error;
};

std::atomic<bool> denied{false};

// Puts the calling thread under SCHED_FIFO at `priority`; on refusal says
// so once and leaves it under SCHED_OTHER.
void set_fifo(int priority) {
  sched_param p;
  std::memset(&p, 0, sizeof p);
  p.sched_priority = priority;
  int rc = pthread_setschedparam(pthread_self(), SCHED_FIFO, &p);
  if (rc == EPERM || rc == EACCES) {
    if (!denied.exchange(true)) {
      std::cerr << "priority_client: WARNING: this process may not use SCHED_FIFO (run as "
                   "root, with CAP_SYS_NICE or a raised RLIMIT_RTPRIO): every thread runs "
                   "under SCHED_OTHER"
                << std::endl;
    }
  } else if (rc != 0) {
    std::cerr << "priority_client: SCHED_FIFO " << priority << ": " << std::strerror(rc)
              << std::endl;
  }
}

// One thread: its priority, warm-up, then one call per slot.
void run_thread(Cubit_ptr cubit, bool fifo, int priority, uint64_t period, uint64_t slots,
                Barrier& barrier, const std::atomic<uint64_t>& start, ThreadResult& out) {
  out.slots = slots;
  try {
    if (fifo) set_fifo(priority);
    for (unsigned i = 0; i < kWarmupCalls; ++i) {
      if (cubit->cube_octet(static_cast<CORBA::Octet>(i)) != cube_u8(static_cast<CORBA::Octet>(i))) {
        out.error = "wrong result in a warm-up call";
      }
    }
  } catch (CORBA::Exception& ex) {
    out.error = std::string("warm-up call: CORBA exception ") + ex._name();
  }
  barrier.wait();
  barrier.wait();
  if (!out.error.empty()) return;
  out.latencies_ns.reserve(slots);
  uint64_t begin = start.load();
  uint64_t end = begin + slots * period;
  // Whether the lateness carried, if any, is the timer's: set by a sleep,
  // lost when a call overruns the period.
  bool timer_late = true;
  try {
    for (uint64_t k = 0; k < slots; ++k) {
      uint64_t due = begin + k * period;
      uint64_t now = now_ns();
      if (now < due) {
        sleep_until(due);
        now = now_ns();
        timer_late = true;
      }
      if (now >= end) {
        out.missed += slots - k;
        break;
      }
      CORBA::Octet o = static_cast<CORBA::Octet>(k);
      CORBA::Octet r = cubit->cube_octet(o);
      uint64_t replied = now_ns();
      if (r != cube_u8(o)) {
        out.error = "wrong result in slot " + std::to_string(k);
        return;
      }
      out.latencies_ns.push_back(replied - now);
      if (replied > begin + (k + 1) * period) {
        ++out.missed;
        // Woken too late: a round trip within the period missed anyway.
        if (timer_late && replied - now <= period) ++out.missed_late_wakeup;
      }
      timer_late = timer_late && replied - now <= period;
    }
  } catch (CORBA::Exception& ex) {
    out.error = std::string("CORBA exception ") + ex._name();
  }
}

uint64_t quantile(const std::vector<uint64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  rank = std::min(std::max<size_t>(rank, 1), sorted.size());
  return sorted[rank - 1];
}

// The figures of a class of threads, as JSON.
std::string class_json(const std::vector<ThreadResult>& results, size_t from, size_t to) {
  std::vector<uint64_t> all;
  uint64_t slots = 0, missed = 0, late = 0;
  for (size_t i = from; i < to; ++i) {
    all.insert(all.end(), results[i].latencies_ns.begin(), results[i].latencies_ns.end());
    slots += results[i].slots;
    missed += results[i].missed;
    late += results[i].missed_late_wakeup;
  }
  std::sort(all.begin(), all.end());
  double mean = 0, var = 0;
  if (!all.empty()) {
    for (uint64_t v : all) mean += static_cast<double>(v);
    mean /= static_cast<double>(all.size());
    for (uint64_t v : all) var += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
    var /= static_cast<double>(all.size());
  }
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "{\"threads\":%zu,\"slots\":%llu,\"calls\":%zu,\"missed\":%llu,"
                "\"missed_late_wakeup\":%llu,\"mean_us\":%.3f,\"p50_us\":%.3f,\"p99_us\":%.3f,\"max_us\":%.3f,"
                "\"stddev_us\":%.3f,\"client_locks\":null,\"server_locks\":null}",
                to - from, static_cast<unsigned long long>(slots), all.size(),
                static_cast<unsigned long long>(missed), static_cast<unsigned long long>(late),
                mean / 1000.0,
                static_cast<double>(quantile(all, 0.5)) / 1000.0,
                static_cast<double>(quantile(all, 0.99)) / 1000.0,
                static_cast<double>(all.empty() ? 0 : all.back()) / 1000.0,
                std::sqrt(var) / 1000.0);
  return buf;
}

int usage() {
  std::cerr << "usage: priority_client [-n N] [--high-hz HZ] [--low-hz HZ] [--duration-ms MS] "
               "[--policy fifo|other] [--watchdog-ms MS] [--no-mlock] [--slot-grid-ns NS] "
               "[--slot-at-ns NS] [-ORB options] HIGH LOW"
            << std::endl;
  return 2;
}

bool parse_u64(const char* s, uint64_t lo, uint64_t hi, uint64_t& out) {
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi) return false;
  out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
    omniORB::setClientCallTimeout(kCallTimeoutMs);
    uint64_t lows = 1, high_hz = 20, low_hz = 10, duration_ms = 1000, watchdog_ms = 0;
    // The start of the slots falls at slot_at modulo slot_grid (1: anywhere).
    uint64_t slot_grid = 1, slot_at = 0;
    bool fifo = true, mlock = true;
    std::vector<std::string> targets;
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      bool has_value = i + 1 < argc;
      if (a == "-n" && has_value) {
        if (!parse_u64(argv[++i], 1, 1000, lows)) return usage();
      } else if (a == "--high-hz" && has_value) {
        if (!parse_u64(argv[++i], 1, 100000, high_hz)) return usage();
      } else if (a == "--low-hz" && has_value) {
        if (!parse_u64(argv[++i], 1, 100000, low_hz)) return usage();
      } else if (a == "--duration-ms" && has_value) {
        if (!parse_u64(argv[++i], 1, 3600000, duration_ms)) return usage();
      } else if (a == "--watchdog-ms" && has_value) {
        if (!parse_u64(argv[++i], 1, UINT64_MAX / 2, watchdog_ms)) return usage();
      } else if (a == "--slot-grid-ns" && has_value) {
        if (!parse_u64(argv[++i], 1, 1000000000, slot_grid)) return usage();
      } else if (a == "--slot-at-ns" && has_value) {
        if (!parse_u64(argv[++i], 0, UINT64_MAX / 2, slot_at)) return usage();
      } else if (a == "--policy" && has_value) {
        std::string p = argv[++i];
        if (p != "fifo" && p != "other") return usage();
        fifo = p == "fifo";
      } else if (a == "--no-mlock") {
        mlock = false;
      } else if (!a.empty() && a[0] == '-') {
        return usage();
      } else {
        targets.push_back(a);
      }
    }
    if (targets.size() != 2) return usage();
    if (mlock && mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
      std::cerr << "priority_client: WARNING: cannot lock the memory (mlockall: "
                << std::strerror(errno) << "): going on without" << std::endl;
    }

    size_t threads = static_cast<size_t>(lows) + 1;
    std::vector<Cubit_var> refs;
    for (size_t i = 0; i < threads; ++i) {
      CORBA::Object_var obj = orb->string_to_object(targets[i == 0 ? 0 : 1].c_str());
      Cubit_var cubit = Cubit::_unchecked_narrow(obj);
      if (CORBA::is_nil(cubit)) {
        std::cerr << "priority_client: no object at " << targets[i == 0 ? 0 : 1] << std::endl;
        return 2;
      }
      refs.push_back(cubit);
    }
    uint64_t high_period = 1000000000u / high_hz, low_period = 1000000000u / low_hz;
    uint64_t high_slots = std::max<uint64_t>(1, duration_ms * 1000000u / high_period);
    uint64_t low_slots = std::max<uint64_t>(1, duration_ms * 1000000u / low_period);

    if (watchdog_ms == 0) watchdog_ms = duration_ms * 2 + kCallTimeoutMs + 10000;
    Watchdog watchdog(watchdog_ms);
    Barrier barrier(threads + 1);
    std::atomic<uint64_t> start{0};
    std::vector<ThreadResult> results(threads);
    std::vector<std::thread> workers;
    for (size_t i = 0; i < threads; ++i) {
      bool high = i == 0;
      workers.emplace_back(run_thread, refs[i].in(), fifo, high ? kHighFifo : kLowFifo,
                           high ? high_period : low_period, high ? high_slots : low_slots,
                           std::ref(barrier), std::cref(start), std::ref(results[i]));
    }
    barrier.wait();
    uint64_t start_ns = now_ns() + kStartDelayNs;
    start_ns += (slot_at % slot_grid + slot_grid - start_ns % slot_grid) % slot_grid;
    start.store(start_ns);
    barrier.wait();
    for (std::thread& t : workers) t.join();
    watchdog.disarm();

    for (size_t i = 0; i < threads; ++i) {
      if (!results[i].error.empty()) {
        std::cerr << "priority_client: " << (i == 0 ? "C0" : "low " + std::to_string(i)) << ": "
                  << results[i].error << std::endl;
        return results[i].error.rfind("wrong", 0) == 0 ? 1 : 3;
      }
    }
    const char* policy = fifo && !denied.load() ? "SCHED_FIFO" : "SCHED_OTHER";
    std::string note = "null";
    if (!fifo) {
      note = "\"asked for (--policy other)\"";
    } else if (denied.load()) {
      note = "\"SCHED_FIFO is not permitted for this process\"";
    }
    std::cout << "{\"orb\":\"omniORB\",\"policy\":\"" << policy << "\",\"note\":" << note
              << ",\"start_ns\":" << start_ns << ",\"high\":" << class_json(results, 0, 1)
              << ",\"low\":" << class_json(results, 1, threads) << "}" << std::endl;
    refs.clear();
    orb->destroy();
  } catch (CORBA::SystemException& ex) {
    std::cerr << "priority_client: CORBA system exception " << ex._name() << " minor "
              << ex.minor() << std::endl;
    return 3;
  } catch (CORBA::Exception& ex) {
    std::cerr << "priority_client: CORBA exception " << ex._name() << std::endl;
    return 3;
  }
  return 0;
}
