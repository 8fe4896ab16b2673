// Cubit client for interoperability tests.
//
// Calls every Cubit operation once, in this order, with these arguments, and
// checks every result (the expected values are the cubes, wrapping as the
// IDL type wraps):
//
//   1. cube_octet(3)                              -> 27
//   2. cube_short(-7)                             -> -343
//   3. cube_long(1234)                            -> 1879080904
//   4. cube_struct({o = 2, l = -3, s = 5})        -> {8, -27, 125}
//   5. cube_long_sequence([1, 2, 3, -4])          -> [1, 8, 27, -64]
//   6. cube_long_sequence([0, 1, ..., 1023])      -> [i^3]
//   7. cube_octet_sequence([1, 2, ..., 16])       -> [i^3 mod 256]
//   8. cube_octet_sequence([i mod 256; 2000])     -> [(i mod 256)^3 mod 256]
//   9. cube_octet_sequence([(7 i) mod 256; N])    only with --big N
//  10. cube_void()
//  11. shutdown()                                 only with --shutdown (oneway)
//
// Usage: cubit_client [--giop 1.0|1.1|1.2] [--big N] [--shutdown]
//                     [-ORB options] TARGET
// TARGET is a stringified IOR or a corbaloc URL such as
// corbaloc::1.2@127.0.0.1:PORT/Cubit. --giop V is shorthand for
// -ORBmaxGIOPVersion V. Exits 0 when every result is right, 1 on a wrong
// result, 2 on a usage error, 3 on a CORBA exception.
//
// Fragments: omniORB 4.2.5 has no fragment-size option. It marshals into
// 8192-octet buffers and, under GIOP 1.1 and 1.2, sends each full buffer as
// one fragment; octet arrays of 16384 octets or more bypass the buffers and
// are sent whole, followed by a Fragment with no data. So --big 16380 gives a
// request (and reply) of three messages, 8192 + 8192 + the rest, and
// --big 40000 gives one long message and an empty last Fragment. GIOP 1.0
// cannot fragment; omniORB then sends one message of the full size.

#include <omniORB4/CORBA.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cubit.hh"

namespace {

int failures = 0;

template <typename T>
void check(const char* what, T got, T want) {
  if (got != want) {
    std::cerr << "cubit_client: " << what << ": got " << static_cast<long long>(got)
              << ", want " << static_cast<long long>(want) << std::endl;
    ++failures;
  }
}

CORBA::Octet cube_u8(CORBA::Octet v) {
  uint32_t x = v;
  return static_cast<CORBA::Octet>((x * x * x) & 0xffu);
}

CORBA::Long cube_i32(CORBA::Long v) {
  uint32_t x = static_cast<uint32_t>(v);
  return static_cast<CORBA::Long>(x * x * x);
}

void call_long_sequence(Cubit_ptr cubit, const std::vector<CORBA::Long>& in) {
  Cubit::long_seq seq(static_cast<CORBA::ULong>(in.size()));
  seq.length(static_cast<CORBA::ULong>(in.size()));
  for (CORBA::ULong i = 0; i < seq.length(); ++i) seq[i] = in[i];
  Cubit::long_seq_var out = cubit->cube_long_sequence(seq);
  check("cube_long_sequence length", out->length(), seq.length());
  for (CORBA::ULong i = 0; i < seq.length() && i < out->length(); ++i) {
    check("cube_long_sequence element", out[i], cube_i32(in[i]));
  }
}

void call_octet_sequence(Cubit_ptr cubit, const std::vector<CORBA::Octet>& in) {
  Cubit::octet_seq seq(static_cast<CORBA::ULong>(in.size()));
  seq.length(static_cast<CORBA::ULong>(in.size()));
  for (CORBA::ULong i = 0; i < seq.length(); ++i) seq[i] = in[i];
  Cubit::octet_seq_var out = cubit->cube_octet_sequence(seq);
  check("cube_octet_sequence length", out->length(), seq.length());
  for (CORBA::ULong i = 0; i < seq.length() && i < out->length(); ++i) {
    check("cube_octet_sequence element", out[i], cube_u8(in[i]));
  }
}

int usage() {
  std::cerr << "usage: cubit_client [--giop 1.0|1.1|1.2] [--big N] [--shutdown] "
               "[-ORB options] TARGET"
            << std::endl;
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> orb_args;
  orb_args.push_back(argv[0]);
  std::string target;
  bool do_shutdown = false;
  unsigned long big = 0;

  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--giop") {
      if (i + 1 >= argc) return usage();
      std::string v = argv[++i];
      if (v != "1.0" && v != "1.1" && v != "1.2") return usage();
      orb_args.push_back("-ORBmaxGIOPVersion");
      orb_args.push_back(v);
    } else if (arg == "--big") {
      if (i + 1 >= argc) return usage();
      char* end = nullptr;
      big = std::strtoul(argv[++i], &end, 10);
      if (end == nullptr || *end != '\0') return usage();
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

  std::vector<char*> orb_argv;
  for (std::string& a : orb_args) orb_argv.push_back(&a[0]);
  orb_argv.push_back(nullptr);
  int orb_argc = static_cast<int>(orb_args.size());

  try {
    CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, orb_argv.data());
    CORBA::Object_var obj = orb->string_to_object(target.c_str());
    // Unchecked, so that no _is_a request precedes the Cubit calls.
    Cubit_var cubit = Cubit::_unchecked_narrow(obj);
    if (CORBA::is_nil(cubit)) {
      std::cerr << "cubit_client: nil object reference" << std::endl;
      return 3;
    }

    check("cube_octet", cubit->cube_octet(3), static_cast<CORBA::Octet>(27));
    check("cube_short", cubit->cube_short(-7), static_cast<CORBA::Short>(-343));
    check("cube_long", cubit->cube_long(1234), static_cast<CORBA::Long>(1879080904));

    Cubit::Many m;
    m.o = 2;
    m.l = -3;
    m.s = 5;
    Cubit::Many r = cubit->cube_struct(m);
    check("cube_struct.o", r.o, static_cast<CORBA::Octet>(8));
    check("cube_struct.l", r.l, static_cast<CORBA::Long>(-27));
    check("cube_struct.s", r.s, static_cast<CORBA::Short>(125));

    call_long_sequence(cubit, {1, 2, 3, -4});
    std::vector<CORBA::Long> longs(1024);
    for (size_t i = 0; i < longs.size(); ++i) longs[i] = static_cast<CORBA::Long>(i);
    call_long_sequence(cubit, longs);

    std::vector<CORBA::Octet> small(16);
    for (size_t i = 0; i < small.size(); ++i) small[i] = static_cast<CORBA::Octet>(i + 1);
    call_octet_sequence(cubit, small);
    std::vector<CORBA::Octet> octets(2000);
    for (size_t i = 0; i < octets.size(); ++i) octets[i] = static_cast<CORBA::Octet>(i & 0xff);
    call_octet_sequence(cubit, octets);

    if (big > 0) {
      std::vector<CORBA::Octet> large(big);
      for (size_t i = 0; i < large.size(); ++i) {
        large[i] = static_cast<CORBA::Octet>((i * 7) & 0xff);
      }
      call_octet_sequence(cubit, large);
    }

    cubit->cube_void();

    if (do_shutdown) cubit->shutdown();

    orb->destroy();
  } catch (CORBA::SystemException& ex) {
    std::cerr << "cubit_client: CORBA system exception " << ex._name() << " minor 0x"
              << std::hex << ex.minor() << std::endl;
    return 3;
  } catch (CORBA::Exception& ex) {
    std::cerr << "cubit_client: CORBA exception " << ex._name() << std::endl;
    return 3;
  }

  if (failures > 0) {
    std::cerr << "cubit_client: " << failures << " wrong result(s)" << std::endl;
    return 1;
  }
  std::cout << "cubit_client: all results correct" << std::endl;
  return 0;
}
