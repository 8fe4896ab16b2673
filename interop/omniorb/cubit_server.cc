// Cubit server for interoperability tests.
//
// Serves one Cubit servant under the object key "Cubit" through omniORB's
// omniINSPOA, so that corbaloc::1.2@HOST:PORT/Cubit reaches it. Prints the
// stringified IOR as the first line of standard output, then serves until a
// client invokes shutdown().
//
// Usage: cubit_server [-ORBendPoint giop:tcp:127.0.0.1:PORT] [other -ORB options]

#include <omniORB4/CORBA.h>

#include <cstdint>
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

    PortableServer::POAManager_var manager = ins_poa->the_POAManager();
    manager->activate();

    orb->run();
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
