// The server of the priority-inversion benchmark on omniORB: two Cubit
// servants under the plain object keys "High" and "Low" in omniORB's
// omniINSPOA, so that corbaloc::1.2@HOST:PORT/High and .../Low reach them
// from any ORB.
//
// It listens on the fixed endpoint given with -ORBendPoint
// giop:tcp:HOST:PORT (a port must be named: the URLs are made from it),
// prints "High URL" and "Low URL", then "ready", and serves until its
// standard input closes or a client invokes shutdown(); then it prints
// "shut down". Every request runs at the process's one priority: omniORB
// has no Real-time CORBA.
//
// It locks its memory (mlockall), as rtorb's server does, unless given
// --no-mlock; where the system refuses it warns and goes on.
//
// Usage: priority_server -ORBendPoint giop:tcp:HOST:PORT [--no-mlock]
//                        [other -ORB options]
// Exits 0 after a clean shutdown, 2 on a usage error, 3 on a CORBA
// exception.

#include <omniORB4/CORBA.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cubit.hh"

namespace {

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

class PriorityCubit : public POA_Cubit {
 public:
  explicit PriorityCubit(CORBA::ORB_ptr orb) : orb_(CORBA::ORB::_duplicate(orb)) {}

  void cube_void() override {}
  CORBA::Octet cube_octet(CORBA::Octet o) override { return cube_u8(o); }
  CORBA::Short cube_short(CORBA::Short s) override { return cube_i16(s); }
  CORBA::Long cube_long(CORBA::Long l) override { return cube_i32(l); }

  Cubit::Many cube_struct(const Cubit::Many& m) override {
    Cubit::Many r;
    r.o = cube_u8(m.o);
    r.l = cube_i32(m.l);
    r.s = cube_i16(m.s);
    return r;
  }

  Cubit::long_seq* cube_long_sequence(const Cubit::long_seq& s) override {
    Cubit::long_seq* r = new Cubit::long_seq(s.length());
    r->length(s.length());
    for (CORBA::ULong i = 0; i < s.length(); ++i) (*r)[i] = cube_i32(s[i]);
    return r;
  }

  Cubit::octet_seq* cube_octet_sequence(const Cubit::octet_seq& s) override {
    Cubit::octet_seq* r = new Cubit::octet_seq(s.length());
    r->length(s.length());
    for (CORBA::ULong i = 0; i < s.length(); ++i) (*r)[i] = cube_u8(s[i]);
    return r;
  }

  void shutdown() override { orb_->shutdown(0); }

 private:
  CORBA::ORB_var orb_;
};

// HOST:PORT of a giop:tcp:HOST:PORT endpoint, or "" if it names no port.
std::string host_port(const std::string& endpoint) {
  const std::string prefix = "giop:tcp:";
  if (endpoint.compare(0, prefix.size(), prefix) != 0) return "";
  std::string rest = endpoint.substr(prefix.size());
  size_t colon = rest.rfind(':');
  if (colon == std::string::npos || colon + 1 == rest.size() || colon == 0) return "";
  for (size_t i = colon + 1; i < rest.size(); ++i) {
    if (rest[i] < '0' || rest[i] > '9') return "";
  }
  if (rest.substr(colon + 1) == "0") return "";
  return rest;
}

}  // namespace

int main(int argc, char** argv) {
  std::string address;
  bool mlock = true;
  for (int i = 1; i < argc; ++i) {
    if (i + 1 < argc && strcasecmp(argv[i], "-ORBendPoint") == 0) {
      address = host_port(argv[i + 1]);
    }
    if (std::strcmp(argv[i], "--no-mlock") == 0) mlock = false;
  }
  if (address.empty()) {
    std::cerr << "usage: priority_server -ORBendPoint giop:tcp:HOST:PORT [--no-mlock] "
                 "[-ORB options] "
                 "(a fixed port: the corbaloc URLs are made from it)"
              << std::endl;
    return 2;
  }
  if (mlock && mlockall(MCL_CURRENT | MCL_FUTURE) != 0) {
    std::cerr << "priority_server: WARNING: cannot lock the memory (mlockall: "
              << std::strerror(errno) << "): going on without" << std::endl;
  }
  try {
    CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
    CORBA::Object_var ins_obj = orb->resolve_initial_references("omniINSPOA");
    PortableServer::POA_var ins_poa = PortableServer::POA::_narrow(ins_obj);
    for (const char* key : {"High", "Low"}) {
      PriorityCubit* servant = new PriorityCubit(orb);
      PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId(key);
      ins_poa->activate_object_with_id(oid, servant);
      servant->_remove_ref();
      std::cout << key << " corbaloc::1.2@" << address << "/" << key << "\n";
    }
    PortableServer::POAManager_var manager = ins_poa->the_POAManager();
    manager->activate();
    std::cout << "ready" << std::endl;

    // Standard input closing stops the server; the thread is left blocked
    // in read() if a client's shutdown() comes first.
    CORBA::ORB_ptr for_stdin = CORBA::ORB::_duplicate(orb);
    std::thread([for_stdin] {
      char sink[256];
      while (read(0, sink, sizeof sink) > 0) {
      }
      for_stdin->shutdown(0);
    }).detach();

    orb->run();
    std::cout << "shut down" << std::endl;
    // The stdin thread may still hold its reference: leave the ORB to the
    // process's exit.
    std::fflush(stdout);
    _exit(0);
  } catch (CORBA::SystemException& ex) {
    std::cerr << "priority_server: CORBA system exception " << ex._name() << " minor "
              << ex.minor() << std::endl;
    return 3;
  } catch (CORBA::Exception& ex) {
    std::cerr << "priority_server: CORBA exception " << ex._name() << std::endl;
    return 3;
  }
}
