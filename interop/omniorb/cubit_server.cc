// Cubit server for interoperability tests.
//
// Serves one Cubit servant under the object key "Cubit" through omniORB's
// omniINSPOA, so that corbaloc::1.2@HOST:PORT/Cubit reaches it. Prints the
// stringified IOR as the first line of standard output, then serves until a
// client invokes shutdown().
//
// With -forward, it also serves a POA whose servant locator forwards every
// request to the Cubit (ForwardRequest, a LOCATION_FORWARD reply), counting
// them: it prints "forwarder IOR" after the Cubit's IOR, and "forwarded N"
// when it shuts down.
//
// Usage: cubit_server [-forward] [-ORBendPoint giop:tcp:127.0.0.1:PORT] [other -ORB options]

#include <omniORB4/CORBA.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <iostream>

#include "cubit.hh"

namespace {

// Cubes in unsigned arithmetic so that overflow wraps as the IDL type wraps.
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

class CubitImpl : public POA_Cubit {
 public:
  explicit CubitImpl(CORBA::ORB_ptr orb) : orb_(CORBA::ORB::_duplicate(orb)) {}

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

// Forwards every request to one object, counting them.
class Forwarder : public POA_PortableServer::ServantLocator {
 public:
  explicit Forwarder(CORBA::Object_ptr to) : to_(CORBA::Object::_duplicate(to)) {}

  PortableServer::Servant preinvoke(const PortableServer::ObjectId&, PortableServer::POA_ptr,
                                    const char*,
                                    PortableServer::ServantLocator::Cookie&) override {
    ++asked_;
    throw PortableServer::ForwardRequest(to_);
  }

  void postinvoke(const PortableServer::ObjectId&, PortableServer::POA_ptr, const char*,
                  PortableServer::ServantLocator::Cookie, PortableServer::Servant) override {}

  unsigned long asked() const { return asked_.load(); }

 private:
  CORBA::Object_var to_;
  std::atomic<unsigned long> asked_{0};
};

// A POA under the root POA whose locator forwards to `to`; prints the
// reference to one of its objects.
Forwarder* serve_forwarder(CORBA::ORB_ptr orb, CORBA::Object_ptr to) {
  CORBA::Object_var root_obj = orb->resolve_initial_references("RootPOA");
  PortableServer::POA_var root = PortableServer::POA::_narrow(root_obj);
  CORBA::PolicyList policies;
  policies.length(3);
  policies[0] = root->create_id_assignment_policy(PortableServer::USER_ID);
  policies[1] = root->create_servant_retention_policy(PortableServer::NON_RETAIN);
  policies[2] = root->create_request_processing_policy(PortableServer::USE_SERVANT_MANAGER);
  PortableServer::POAManager_var manager = root->the_POAManager();
  PortableServer::POA_var poa = root->create_POA("forwarding", manager, policies);
  Forwarder* forwarder = new Forwarder(to);
  PortableServer::ServantLocator_var locator = forwarder->_this();
  poa->set_servant_manager(locator);
  PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId("moved");
  CORBA::Object_var moved = poa->create_reference_with_id(oid, "IDL:Cubit:1.0");
  CORBA::String_var ior = orb->object_to_string(moved);
  std::cout << "forwarder " << ior.in() << std::endl;
  manager->activate();
  return forwarder;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);

    CORBA::Object_var ins_obj = orb->resolve_initial_references("omniINSPOA");
    PortableServer::POA_var ins_poa = PortableServer::POA::_narrow(ins_obj);

    CubitImpl* servant = new CubitImpl(orb);
    PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId("Cubit");
    ins_poa->activate_object_with_id(oid, servant);
    servant->_remove_ref();

    CORBA::Object_var obj = ins_poa->id_to_reference(oid);
    CORBA::String_var ior = orb->object_to_string(obj);
    std::cout << ior.in() << std::endl;

    Forwarder* forwarder = nullptr;
    for (int i = 1; i < argc; ++i) {
      if (std::strcmp(argv[i], "-forward") == 0) forwarder = serve_forwarder(orb, obj);
    }

    PortableServer::POAManager_var manager = ins_poa->the_POAManager();
    manager->activate();

    orb->run();
    if (forwarder) std::cout << "forwarded " << forwarder->asked() << std::endl;
    orb->destroy();
  } catch (CORBA::SystemException& ex) {
    std::cerr << "cubit_server: CORBA system exception " << ex._name() << " minor "
              << ex.minor() << std::endl;
    return 1;
  } catch (CORBA::Exception& ex) {
    std::cerr << "cubit_server: CORBA exception " << ex._name() << std::endl;
    return 1;
  }
  return 0;
}
