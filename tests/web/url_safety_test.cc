// SPDX-License-Identifier: MIT
// The address table and the URL guard, attacked with every internal range,
// the IPv6 forms that embed an IPv4 address, and resolvers that lie.
#include "web/address.h"
#include "web/url.h"
#include "web/url_guard.h"

#include <gtest/gtest.h>

#include <map>

#include "web_test_support.h"

namespace hermes::web {
namespace {

AddressClass class_of(const char* text) {
  auto ip = parse_ip(text);
  EXPECT_TRUE(ip) << text;
  return ip ? classify(*ip) : AddressClass::kPublic;
}

TEST(AddressTable, EveryInternalIpv4RangeAtBothEnds) {
  const char* internal[] = {
      "0.0.0.0",         "0.255.255.255",   "10.0.0.0",        "10.255.255.255", "100.64.0.0",
      "100.127.255.255", "127.0.0.1",       "127.255.255.254", "172.16.0.0",     "172.31.255.255",
      "192.0.0.0",       "192.0.0.9",       "192.0.0.255",     "192.0.2.1",      "192.88.99.1",
      "192.168.0.1",     "192.168.255.255", "198.18.0.0",      "198.19.255.255", "198.51.100.7",
      "203.0.113.9",     "224.0.0.1",       "239.255.255.255", "240.0.0.1",      "255.255.255.255"};
  for (const char* a : internal) EXPECT_EQ(class_of(a), AddressClass::kInternal) << a;
}

TEST(AddressTable, MetadataIsItsOwnClass) {
  for (const char* a : {"169.254.169.254", "169.254.170.2", "169.254.169.253", "169.254.0.1",
                        "100.100.100.200", "192.0.0.192", "168.63.129.16", "fd00:ec2::254",
                        "fd00:ec2::253", "fd00:ec2::123", "fd20:ce::254", "fd00:c1::a9fe:a9fe",
                        "fe80::a9fe:a9fe", "fe80::1%eth0", "febf::1", "::ffff:169.254.169.254",
                        "64:ff9b::a9fe:a9fe", "2002:a9fe:a9fe::1", "::ffff:100.100.100.200"})
    EXPECT_EQ(class_of(a), AddressClass::kMetadata) << a;
}

TEST(AddressTable, PublicNeighboursOfInternalRanges) {
  for (const char* a :
       {"1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0",
        "126.255.255.255", "128.0.0.0", "172.15.255.255", "172.32.0.0", "192.0.1.1",
        "192.167.255.255", "198.17.255.255", "198.20.0.0", "223.255.255.255",
        "2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450::1"})
    EXPECT_EQ(class_of(a), AddressClass::kPublic) << a;
}

TEST(AddressTable, Ipv6OutsideGlobalUnicastIsInternal) {
  for (const char* a : {"::",           "::1",
                        "fec0::1%eth0", "fc00::1",
                        "fd20:ce::253", "fd00:c1::a9fe:a9ff",
                        "fd12:3456::1", "fec0::1",
                        "ff02::1",      "100::1",
                        "2001::1",      "2001:1ff::1",
                        "2001:db8::1",  "3fff::1",
                        "3fff:fff::1",  "64:ff9b:1::a00:1",
                        "::7f00:1",     "::a00:1",
                        "4000::1",      "[::1]"})
    EXPECT_EQ(class_of(a), AddressClass::kInternal) << a;
  EXPECT_EQ(class_of("3fff:1000::1"), AddressClass::kPublic);
  EXPECT_EQ(class_of("2001:200::1"), AddressClass::kPublic);
}

TEST(AddressTable, EmbeddedIpv4JudgedByTheIpv4) {
  EXPECT_EQ(class_of("::ffff:127.0.0.1"), AddressClass::kInternal);
  EXPECT_EQ(class_of("::ffff:10.1.2.3"), AddressClass::kInternal);
  EXPECT_EQ(class_of("::ffff:8.8.8.8"), AddressClass::kPublic);
  EXPECT_EQ(class_of("64:ff9b::10.0.0.1"), AddressClass::kInternal);
  EXPECT_EQ(class_of("64:ff9b::8.8.8.8"), AddressClass::kPublic);
  EXPECT_EQ(class_of("2002:7f00:1::"), AddressClass::kInternal);
  EXPECT_EQ(class_of("2002:c0a8:101::1"), AddressClass::kInternal);
  EXPECT_EQ(class_of("2002:808:808::1"), AddressClass::kPublic);
}

TEST(AddressTable, OnlyCanonicalLiteralsParse) {
  for (const char* a : {"0x7f.1", "127.1", "2130706433", "017700000001", "127.0.0.1.", "",
                        "localhost", "1.2.3.4.5", "::ffff:1.2.3"})
    EXPECT_FALSE(parse_ip(a)) << a;
}

GuardOptions private_allowed() {
  GuardOptions o;
  o.allow_private = true;
  return o;
}

TEST(UrlGuard, LiteralHostsInEveryForm) {
  auto resolver = std::make_shared<testing::FakeResolver>();
  UrlGuard guard(resolver, {});
  for (const char* u :
       {"http://127.0.0.1/", "http://[::1]/", "http://[::ffff:127.0.0.1]/",
        "http://[::ffff:7f00:1]/", "http://0x7f.1/", "http://2130706433/", "http://0177.0.0.1/",
        "http://127.1/", "http://10.0.0.5:8080/x", "http://169.254.169.254/latest/meta-data/",
        "http://[fe80::1%25eth0]/", "http://[2002:a9fe:a9fe::]/", "http://[64:ff9b::a9fe:a9fe]/",
        "https://100.64.1.1/", "http://[fd00:ec2::254]/", "http://0/"}) {
    auto r = guard.vet(std::string_view(u));
    ASSERT_FALSE(r) << u;
    EXPECT_EQ(r.error().message, kBlockedInternal);
  }
  EXPECT_TRUE(guard.vet(std::string_view("https://8.8.8.8/")));
  EXPECT_EQ(resolver->calls(), 0) << "literal hosts are never looked up";
}

TEST(UrlGuard, SchemesAndShapes) {
  auto resolver = std::make_shared<testing::FakeResolver>();
  resolver->set("example.com", {"93.184.216.34"});
  UrlGuard guard(resolver, {});
  for (const char* u : {"ftp://example.com/", "file:///etc/passwd", "example.com/path", "http://",
                        "", "gopher://example.com/", "javascript:alert(1)", "http://exa mple.com/"})
    EXPECT_FALSE(guard.vet(std::string_view(u))) << u;
  EXPECT_TRUE(guard.vet(std::string_view("HTTPS://EXAMPLE.COM./a")));
}

// Another scheme is refused as a scheme: `file:///etc/passwd` names no
// network address, so the address message would mislead.
TEST(UrlGuard, OtherSchemesAreRefusedAsSchemes) {
  UrlGuard guard(std::make_shared<testing::FakeResolver>(), {});
  for (const char* u : {"ftp://example.com/", "file:///etc/passwd", "FILE:///etc/passwd",
                        "gopher://example.com/", "javascript:alert(1)"}) {
    auto vetted = guard.vet(std::string_view(u));
    ASSERT_FALSE(vetted) << u;
    EXPECT_EQ(vetted.error().message, kBlockedScheme) << u;
  }
  auto port = guard.vet(std::string_view("localhost:8080/x"));
  ASSERT_FALSE(port);
  EXPECT_NE(port.error().message, kBlockedScheme) << "a host and port is no scheme";
}

// A redirect from https to http is followed like any other hop (web contract,
// redirects): the fetch loop has no scheme rule of its own, so what decides is
// the Location resolved against the https page and the guard's vet of the result.
TEST(UrlGuard, RedirectFromHttpsToHttpIsFollowed) {
  auto resolver = std::make_shared<testing::FakeResolver>();
  resolver->set("example.com", {"93.184.216.34"});
  UrlGuard guard(resolver, {});
  auto next = resolve_url("https://example.com/a/b", "http://example.com/c");
  ASSERT_TRUE(next);
  EXPECT_EQ(*next, "http://example.com/c");
  EXPECT_TRUE(guard.vet(std::string_view(*next)));
  EXPECT_EQ(resolve_url("https://example.com/a/b", "//example.com/c"), "https://example.com/c")
      << "a scheme-relative Location keeps https";
  auto ftp = resolve_url("https://example.com/a/b", "ftp://example.com/c");
  ASSERT_TRUE(ftp);
  EXPECT_FALSE(guard.vet(std::string_view(*ftp))) << "only http and https hops are dialled";
}

TEST(UrlGuard, EveryDnsAnswerIsVetted) {
  auto resolver = std::make_shared<testing::FakeResolver>();
  resolver->set("mixed.test", {"93.184.216.34", "10.0.0.1"});
  resolver->set("mixed6.test", {"2606:4700::1", "::1"});
  resolver->set("mapped.test", {"::ffff:192.168.1.1"});
  resolver->set("sixtofour.test", {"2002:0a00:0001::1"});
  resolver->set("meta.test", {"169.254.169.254"});
  resolver->set("good.test", {"93.184.216.34", "2606:4700::1"});
  UrlGuard guard(resolver, {});
  for (const char* host : {"mixed.test", "mixed6.test", "mapped.test", "sixtofour.test",
                           "meta.test", "unresolvable.test"})
    EXPECT_FALSE(guard.vet("https://" + std::string(host) + "/")) << host;
  auto ok = guard.vet(std::string_view("https://good.test/"));
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->addresses.size(), 2u);
}

TEST(UrlGuard, EveryInternalRangeAsADnsAnswer) {
  const char* answers[] = {"0.0.0.1",
                           "10.1.2.3",
                           "100.64.0.1",
                           "127.0.0.1",
                           "169.254.1.1",
                           "172.16.0.1",
                           "192.0.0.1",
                           "192.0.2.1",
                           "192.168.1.1",
                           "198.18.0.1",
                           "198.51.100.1",
                           "203.0.113.1",
                           "224.0.0.1",
                           "240.0.0.1",
                           "255.255.255.255",
                           "::",
                           "::1",
                           "fe80::1",
                           "fc00::1",
                           "fd00:ec2::254",
                           "fec0::1",
                           "ff02::1",
                           "2001:db8::1",
                           "2001::1",
                           "3fff::1",
                           "64:ff9b::a00:1",
                           "64:ff9b:1::1",
                           "::ffff:10.0.0.1",
                           "2002:c0a8:101::1",
                           "::7f00:1",
                           "100.100.100.200",
                           "169.254.169.254"};
  auto resolver = std::make_shared<testing::FakeResolver>();
  UrlGuard guard(resolver, {});
  for (const char* a : answers) {
    resolver->set("name.test", {"93.184.216.34", a});
    EXPECT_FALSE(guard.vet(std::string_view("https://name.test/"))) << a;
  }
}

TEST(UrlGuard, MetadataNamesBlockedWithoutLookup) {
  auto resolver = std::make_shared<testing::FakeResolver>();
  resolver->set("metadata.google.internal", {"8.8.8.8"});
  UrlGuard guard(resolver, private_allowed());
  EXPECT_FALSE(guard.vet(std::string_view("http://metadata.google.internal/computeMetadata/v1/")));
  EXPECT_FALSE(guard.vet(std::string_view("http://METADATA.GOOG./")));
  EXPECT_EQ(resolver->calls(), 0);
}

TEST(UrlGuard, AllowPrivateStillBlocksMetadata) {
  auto resolver = std::make_shared<testing::FakeResolver>();
  UrlGuard guard(resolver, private_allowed());
  EXPECT_TRUE(guard.vet(std::string_view("http://10.0.0.5/")));
  EXPECT_TRUE(guard.vet(std::string_view("http://[::1]/")));
  for (const char* u :
       {"http://169.254.169.254/", "http://[::ffff:169.254.169.254]/", "http://100.100.100.200/",
        "http://[fd00:ec2::254]/", "http://[2002:a9fe:a9fe::1]/", "http://[fd20:ce::254]/",
        "http://[fd00:c1::a9fe:a9fe]/opc/v2/instance/", "http://[fe80::a9fe:a9fe]/"})
    EXPECT_FALSE(guard.vet(std::string_view(u))) << u;
}

TEST(UrlGuard, NamesOfMetadataAddressesBlockedInEveryMode) {
  auto resolver = std::make_shared<testing::FakeResolver>();
  resolver->set("gcp.test", {"2600:1900::1", "fd20:ce::254"});
  resolver->set("oci.test", {"fd00:c1::a9fe:a9fe"});
  resolver->set("azure.test", {"168.63.129.16"});
  for (const GuardOptions& options : {GuardOptions{}, private_allowed()}) {
    UrlGuard guard(resolver, options);
    for (const char* u : {"http://gcp.test/", "http://oci.test/", "http://azure.test/"})
      EXPECT_FALSE(guard.vet(std::string_view(u))) << u;
  }
}

TEST(TestAllowlist, OnlyLoopbackLiteralsWithPorts) {
  auto ok = TestAllowlist::parse("127.0.0.1:8123,[::1]:8124");
  ASSERT_TRUE(ok);
  EXPECT_TRUE(ok->allows(*parse_ip("127.0.0.1"), 8123));
  EXPECT_FALSE(ok->allows(*parse_ip("127.0.0.1"), 8124));
  EXPECT_TRUE(ok->allows(*parse_ip("::1"), 8124));
  EXPECT_EQ(ok->describe(), "127.0.0.1:8123,[::1]:8124");
  for (const char* bad :
       {"localhost:80", "10.0.0.1:80", "127.0.0.1", "169.254.169.254:80", "127.0.0.1:0",
        "127.0.0.1:99999", "::1:80", "0.0.0.0:80", "127.0.0.1:80,example.com:80"})
    EXPECT_FALSE(TestAllowlist::parse(bad)) << bad;
}

TEST(TestAllowlist, OpensExactlyTheListedPort) {
  auto resolver = std::make_shared<testing::FakeResolver>();
  GuardOptions o;
  o.test_fixtures = *TestAllowlist::parse("127.0.0.1:8123");
  UrlGuard guard(resolver, std::move(o));
  auto fixture = guard.vet(std::string_view("http://127.0.0.1:8123/page"));
  ASSERT_TRUE(fixture);
  EXPECT_TRUE(fixture->test_fixture);
  EXPECT_FALSE(guard.vet(std::string_view("http://127.0.0.1:8124/")));
  EXPECT_FALSE(guard.vet(std::string_view("http://127.0.0.2:8123/")));
  EXPECT_FALSE(guard.vet(std::string_view("http://10.0.0.1:8123/")));
  EXPECT_FALSE(guard.vet(std::string_view("http://169.254.169.254:8123/")));
}

TEST(IdnHosts, ParsedToTheirAsciiForm) {
  auto url = parse_url("https://Münich.example:8080/p?q=1");
  ASSERT_TRUE(url);
  EXPECT_EQ(url->host, "xn--mnich-kva.example");
  EXPECT_EQ(url->text, "https://xn--mnich-kva.example:8080/p?q=1");
  EXPECT_EQ(ascii_host("faß.de"), "xn--fa-hia.de") << "UTS #46 non-transitional, as browsers";
  EXPECT_EQ(ascii_host("ＥＸＡＭＰＬＥ。com"), "example.com");
  EXPECT_EQ(ascii_host("１２７.０.０.１"), "127.0.0.1");
  EXPECT_FALSE(ascii_host("a\xC3.example"));
  EXPECT_FALSE(parse_url("http://a\xC3.example/"));
  auto disguised = parse_url("http://127。0。0。1/");
  ASSERT_TRUE(disguised);
  EXPECT_EQ(disguised->host, "127.0.0.1");
}

TEST(IdnHosts, DisguisedLoopbackIsBlockedWithoutLookup) {
  auto resolver = std::make_shared<testing::FakeResolver>();
  UrlGuard guard(resolver, {});
  for (const char* u : {"http://１２７.０.０.１/", "http://127。0。0。1/", "http://①②⑦.0.0.1/",
                        "http://[::１]/", "http://metadata。google。internal/"})
    EXPECT_FALSE(guard.vet(std::string_view(u))) << u;
  EXPECT_EQ(resolver->calls(), 0);
}

TEST(UrlNormalization, WhatAModelTypedBecomesFetchable) {
  EXPECT_EQ(normalize_url("  https://wttr.in/Köln "), "https://wttr.in/K%C3%B6ln");
  EXPECT_EQ(normalize_url("https://münich.example/a b"), "https://xn--mnich-kva.example/a%20b");
  EXPECT_EQ(normalize_url("https://user@Bücher.example:8443/"),
            "https://user@xn--bcher-kva.example:8443/");
  EXPECT_EQ(normalize_url("https://a\xC3.example/"), "https://a\xC3.example/")
      << "invalid: left for the check";
  EXPECT_EQ(normalize_url("https:// x.com/p"), "https://x.com/p");
  EXPECT_EQ(normalize_url("https://a.test/?next=https:// evil"),
            "https://a.test/?next=https://%20evil");
  EXPECT_EQ(normalize_url("https://a.test/%41?q=1#f"), "https://a.test/%41?q=1#f");
  EXPECT_EQ(normalize_url("http://a.test:8080/x"), "http://a.test:8080/x");
  EXPECT_EQ(encode_component("a b&c"), "a%20b%26c");
  EXPECT_EQ(percent_decode("%73k-%zz"), "sk-%zz");
}

}  // namespace
}  // namespace hermes::web
