// Cubit benchmark client on omniORB, the peer `rtorb-bench cubit` compares
// the rtorb ORB with.
//
// For each operation of the benchmark, in this order,
//
//   void            cube_void()
//   octet           cube_octet(i mod 256)
//   short           cube_short(i mod 65536)
//   long            cube_long(i)
//   struct          cube_struct({i, i, i})
//   long_seq_1      cube_long_sequence of 1 element
//   long_seq_1024   cube_long_sequence of 1024 elements (7 j - 3)
//   octet_seq_1     cube_octet_sequence of 1 element
//   octet_seq_1024  cube_octet_sequence of 1024 elements (7 j + 1 mod 256)
//
// it makes max(100, min(2000, N / 10)) warm-up calls, then N timed calls,
// checks every result, and prints one JSON object keyed by operation, each
// with calls, calls_per_s, mean_us, p50_us, p99_us, p999_us, max_us (and
// allocs and locks as null: they are not counted here). A percentile is
// the smallest time that at least that fraction of the calls took no
// longer than.
//
// Usage: cubit_bench [-n N] [--shutdown] [-ORB options] TARGET
// Exits 0 on success, 1 on a wrong result, 2 on a usage error, 3 on a
// CORBA exception.

#include <omniORB4/CORBA.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "cubit.hh"

namespace {

using Clock = std::chrono::steady_clock;

CORBA::Octet cube_u8(CORBA::Octet v) {
  uint32_t x = v;
  return static_cast<CORBA::Octet>((x * x * x) & 0xffu);
}

CORBA::Short cube_i16(CORBA::Short v) {
  uint32_t x = static_cast<uint16_t>(v);
  return static_cast<CORBA::Short>(static_cast<uint16_t>((x * x * x) & 0xffffu));
}

CORBA::Long cube_i32(CORBA::Long v) {
  uint32_t x = static_cast<uint32_t>(v);
  return static_cast<CORBA::Long>(x * x * x);
}

// One call: returns whether its result was right; `ns` gets its time.
using Call = std::function<bool(unsigned long i, uint64_t& ns)>;

struct Op {
  const char* name;
  Call call;
};

template <typename F>
uint64_t timed(F&& f) {
  Clock::time_point t = Clock::now();
  f();
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t).count());
}

Call long_seq_call(Cubit_ptr cubit, CORBA::ULong len) {
  Cubit::long_seq args(len);
  args.length(len);
  std::vector<CORBA::Long> want(len);
  for (CORBA::ULong j = 0; j < len; ++j) {
    args[j] = static_cast<CORBA::Long>(j) * 7 - 3;
    want[j] = cube_i32(args[j]);
  }
  return [cubit, args, want](unsigned long, uint64_t& ns) {
    Cubit::long_seq_var r;
    ns = timed([&] { r = cubit->cube_long_sequence(args); });
    if (r->length() != want.size()) return false;
    for (CORBA::ULong j = 0; j < r->length(); ++j) {
      if (r[j] != want[j]) return false;
    }
    return true;
  };
}

Call octet_seq_call(Cubit_ptr cubit, CORBA::ULong len) {
  Cubit::octet_seq args(len);
  args.length(len);
  std::vector<CORBA::Octet> want(len);
  for (CORBA::ULong j = 0; j < len; ++j) {
    args[j] = static_cast<CORBA::Octet>((j * 7 + 1) & 0xffu);
    want[j] = cube_u8(args[j]);
  }
  return [cubit, args, want](unsigned long, uint64_t& ns) {
    Cubit::octet_seq_var r;
    ns = timed([&] { r = cubit->cube_octet_sequence(args); });
    if (r->length() != want.size()) return false;
    for (CORBA::ULong j = 0; j < r->length(); ++j) {
      if (r[j] != want[j]) return false;
    }
    return true;
  };
}

double quantile_us(const std::vector<uint64_t>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  if (rank == 0) rank = 1;
  if (rank > sorted.size()) rank = sorted.size();
  return static_cast<double>(sorted[rank - 1]) / 1000.0;
}

int usage() {
  std::cerr << "usage: cubit_bench [-n N] [--shutdown] [-ORB options] TARGET" << std::endl;
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> orb_args;
  orb_args.push_back(argv[0]);
  std::string target;
  bool do_shutdown = false;
  unsigned long calls = 10000;

  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-n") {
      if (i + 1 >= argc) return usage();
      char* end = nullptr;
      calls = std::strtoul(argv[++i], &end, 10);
      if (end == nullptr || *end != '\0' || calls == 0) return usage();
    } else if (arg == "--shutdown") {
      do_shutdown = true;
    } else if (arg.rfind("-ORB", 0) == 0) {
      orb_args.push_back(arg);
      if (i + 1 < argc) orb_args.push_back(argv[++i]);
    } else if (target.empty()) {
      target = arg;
    } else {
      return usage();
    }
  }
  if (target.empty()) return usage();
  unsigned long warmup = std::max(100ul, std::min(2000ul, calls / 10));

  std::vector<char*> orb_argv;
  for (std::string& a : orb_args) orb_argv.push_back(&a[0]);
  orb_argv.push_back(nullptr);
  int orb_argc = static_cast<int>(orb_args.size());

  try {
    CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, orb_argv.data());
    CORBA::Object_var obj = orb->string_to_object(target.c_str());
    Cubit_var cubit = Cubit::_unchecked_narrow(obj);
    if (CORBA::is_nil(cubit)) {
      std::cerr << "cubit_bench: nil object reference" << std::endl;
      return 3;
    }
    Cubit_ptr c = cubit.in();
    std::vector<Op> ops = {
        {"void", [c](unsigned long, uint64_t& ns) {
           ns = timed([&] { c->cube_void(); });
           return true;
         }},
        {"octet", [c](unsigned long i, uint64_t& ns) {
           CORBA::Octet o = static_cast<CORBA::Octet>(i & 0xffu), r = 0;
           ns = timed([&] { r = c->cube_octet(o); });
           return r == cube_u8(o);
         }},
        {"short", [c](unsigned long i, uint64_t& ns) {
           CORBA::Short s = static_cast<CORBA::Short>(static_cast<uint16_t>(i)), r = 0;
           ns = timed([&] { r = c->cube_short(s); });
           return r == cube_i16(s);
         }},
        {"long", [c](unsigned long i, uint64_t& ns) {
           CORBA::Long l = static_cast<CORBA::Long>(i), r = 0;
           ns = timed([&] { r = c->cube_long(l); });
           return r == cube_i32(l);
         }},
        {"struct", [c](unsigned long i, uint64_t& ns) {
           Cubit::Many m, r;
           m.o = static_cast<CORBA::Octet>(i & 0xffu);
           m.l = static_cast<CORBA::Long>(i);
           m.s = static_cast<CORBA::Short>(static_cast<uint16_t>(i));
           ns = timed([&] { r = c->cube_struct(m); });
           return r.o == cube_u8(m.o) && r.l == cube_i32(m.l) && r.s == cube_i16(m.s);
         }},
        {"long_seq_1", long_seq_call(c, 1)},
        {"long_seq_1024", long_seq_call(c, 1024)},
        {"octet_seq_1", octet_seq_call(c, 1)},
        {"octet_seq_1024", octet_seq_call(c, 1024)},
    };

    std::string json = "{";
    std::vector<uint64_t> times;
    times.reserve(calls);
    for (size_t k = 0; k < ops.size(); ++k) {
      Op& op = ops[k];
      uint64_t ns = 0;
      for (unsigned long i = 0; i < warmup; ++i) {
        if (!op.call(i, ns)) {
          std::cerr << "cubit_bench: " << op.name << ": wrong result in warm-up call " << i
                    << std::endl;
          return 1;
        }
      }
      times.clear();
      Clock::time_point start = Clock::now();
      for (unsigned long i = 0; i < calls; ++i) {
        if (!op.call(i, ns)) {
          std::cerr << "cubit_bench: " << op.name << ": wrong result in call " << i << std::endl;
          return 1;
        }
        times.push_back(ns);
      }
      double total =
          std::chrono::duration_cast<std::chrono::duration<double>>(Clock::now() - start).count();
      std::sort(times.begin(), times.end());
      double sum = 0;
      for (uint64_t t : times) sum += static_cast<double>(t);
      char buf[512];
      std::snprintf(buf, sizeof buf,
                    "%s\"%s\":{\"calls\":%lu,\"calls_per_s\":%.3f,\"mean_us\":%.4f,"
                    "\"p50_us\":%.4f,\"p99_us\":%.4f,\"p999_us\":%.4f,\"max_us\":%.4f,"
                    "\"allocs\":null,\"locks\":null}",
                    k == 0 ? "" : ",", op.name, calls, static_cast<double>(calls) / total,
                    sum / static_cast<double>(calls) / 1000.0, quantile_us(times, 0.5),
                    quantile_us(times, 0.99), quantile_us(times, 0.999),
                    static_cast<double>(times.back()) / 1000.0);
      json += buf;
    }
    json += "}";
    std::cout << json << std::endl;

    if (do_shutdown) cubit->shutdown();
    orb->destroy();
  } catch (CORBA::SystemException& ex) {
    std::cerr << "cubit_bench: CORBA system exception " << ex._name() << " minor 0x" << std::hex
              << ex.minor() << std::endl;
    return 3;
  } catch (CORBA::Exception& ex) {
    std::cerr << "cubit_bench: CORBA exception " << ex._name() << std::endl;
    return 3;
  }
  return 0;
}
