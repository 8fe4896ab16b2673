// The omniORB client of the interoperability IDL (interop.idl).
//
// Calls every operation of Interop::Tester (and of its base Interop::Base)
// with the canonical arguments of interop_data.hh and checks every result,
// out and inout parameter, exception and callback. It serves an
// Interop::Callback that it passes to the server, which calls it back.
//
// Usage: interop_client [--giop 1.0|1.1|1.2] [--wide-expect EXC]
//                       [--motto-expect EXC] [-ORB options] TARGET
//
// TARGET is a stringified IOR or a corbaloc URL. --giop V is shorthand for
// -ORBmaxGIOPVersion V. EXC says what the operations that carry wide text
// must give: "ok" (the default: they work and their results are checked)
// or the name of the system exception they must raise, optionally with its
// minor code in hexadecimal ("MARSHAL:0x4f4d0006"). --wide-expect covers
// the wide text the client sends (wide, call_back_wide), --motto-expect the
// wide text the server returns (the motto attribute).
//
// Prints one line per failed check to standard error and exits 0 when
// every check passed, 1 when one failed, 2 on a usage error, 3 on an
// unexpected CORBA exception outside a check.

#include <omniORB4/CORBA.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "interop.hh"
#include "interop_data.hh"

namespace {

int failures = 0;

void fail(const std::string& what) {
  std::cerr << "interop_client: " << what << std::endl;
  ++failures;
}

void check(bool ok, const char* what) {
  if (!ok) fail(std::string("wrong result: ") + what);
}

std::string describe(const CORBA::Exception& ex) {
  std::ostringstream s;
  s << ex._name();
  if (const CORBA::SystemException* sys = CORBA::SystemException::_downcast(&ex)) {
    s << " minor 0x" << std::hex << sys->minor() << " completed " << std::dec
      << static_cast<int>(sys->completed());
  }
  if (const Interop::Mismatch* m = Interop::Mismatch::_downcast(&ex)) {
    s << " (" << m->what.in() << ")";
  }
  return s.str();
}

// What an operation must do: succeed, or raise this system exception.
struct Expect {
  bool ok = true;
  std::string name;
  bool has_minor = false;
  CORBA::ULong minor = 0;

  static Expect parse(const std::string& s) {
    Expect e;
    if (s == "ok") return e;
    e.ok = false;
    std::string::size_type colon = s.find(':');
    e.name = s.substr(0, colon);
    if (colon != std::string::npos) {
      e.has_minor = true;
      e.minor = static_cast<CORBA::ULong>(std::strtoul(s.c_str() + colon + 1, nullptr, 0));
    }
    return e;
  }

  bool matches(const CORBA::SystemException& ex) const {
    return !ok && name == ex._name() && (!has_minor || minor == ex.minor());
  }
};

// Runs `call` (which checks its own results) and reports an exception,
// unless `expect` names the system exception it raised.
template <typename F>
void run(const char* what, const Expect& expect, F call) {
  try {
    call();
    if (!expect.ok) fail(std::string(what) + ": no exception, expected " + expect.name);
  } catch (const CORBA::SystemException& ex) {
    if (!expect.matches(ex)) fail(std::string(what) + ": " + describe(ex));
  } catch (const CORBA::Exception& ex) {
    fail(std::string(what) + ": " + describe(ex));
  }
}

template <typename F>
void run(const char* what, F call) {
  run(what, Expect(), call);
}

class CallbackImpl : public POA_Interop::Callback {
 public:
  CORBA::Long ping(CORBA::Long n) override {
    ++pings;
    return n + 1;
  }

  CORBA::WChar* wping(const CORBA::WChar* w) override {
    ++pings;
    if (!data::wide_eq(w, data::wide(1))) {
      fail("Callback::wping: wrong argument");
      return CORBA::wstring_dup(L"wrong argument");
    }
    return CORBA::wstring_dup(data::wide(5));
  }

  std::atomic<int> pings{0};
};

void exercise(CORBA::ORB_ptr orb, CORBA::Object_ptr obj, Interop::Callback_ptr cb,
              CallbackImpl* cb_servant, const Expect& wide_expect,
              const Expect& motto_expect) {
  Interop::Tester_var t;
  run("narrow to Tester", [&] {
    t = Interop::Tester::_narrow(obj);
    check(!CORBA::is_nil(t), "Tester::_narrow gave nil");
  });
  if (CORBA::is_nil(t)) return;

  run("_is_a", [&] {
    check(obj->_is_a("IDL:Interop/Tester:1.0"), "_is_a(Tester)");
    check(obj->_is_a("IDL:Interop/Base:1.0"), "_is_a(Base)");
    check(obj->_is_a("IDL:omg.org/CORBA/Object:1.0"), "_is_a(Object)");
    check(!obj->_is_a("IDL:Interop/Callback:1.0"), "!_is_a(Callback)");
    check(!obj->_non_existent(), "_non_existent");
  });

  run("Base operations through a Base reference", [&] {
    Interop::Base_var b = Interop::Base::_narrow(obj);
    check(!CORBA::is_nil(b), "Base::_narrow gave nil");
    check(b->base_op(20) == 41, "Base::base_op(20)");
    CORBA::String_var n = b->name();
    check(std::strcmp(n.in(), data::latin(6)) == 0, "Base::name");
  });

  run("Base operations through the Tester reference", [&] {
    check(t->base_op(-5) == -9, "base_op(-5)");
    CORBA::String_var n = t->name();
    check(std::strcmp(n.in(), data::latin(6)) == 0, "name");
    t->counter(77);
    check(t->counter() == 77, "counter after setting 77");
    t->counter(-3);
    check(t->counter() == -3, "counter after setting -3");
  });

  run("echo_prims", [&] {
    Interop::Prims r = t->echo_prims(data::prims(1));
    check(data::eq(r, data::prims(2)), "echo_prims");
  });

  run("echo_nested", [&] {
    Interop::Point p = data::point(5);
    Interop::Longs_var l;
    Interop::Nested_var r = t->echo_nested(data::nested(1), p, l);
    check(data::eq(r.in(), data::nested(2)), "echo_nested result");
    check(data::eq(p, data::point(6)), "echo_nested inout p");
    check(data::eq(l.in(), data::longs(3)), "echo_nested out l");
  });

  run("grid", [&] {
    Interop::PointGrid_var r = t->grid(data::grid(4));
    check(data::eq(r.in(), data::grid(5)), "grid");
  });

  for (int i = 0; i < data::kAnys; ++i) {
    std::string what = "any_op " + std::to_string(i);
    run(what.c_str(), [&] {
      CORBA::Any_var r = t->any_op(static_cast<CORBA::Short>(i), data::any(i));
      check(data::any_is(r.in(), (i + 1) % data::kAnys), what.c_str());
    });
  }

  run("echo_anys", [&] {
    Interop::Anys a;
    a.length(data::kAnys);
    for (int i = 0; i < data::kAnys; ++i) a[i] = data::any(i);
    Interop::Anys_var r = t->echo_anys(a);
    check(r->length() == static_cast<CORBA::ULong>(data::kAnys), "echo_anys length");
    for (int i = 0; i < data::kAnys && i < static_cast<int>(r->length()); ++i)
      check(data::any_is(r[i], data::kAnys - 1 - i), "echo_anys element");
  });

  for (short i = 0; i < data::kLongUnions; ++i)
    run("long_union", [&] {
      Interop::LongUnion_var r = t->long_union(i, data::long_union(i));
      check(data::eq(r.in(), data::long_union(i)), "long_union");
    });
  for (short i = 0; i < data::kColourUnions; ++i)
    run("colour_union", [&] {
      Interop::ColourUnion_var r = t->colour_union(i, data::colour_union(i));
      check(data::eq(r.in(), data::colour_union(i)), "colour_union");
    });
  for (short i = 0; i < data::kCharUnions; ++i)
    run("char_union", [&] {
      Interop::CharUnion_var r = t->char_union(i, data::char_union(i));
      check(data::eq(r.in(), data::char_union(i)), "char_union");
    });
  for (short i = 0; i < data::kBoolUnions; ++i)
    run("bool_union", [&] {
      Interop::BoolUnion r = t->bool_union(i, data::bool_union(i));
      check(data::eq(r, data::bool_union(i)), "bool_union");
    });
  for (short i = 0; i < data::kShortUnions; ++i)
    run("short_union", [&] {
      Interop::ShortUnion_var r = t->short_union(i, data::short_union(i));
      check(data::eq(r.in(), data::short_union(i)), "short_union");
    });

  run("text", [&] {
    CORBA::String_var io = CORBA::string_dup(data::latin(1));
    CORBA::String_var o;
    CORBA::String_var r = t->text(data::latin(0), io.inout(), o.out());
    check(std::strcmp(r.in(), data::latin(4)) == 0, "text result");
    check(std::strcmp(io.in(), data::latin(2)) == 0, "text inout");
    check(std::strcmp(o.in(), data::latin(3)) == 0, "text out");
  });

  run("wide", wide_expect, [&] {
    CORBA::WString_var io = CORBA::wstring_dup(data::wide(1));
    CORBA::WChar c = 0;
    CORBA::WString_var r = t->wide(data::wide(0), io.inout(), c);
    check(data::wide_eq(r.in(), data::wide(3)), "wide result");
    check(data::wide_eq(io.in(), data::wide(2)), "wide inout");
    check(c == data::kWideChar, "wide out wchar");
  });

  run("wide_any", wide_expect, [&] {
    CORBA::Any a;
    a <<= CORBA::Any::from_wstring(data::wide(0), 0);
    CORBA::Any_var r = t->wide_any(a);
    CORBA::WChar c = 0;
    check((r.in() >>= CORBA::Any::to_wchar(c)) && c == data::kWideChar, "wide_any");
  });

  run("motto", motto_expect, [&] {
    CORBA::WString_var m = t->motto();
    check(data::wide_eq(m.in(), data::wide(4)), "motto");
  });

  run("fail(0) raises Failure", [&] {
    try {
      t->fail(0);
      fail("fail(0) raised nothing");
    } catch (const Interop::Failure& f) {
      check(f.code == -17, "Failure.code");
      check(std::strcmp(f.reason.in(), data::latin(9)) == 0, "Failure.reason");
      check(data::eq(f.details, data::longs(5)), "Failure.details");
    }
  });
  run("fail(1) raises Empty", [&] {
    try {
      t->fail(1);
      fail("fail(1) raised nothing");
    } catch (const Interop::Empty&) {
    }
  });
  run("fail(2) returns", [&] { t->fail(2); });

  struct SysCase {
    int which;
    const char* name;
    CORBA::ULong minor;
    CORBA::CompletionStatus completed;
  };
  const SysCase sys_cases[] = {
      {0, "NO_PERMISSION", 42, CORBA::COMPLETED_YES},
      {1, "BAD_PARAM", 1234, CORBA::COMPLETED_NO},
      {2, "IMP_LIMIT", 3, CORBA::COMPLETED_MAYBE},
  };
  for (const SysCase& c : sys_cases) {
    run("fail_system", [&] {
      try {
        t->fail_system(c.which);
        fail("fail_system raised nothing");
      } catch (const CORBA::SystemException& ex) {
        if (std::strcmp(ex._name(), c.name) != 0 || ex.minor() != c.minor ||
            ex.completed() != c.completed)
          fail(std::string("fail_system: got ") + describe(ex) + ", want " + c.name);
      }
    });
  }

  run("post and last_post", [&] {
    t->post(data::latin(5));
    CORBA::String_var r = t->last_post();
    check(std::strcmp(r.in(), data::latin(5)) == 0, "last_post after the oneway post");
  });

  run("call_back", [&] {
    int before = cb_servant->pings;
    check(t->call_back(cb, 41) == 1042, "call_back(41)");
    check(cb_servant->pings == before + 1, "the server pinged the callback once");
  });

  run("call_back_wide", wide_expect, [&] {
    CORBA::WString_var r = t->call_back_wide(cb, data::wide(0));
    check(data::wide_eq(r.in(), data::wide(3)), "call_back_wide");
  });

  run("echo_callback", [&] {
    Interop::Callback_var back = t->echo_callback(cb);
    check(!CORBA::is_nil(back), "echo_callback gave nil");
    check(back->_is_equivalent(cb), "echo_callback is the same object");
    int before = cb_servant->pings;
    check(back->ping(5) == 6, "ping through the echoed callback");
    check(cb_servant->pings == before + 1, "the echoed callback reached our servant");
    Interop::Callback_var nil = t->echo_callback(Interop::Callback::_nil());
    check(CORBA::is_nil(nil), "echo_callback(nil)");
  });

  run("echo_object", [&] {
    CORBA::Object_var back = t->echo_object(t);
    check(!CORBA::is_nil(back), "echo_object gave nil");
    check(back->_is_equivalent(t), "echo_object is the same object");
    Interop::Tester_var again = Interop::Tester::_narrow(back);
    check(!CORBA::is_nil(again) && again->base_op(1) == 3, "call through the echoed reference");
    CORBA::Object_var nil = t->echo_object(CORBA::Object::_nil());
    check(CORBA::is_nil(nil), "echo_object(nil)");
  });

  run("big", [&] {
    Interop::Octets d;
    d.length(data::kBigIn);
    for (CORBA::ULong i = 0; i < data::kBigIn; ++i) d[i] = data::big_in(i);
    Interop::Octets_var r = t->big(d);
    bool ok = r->length() == data::kBigOut;
    for (CORBA::ULong i = 0; ok && i < data::kBigOut; ++i) ok = r[i] == data::big_out(i);
    check(ok, "big");
  });

  run("big_points", [&] {
    Interop::PointSeq_var r = t->big_points(data::points(1, data::kBigPointsIn));
    check(data::eq(r.in(), data::points(2, data::kBigPointsOut)), "big_points");
  });
  (void)orb;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char*> orb_args{argv[0]};
  std::string giop_option = "-ORBmaxGIOPVersion";
  std::string giop_version;
  Expect wide_expect, motto_expect;
  const char* target = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--giop" && i + 1 < argc) {
      giop_version = argv[++i];
    } else if (a == "--wide-expect" && i + 1 < argc) {
      wide_expect = Expect::parse(argv[++i]);
    } else if (a == "--motto-expect" && i + 1 < argc) {
      motto_expect = Expect::parse(argv[++i]);
    } else if (a.rfind("-ORB", 0) == 0 && i + 1 < argc) {
      orb_args.push_back(argv[i]);
      orb_args.push_back(argv[++i]);
    } else if (a.rfind("-", 0) != 0 && target == nullptr) {
      target = argv[i];
    } else {
      std::cerr << "interop_client: unexpected argument " << a << std::endl;
      return 2;
    }
  }
  if (target == nullptr) {
    std::cerr << "usage: interop_client [--giop V] [--wide-expect EXC] [--motto-expect EXC] "
                 "[-ORB options] TARGET"
              << std::endl;
    return 2;
  }
  if (!giop_version.empty()) {
    orb_args.push_back(&giop_option[0]);
    orb_args.push_back(&giop_version[0]);
  }
  int orb_argc = static_cast<int>(orb_args.size());
  orb_args.push_back(nullptr);
  try {
    CORBA::ORB_var orb = CORBA::ORB_init(orb_argc, orb_args.data());
    CORBA::Object_var root_obj = orb->resolve_initial_references("RootPOA");
    PortableServer::POA_var root = PortableServer::POA::_narrow(root_obj);
    CallbackImpl* cb_servant = new CallbackImpl;
    PortableServer::ObjectId_var cb_id = root->activate_object(cb_servant);
    CORBA::Object_var cb_obj = root->id_to_reference(cb_id);
    Interop::Callback_var cb = Interop::Callback::_narrow(cb_obj);
    PortableServer::POAManager_var manager = root->the_POAManager();
    manager->activate();

    CORBA::Object_var obj = orb->string_to_object(target);
    exercise(orb, obj, cb, cb_servant, wide_expect, motto_expect);

    cb_servant->_remove_ref();
    orb->destroy();
  } catch (const CORBA::Exception& ex) {
    std::cerr << "interop_client: CORBA exception " << describe(ex) << std::endl;
    return 3;
  }
  if (failures > 0) {
    std::cerr << "interop_client: " << failures << " check(s) failed" << std::endl;
    return 1;
  }
  std::cout << "interop_client: every check passed" << std::endl;
  return 0;
}
