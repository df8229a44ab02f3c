// unicast.hpp: the Fast DDS test peers' network setup (internal/ddstest,
// on every g++ include path it builds with): UDPv4 on 127.0.0.1 only, no
// shared memory, initial peers at the discovery ports of participant ids
// 0 to 20 of the domain (DDSI-RTPS 2.3 9.6.1: 7400 + 250 domain + 10 + 2 id).
// ddstest_participant is a participant so set up on $ROS_DOMAIN_ID, or with
// Fast DDS's default participant QoS (UDPv4 and shared memory, SPDP by
// multicast: what rmw_fastrtps_cpp starts from) when the environment has
// DDSTEST_DISCOVERY=multicast (ddstest.MulticastEnv).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>

#include <fastdds/dds/domain/qos/DomainParticipantQos.hpp>
#include <fastdds/rtps/transport/UDPv4TransportDescriptor.h>
#include <fastrtps/utils/IPLocator.h>

inline void ddstest_unicast(eprosima::fastdds::dds::DomainParticipantQos &pqos, int domain) {
  using eprosima::fastrtps::rtps::IPLocator;
  using eprosima::fastrtps::rtps::Locator_t;
  pqos.transport().use_builtin_transports = false;
  auto udp = std::make_shared<eprosima::fastdds::rtps::UDPv4TransportDescriptor>();
  udp->interfaceWhiteList.push_back("127.0.0.1");
  pqos.transport().user_transports.push_back(udp);
  for (int i = 0; i <= 20; i++) {
    Locator_t peer;
    IPLocator::setIPv4(peer, 127, 0, 0, 1);
    peer.port = static_cast<uint32_t>(7400 + 250 * domain + 10 + 2 * i);
    pqos.wire_protocol().builtin.initialPeersList.push_back(peer);
  }
  Locator_t meta, user;
  IPLocator::setIPv4(meta, 127, 0, 0, 1);
  IPLocator::setIPv4(user, 127, 0, 0, 1);
  pqos.wire_protocol().builtin.metatrafficUnicastLocatorList.push_back(meta);
  pqos.wire_protocol().default_unicast_locator_list.push_back(user);
}

// ddstest_participant creates a participant named name on the domain
// $ROS_DOMAIN_ID (default 0) with ddstest_unicast's setup, or Fast DDS's
// defaults under DDSTEST_DISCOVERY=multicast; it exits the program when it
// cannot.
inline eprosima::fastdds::dds::DomainParticipant *ddstest_participant(const char *name) {
  using namespace eprosima::fastdds::dds;
  const char *d = std::getenv("ROS_DOMAIN_ID");
  int domain = d ? std::atoi(d) : 0;
  DomainParticipantQos pqos;
  pqos.name(name);
  const char *disc = std::getenv("DDSTEST_DISCOVERY");
  if (disc == nullptr || std::strcmp(disc, "multicast") != 0) ddstest_unicast(pqos, domain);
  DomainParticipant *pp = DomainParticipantFactory::get_instance()->create_participant(domain, pqos);
  if (pp == nullptr) {
    std::fprintf(stderr, "create_participant failed\n");
    std::exit(1);
  }
  return pp;
}
