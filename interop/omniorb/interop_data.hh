// The canonical values of the interoperability tests (interop.idl), as the
// omniORB peers build and compare them. The rtorb side defines the same
// values in interop/harness/tests/support/interop_data.rs; the two must be
// kept in step.
//
// Narrow strings are written in ISO 8859-1, omniORB's native code set for
// char data (so "caf\xe9" is "café"); wide strings are UTF-32 wchar_t,
// which omniORB transmits as UTF-16.

#ifndef RTORB_INTEROP_DATA_HH
#define RTORB_INTEROP_DATA_HH

#include <omniORB4/CORBA.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cwchar>
#include <string>

#include "interop.hh"

namespace data {

// Text that is not ASCII but fits ISO 8859-1 (so it works in GIOP 1.0).
inline const char* latin(int k) {
  switch (k) {
    case 0: return "Gr\xfc\xdf" "e, caf\xe9 \xe0 la cr\xe8me";  // text s
    case 1: return "\xc5ngstr\xf6m";                           // text io in
    case 2: return "\xd8resund";                               // text io out
    case 3: return "na\xefve fa\xe7" "ade";                    // text out
    case 4: return "\xa1Ol\xe9!";                              // text result
    case 5: return "posted caf\xe9";                           // post
    case 6: return "Tester caf\xe9";                           // name
    case 7: return "text caf\xe9";                             // LongUnion text
    case 8: return "any caf\xe9";                              // any string
    case 9: return "bad caf\xe9";                              // Failure reason
    default: return "";
  }
}

// Wide text outside ISO 8859-1 (in the Basic Multilingual Plane: omniORB
// 4.2 does not transmit characters beyond it as UTF-16 surrogate pairs).
inline const wchar_t* wide(int k) {
  switch (k) {
    case 0: return L"\u041f\u0440\u0438\u0432\u0435\u0442, \u4e16\u754c \u263a";  // wide w
    case 1: return L"\u03a9\u03bc\u03ad\u03b3\u03b1";  // wide io in, wping argument
    case 2: return L"\u0394\u03ad\u03bb\u03c4\u03b1";  // wide io out
    case 3: return L"\u65e5\u672c\u8a9e";              // wide result
    case 4: return L"\u00dcn\u00efc\u00f8d\u00e9 \u2605";  // motto
    case 5: return L"\u03a9\u03bc\u03ad\u03b3\u03b1 \u2713";  // wping result
    default: return L"";
  }
}
const CORBA::WChar kWideChar = L'\u0416';

inline Interop::Point point(long k) {
  Interop::Point p;
  p.x = static_cast<CORBA::Short>(k * 3 - 7);
  p.y = static_cast<CORBA::Long>(k * 100003 - 5);
  p.z = static_cast<double>(k) * 0.25 - 1.0;
  return p;
}

inline bool eq(const Interop::Point& a, const Interop::Point& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

inline Interop::PointSeq points(long k, CORBA::ULong n) {
  Interop::PointSeq s;
  s.length(n);
  for (CORBA::ULong i = 0; i < n; ++i) s[i] = point(k + static_cast<long>(i));
  return s;
}

inline bool eq(const Interop::PointSeq& a, const Interop::PointSeq& b) {
  if (a.length() != b.length()) return false;
  for (CORBA::ULong i = 0; i < a.length(); ++i)
    if (!eq(a[i], b[i])) return false;
  return true;
}

// Three rows: one point, none, three points.
inline Interop::PointGrid grid(long k) {
  Interop::PointGrid g;
  g.length(3);
  const CORBA::ULong lens[3] = {1, 0, 3};
  for (CORBA::ULong r = 0; r < 3; ++r) g[r] = points(k + 10 * static_cast<long>(r), lens[r]);
  return g;
}

inline bool eq(const Interop::PointGrid& a, const Interop::PointGrid& b) {
  if (a.length() != b.length()) return false;
  for (CORBA::ULong i = 0; i < a.length(); ++i)
    if (!eq(a[i], b[i])) return false;
  return true;
}

inline Interop::Longs longs(long k) {
  Interop::Longs l;
  l.length(4);
  l[0] = static_cast<CORBA::Long>(k);
  l[1] = static_cast<CORBA::Long>(-k);
  l[2] = static_cast<CORBA::Long>(k * 1000);
  l[3] = static_cast<CORBA::Long>(INT32_MIN + k);
  return l;
}

inline bool eq(const Interop::Longs& a, const Interop::Longs& b) {
  if (a.length() != b.length()) return false;
  for (CORBA::ULong i = 0; i < a.length(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

inline bool eq(const Interop::Strings& a, const Interop::Strings& b) {
  if (a.length() != b.length()) return false;
  for (CORBA::ULong i = 0; i < a.length(); ++i)
    if (std::strcmp(a[i], b[i]) != 0) return false;
  return true;
}

inline Interop::Nested nested(long k) {
  Interop::Nested n;
  char name[64];
  std::snprintf(name, sizeof name, "nested-%ld caf\xe9", k);
  n.name = CORBA::string_dup(name);
  n.origin = point(k);
  n.grid = grid(k);
  n.palette.length(4);
  for (CORBA::ULong i = 0; i < 4; ++i)
    n.palette[i] = static_cast<Interop::Colour>((k + static_cast<long>(i % 3)) % 3);
  n.flag = static_cast<CORBA::Octet>((k * 37) & 0xff);
  n.bigs.length(3);
  n.bigs[0] = static_cast<CORBA::LongLong>(k) * 1000000000000LL;
  n.bigs[1] = -static_cast<CORBA::LongLong>(k);
  n.bigs[2] = (static_cast<CORBA::LongLong>(1) << 62) - k;
  n.letter = static_cast<CORBA::Char>('a' + k % 26);
  n.tag = static_cast<CORBA::UShort>(65535 - k);
  n.words.length(3);
  char word[32];
  std::snprintf(word, sizeof word, "w%ld", k);
  n.words[0] = CORBA::string_dup(word);
  n.words[1] = CORBA::string_dup("");
  n.words[2] = CORBA::string_dup("w\xf6rd");
  return n;
}

inline bool eq(const Interop::Nested& a, const Interop::Nested& b) {
  if (std::strcmp(a.name, b.name) != 0 || !eq(a.origin, b.origin) || !eq(a.grid, b.grid))
    return false;
  if (a.palette.length() != b.palette.length()) return false;
  for (CORBA::ULong i = 0; i < a.palette.length(); ++i)
    if (a.palette[i] != b.palette[i]) return false;
  if (a.flag != b.flag || a.letter != b.letter || a.tag != b.tag) return false;
  if (a.bigs.length() != b.bigs.length()) return false;
  for (CORBA::ULong i = 0; i < a.bigs.length(); ++i)
    if (a.bigs[i] != b.bigs[i]) return false;
  return eq(a.words, b.words);
}

inline Interop::Prims prims(long k) {
  Interop::Prims p;
  p.b = (k % 2) == 1;
  p.o = static_cast<CORBA::Octet>((k * 31) & 0xff);
  p.c = static_cast<CORBA::Char>('A' + k % 26);
  p.s = static_cast<CORBA::Short>(-(k * 1000 + 7));
  p.us = static_cast<CORBA::UShort>(60000 + k);
  p.l = static_cast<CORBA::Long>(-(k * 100000007));
  p.ul = static_cast<CORBA::ULong>(4000000000UL + static_cast<unsigned long>(k));
  p.ll = -(static_cast<CORBA::LongLong>(k) * 1000000000007LL);
  p.ull = 18000000000000000000ULL + static_cast<CORBA::ULongLong>(k);
  p.f = static_cast<CORBA::Float>(k) + 0.5f;
  p.d = -(static_cast<double>(k) + 0.125) * 1024.0;
  return p;
}

inline bool eq(const Interop::Prims& a, const Interop::Prims& b) {
  return a.b == b.b && a.o == b.o && a.c == b.c && a.s == b.s && a.us == b.us && a.l == b.l &&
         a.ul == b.ul && a.ll == b.ll && a.ull == b.ull && a.f == b.f && a.d == b.d;
}

// A tree of `depth` levels below the root, two children a node.
inline Interop::Tree tree(int depth, long value) {
  Interop::Tree t;
  t.value = static_cast<CORBA::Long>(value);
  char label[32];
  std::snprintf(label, sizeof label, "node %ld", value);
  t.label = CORBA::string_dup(label);
  t.children.length(depth == 0 ? 0 : 2);
  for (CORBA::ULong i = 0; i < t.children.length(); ++i)
    t.children[i] = tree(depth - 1, value * 2 + static_cast<long>(i));
  return t;
}

inline bool eq(const Interop::Tree& a, const Interop::Tree& b) {
  if (a.value != b.value || std::strcmp(a.label, b.label) != 0) return false;
  if (a.children.length() != b.children.length()) return false;
  for (CORBA::ULong i = 0; i < a.children.length(); ++i)
    if (!eq(a.children[i], b.children[i])) return false;
  return true;
}

// Unions: canonical value number `which` of each.
const int kLongUnions = 4, kColourUnions = 3, kCharUnions = 3, kBoolUnions = 2,
          kShortUnions = 3;

inline Interop::LongUnion long_union(int which) {
  Interop::LongUnion u;
  switch (which) {
    case 0: u.number(-42); break;
    case 1: u.text(latin(7)); break;
    case 2: u.where(point(7)); break;
    default: u.other(2.5); u._d(99); break;
  }
  return u;
}

inline bool eq(const Interop::LongUnion& a, const Interop::LongUnion& b) {
  if (a._d() != b._d()) return false;
  switch (a._d()) {
    case 1: return a.number() == b.number();
    case 2: case 3: return std::strcmp(a.text(), b.text()) == 0;
    case 4: return eq(a.where(), b.where());
    default: return a.other() == b.other();
  }
}

inline Interop::ColourUnion colour_union(int which) {
  Interop::ColourUnion u;
  switch (which) {
    case 0: u.r(0xee); break;
    case 1: u.g(longs(2)); break;
    default: u.b(nested(3)); break;
  }
  return u;
}

inline bool eq(const Interop::ColourUnion& a, const Interop::ColourUnion& b) {
  if (a._d() != b._d()) return false;
  switch (a._d()) {
    case Interop::red: return a.r() == b.r();
    case Interop::green: return eq(a.g(), b.g());
    default: return eq(a.b(), b.b());
  }
}

inline Interop::CharUnion char_union(int which) {
  Interop::CharUnion u;
  switch (which) {
    case 0: u.a(123); break;
    case 1: u.b("bee"); break;
    default: u.d(true); u._d('z'); break;
  }
  return u;
}

inline bool eq(const Interop::CharUnion& a, const Interop::CharUnion& b) {
  if (a._d() != b._d()) return false;
  switch (a._d()) {
    case 'a': return a.a() == b.a();
    case 'b': return std::strcmp(a.b(), b.b()) == 0;
    default: return a.d() == b.d();
  }
}

inline Interop::BoolUnion bool_union(int which) {
  Interop::BoolUnion u;
  if (which == 0)
    u.yes(-5000000000LL);
  else
    u.no(0.75f);
  return u;
}

inline bool eq(const Interop::BoolUnion& a, const Interop::BoolUnion& b) {
  if (a._d() != b._d()) return false;
  return a._d() ? a.yes() == b.yes() : a.no() == b.no();
}

inline Interop::ShortUnion short_union(int which) {
  Interop::ShortUnion u;
  switch (which) {
    case 0: u.big(18446744073709551614ULL); break;
    case 1: {
      Interop::Strings s;
      s.length(3);
      s[0] = CORBA::string_dup("x");
      s[1] = CORBA::string_dup("yy");
      s[2] = CORBA::string_dup("");
      u.names(s);
      break;
    }
    default: u._default(); u._d(3); break;
  }
  return u;
}

inline bool eq(const Interop::ShortUnion& a, const Interop::ShortUnion& b) {
  if (a._d() != b._d()) return false;
  switch (a._d()) {
    case -1: return a.big() == b.big();
    case 7: return eq(a.names(), b.names());
    default: return true;
  }
}

// Anys: canonical value number `which`.
const int kAnys = 14;

inline CORBA::Any any(int which) {
  CORBA::Any a;
  switch (which) {
    case 0: a <<= static_cast<CORBA::Short>(-7); break;
    case 1: a <<= static_cast<CORBA::ULongLong>((1ULL << 40) + 5); break;
    case 2: a <<= -0.125; break;
    case 3: a <<= CORBA::Any::from_boolean(true); break;
    case 4: a <<= latin(8); break;
    case 5: a <<= point(11); break;
    case 6: a <<= longs(4); break;
    case 7: {
      CORBA::Any inner;
      inner <<= point(12);
      CORBA::Any middle;
      middle <<= inner;
      a <<= middle;
      break;
    }
    case 8: a <<= nested(6); break;
    case 9: a <<= long_union(2); break;
    case 10: a <<= Interop::blue; break;
    case 11: a <<= prims(3); break;
    case 12: a <<= grid(7); break;
    default: a <<= tree(2, 1); break;
  }
  return a;
}

// Whether `a` holds canonical any number `which`, with its type.
inline bool any_is(const CORBA::Any& a, int which) {
  CORBA::TypeCode_var want = any(which).type();
  CORBA::TypeCode_var got = a.type();
  if (!got->equivalent(want)) return false;
  switch (which) {
    case 0: { CORBA::Short v; return (a >>= v) && v == -7; }
    case 1: { CORBA::ULongLong v; return (a >>= v) && v == (1ULL << 40) + 5; }
    case 2: { CORBA::Double v; return (a >>= v) && v == -0.125; }
    case 3: { CORBA::Boolean v; return (a >>= CORBA::Any::to_boolean(v)) && v; }
    case 4: { const char* v; return (a >>= v) && std::strcmp(v, latin(8)) == 0; }
    case 5: { const Interop::Point* v; return (a >>= v) && eq(*v, point(11)); }
    case 6: { const Interop::Longs* v; return (a >>= v) && eq(*v, longs(4)); }
    case 7: {
      const CORBA::Any* middle;
      if (!(a >>= middle)) return false;
      const CORBA::Any* inner;
      if (!(*middle >>= inner)) return false;
      const Interop::Point* v;
      return (*inner >>= v) && eq(*v, point(12));
    }
    case 8: { const Interop::Nested* v; return (a >>= v) && eq(*v, nested(6)); }
    case 9: { const Interop::LongUnion* v; return (a >>= v) && eq(*v, long_union(2)); }
    case 10: { Interop::Colour v; return (a >>= v) && v == Interop::blue; }
    case 11: { const Interop::Prims* v; return (a >>= v) && eq(*v, prims(3)); }
    case 12: { const Interop::PointGrid* v; return (a >>= v) && eq(*v, grid(7)); }
    default: { const Interop::Tree* v; return (a >>= v) && eq(*v, tree(2, 1)); }
  }
}

// The large messages: octet i of a big octet sequence.
const CORBA::ULong kBigIn = 1500000, kBigOut = 1200000;
const CORBA::ULong kBigPointsIn = 70000, kBigPointsOut = 66000;
inline CORBA::Octet big_in(CORBA::ULong i) { return static_cast<CORBA::Octet>((i * 7u + 3u) % 251u); }
inline CORBA::Octet big_out(CORBA::ULong i) { return static_cast<CORBA::Octet>((i * 13u + 5u) % 251u); }

inline bool wide_eq(const CORBA::WChar* a, const wchar_t* b) {
  return a != nullptr && std::wcscmp(a, b) == 0;
}

}  // namespace data

#endif
