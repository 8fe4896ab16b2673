// The omniORB server of the interoperability IDL (interop.idl).
//
// Serves one Interop::Tester under the object key "Tester" through
// omniORB's omniINSPOA, so that corbaloc::1.x@HOST:PORT/Tester reaches it.
// Prints the stringified IOR as the first line of standard output, then
// serves until it is killed.
//
// Every operation checks its arguments against the canonical values of
// interop_data.hh and raises Interop::Mismatch naming the argument when
// one differs (and prints the mismatch to standard error); it returns
// canonical values the client checks. Callbacks it makes check their
// results the same way.
//
// Usage: interop_server [-ORBendPoint giop:tcp:127.0.0.1:PORT] [-ORB options]

#include <omniORB4/CORBA.h>

#include <iostream>
#include <mutex>
#include <string>

#include "interop.hh"
#include "interop_data.hh"

namespace {

void mismatch(const char* what) {
  std::cerr << "interop_server: mismatch: " << what << std::endl;
  throw Interop::Mismatch(what);
}

class TesterImpl : public POA_Interop::Tester {
 public:
  char* name() override { return CORBA::string_dup(data::latin(6)); }

  CORBA::Long counter() override {
    std::lock_guard<std::mutex> g(mu_);
    return counter_;
  }

  void counter(CORBA::Long v) override {
    std::lock_guard<std::mutex> g(mu_);
    counter_ = v;
  }

  CORBA::Long base_op(CORBA::Long x) override { return x * 2 + 1; }

  CORBA::WChar* motto() override { return CORBA::wstring_dup(data::wide(4)); }

  Interop::Prims echo_prims(const Interop::Prims& p) override {
    if (!data::eq(p, data::prims(1))) mismatch("echo_prims: p");
    return data::prims(2);
  }

  Interop::Nested* echo_nested(const Interop::Nested& n, Interop::Point& p,
                               Interop::Longs_out l) override {
    if (!data::eq(n, data::nested(1))) mismatch("echo_nested: n");
    if (!data::eq(p, data::point(5))) mismatch("echo_nested: p");
    p = data::point(6);
    l = new Interop::Longs(data::longs(3));
    return new Interop::Nested(data::nested(2));
  }

  Interop::PointGrid* grid(const Interop::PointGrid& g) override {
    if (!data::eq(g, data::grid(4))) mismatch("grid: g");
    return new Interop::PointGrid(data::grid(5));
  }

  CORBA::Any* any_op(CORBA::Short which, const CORBA::Any& a) override {
    if (which < 0 || which >= data::kAnys || !data::any_is(a, which)) mismatch("any_op: a");
    return new CORBA::Any(data::any((which + 1) % data::kAnys));
  }

  Interop::Anys* echo_anys(const Interop::Anys& a) override {
    if (a.length() != static_cast<CORBA::ULong>(data::kAnys)) mismatch("echo_anys: length");
    for (int i = 0; i < data::kAnys; ++i)
      if (!data::any_is(a[i], i)) mismatch("echo_anys: element");
    Interop::Anys* r = new Interop::Anys;
    r->length(data::kAnys);
    for (int i = 0; i < data::kAnys; ++i) (*r)[i] = data::any(data::kAnys - 1 - i);
    return r;
  }

  Interop::LongUnion* long_union(CORBA::Short which, const Interop::LongUnion& u) override {
    if (which < 0 || which >= data::kLongUnions || !data::eq(u, data::long_union(which)))
      mismatch("long_union: u");
    return new Interop::LongUnion(data::long_union(which));
  }

  Interop::ColourUnion* colour_union(CORBA::Short which, const Interop::ColourUnion& u) override {
    if (which < 0 || which >= data::kColourUnions || !data::eq(u, data::colour_union(which)))
      mismatch("colour_union: u");
    return new Interop::ColourUnion(data::colour_union(which));
  }

  Interop::CharUnion* char_union(CORBA::Short which, const Interop::CharUnion& u) override {
    if (which < 0 || which >= data::kCharUnions || !data::eq(u, data::char_union(which)))
      mismatch("char_union: u");
    return new Interop::CharUnion(data::char_union(which));
  }

  Interop::BoolUnion bool_union(CORBA::Short which, const Interop::BoolUnion& u) override {
    if (which < 0 || which >= data::kBoolUnions || !data::eq(u, data::bool_union(which)))
      mismatch("bool_union: u");
    return data::bool_union(which);
  }

  Interop::ShortUnion* short_union(CORBA::Short which, const Interop::ShortUnion& u) override {
    if (which < 0 || which >= data::kShortUnions || !data::eq(u, data::short_union(which)))
      mismatch("short_union: u");
    return new Interop::ShortUnion(data::short_union(which));
  }

  char* text(const char* s, char*& io, CORBA::String_out o) override {
    if (std::strcmp(s, data::latin(0)) != 0) mismatch("text: s");
    if (std::strcmp(io, data::latin(1)) != 0) mismatch("text: io");
    CORBA::string_free(io);
    io = CORBA::string_dup(data::latin(2));
    o = CORBA::string_dup(data::latin(3));
    return CORBA::string_dup(data::latin(4));
  }

  CORBA::WChar* wide(const CORBA::WChar* w, CORBA::WChar*& io, CORBA::WChar& c) override {
    if (!data::wide_eq(w, data::wide(0))) mismatch("wide: w");
    if (!data::wide_eq(io, data::wide(1))) mismatch("wide: io");
    CORBA::wstring_free(io);
    io = CORBA::wstring_dup(data::wide(2));
    c = data::kWideChar;
    return CORBA::wstring_dup(data::wide(3));
  }

  CORBA::Any* wide_any(const CORBA::Any& a) override {
    const CORBA::WChar* w = nullptr;
    if (!(a >>= CORBA::Any::to_wstring(w, 0)) || !data::wide_eq(w, data::wide(0)))
      mismatch("wide_any: a");
    CORBA::Any* r = new CORBA::Any;
    *r <<= CORBA::Any::from_wchar(data::kWideChar);
    return r;
  }

  void fail(CORBA::Long which) override {
    if (which == 0) {
      throw Interop::Failure(-17, data::latin(9), data::longs(5));
    }
    if (which == 1) throw Interop::Empty();
  }

  void fail_system(CORBA::Long which) override {
    if (which == 0) throw CORBA::NO_PERMISSION(42, CORBA::COMPLETED_YES);
    if (which == 1) throw CORBA::BAD_PARAM(1234, CORBA::COMPLETED_NO);
    throw CORBA::IMP_LIMIT(3, CORBA::COMPLETED_MAYBE);
  }

  void post(const char* text) override {
    std::lock_guard<std::mutex> g(mu_);
    last_post_ = text;
  }

  char* last_post() override {
    std::lock_guard<std::mutex> g(mu_);
    return CORBA::string_dup(last_post_.c_str());
  }

  CORBA::Long call_back(Interop::Callback_ptr cb, CORBA::Long n) override {
    if (CORBA::is_nil(cb)) mismatch("call_back: nil callback");
    CORBA::Long r = cb->ping(n);
    if (r != n + 1) mismatch("call_back: the callback's ping result");
    return r + 1000;
  }

  CORBA::WChar* call_back_wide(Interop::Callback_ptr cb, const CORBA::WChar* w) override {
    if (CORBA::is_nil(cb)) mismatch("call_back_wide: nil callback");
    if (!data::wide_eq(w, data::wide(0))) mismatch("call_back_wide: w");
    CORBA::WString_var r = cb->wping(data::wide(1));
    if (!data::wide_eq(r.in(), data::wide(5))) mismatch("call_back_wide: the callback's result");
    return CORBA::wstring_dup(data::wide(3));
  }

  Interop::Callback_ptr echo_callback(Interop::Callback_ptr cb) override {
    return Interop::Callback::_duplicate(cb);
  }

  CORBA::Object_ptr echo_object(CORBA::Object_ptr o) override {
    return CORBA::Object::_duplicate(o);
  }

  Interop::Octets* big(const Interop::Octets& d) override {
    if (d.length() != data::kBigIn) mismatch("big: length");
    for (CORBA::ULong i = 0; i < d.length(); ++i)
      if (d[i] != data::big_in(i)) mismatch("big: octet");
    Interop::Octets* r = new Interop::Octets;
    r->length(data::kBigOut);
    for (CORBA::ULong i = 0; i < data::kBigOut; ++i) (*r)[i] = data::big_out(i);
    return r;
  }

  Interop::PointSeq* big_points(const Interop::PointSeq& d) override {
    if (!data::eq(d, data::points(1, data::kBigPointsIn))) mismatch("big_points: data");
    return new Interop::PointSeq(data::points(2, data::kBigPointsOut));
  }

 private:
  std::mutex mu_;
  CORBA::Long counter_ = 0;
  std::string last_post_;
};

}  // namespace

int main(int argc, char** argv) {
  try {
    CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);

    CORBA::Object_var ins_obj = orb->resolve_initial_references("omniINSPOA");
    PortableServer::POA_var ins_poa = PortableServer::POA::_narrow(ins_obj);

    TesterImpl* servant = new TesterImpl;
    PortableServer::ObjectId_var oid = PortableServer::string_to_ObjectId("Tester");
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
    std::cerr << "interop_server: CORBA system exception " << ex._name() << " minor "
              << ex.minor() << std::endl;
    return 1;
  } catch (CORBA::Exception& ex) {
    std::cerr << "interop_server: CORBA exception " << ex._name() << std::endl;
    return 1;
  }
  return 0;
}
