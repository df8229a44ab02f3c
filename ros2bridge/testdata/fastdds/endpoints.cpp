// endpoints: a Fast DDS peer that follows the remote writers and readers
// SEDP announces, and their removal, through its participant listener's
// discovery callbacks (what rmw_fastrtps_cpp's graph listens to), the
// twin of ../cyclone/graph_watch.c's endpoint lines:
//
//   endpoints SUBSTRING
//
// prints {"ep":"pub"|"sub","topic":T,"guid":G,"alive":1|0} for each
// endpoint whose topic contains SUBSTRING when it is discovered (1) or
// removed (0); G is its GUID in 32 hex digits. Runs until stdin ends.
// Discovery by unicast on 127.0.0.1 only (internal/ddstest/unicast.hpp).
// Topics.idl is built in only because the test peers' build wants an IDL.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <string>

#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/domain/DomainParticipantListener.hpp>

#include "unicast.hpp"

using namespace eprosima::fastdds::dds;
using eprosima::fastrtps::rtps::GUID_t;
using eprosima::fastrtps::rtps::ReaderDiscoveryInfo;
using eprosima::fastrtps::rtps::WriterDiscoveryInfo;

static std::string sub;
static std::mutex out;

static void print(const char *kind, const std::string &topic, const GUID_t &g, bool alive) {
  if (topic.find(sub) == std::string::npos) return;
  char hex[33];
  for (int i = 0; i < 12; i++) std::snprintf(hex + 2 * i, 3, "%02x", g.guidPrefix.value[i]);
  for (int i = 0; i < 4; i++) std::snprintf(hex + 24 + 2 * i, 3, "%02x", g.entityId.value[i]);
  std::lock_guard<std::mutex> l(out);
  std::printf("{\"ep\":\"%s\",\"topic\":\"%s\",\"guid\":\"%s\",\"alive\":%d}\n", kind, topic.c_str(), hex, alive ? 1 : 0);
  std::fflush(stdout);
}

class Listener : public DomainParticipantListener {
  void on_publisher_discovery(DomainParticipant *, WriterDiscoveryInfo &&info) override {
    if (info.status == WriterDiscoveryInfo::DISCOVERED_WRITER || info.status == WriterDiscoveryInfo::REMOVED_WRITER)
      print("pub", info.info.topicName().to_string(), info.info.guid(), info.status == WriterDiscoveryInfo::DISCOVERED_WRITER);
  }
  void on_subscriber_discovery(DomainParticipant *, ReaderDiscoveryInfo &&info) override {
    if (info.status == ReaderDiscoveryInfo::DISCOVERED_READER || info.status == ReaderDiscoveryInfo::REMOVED_READER)
      print("sub", info.info.topicName().to_string(), info.info.guid(), info.status == ReaderDiscoveryInfo::DISCOVERED_READER);
  }
};

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: endpoints SUBSTRING\n");
    return 2;
  }
  sub = argv[1];
  const char *d = std::getenv("ROS_DOMAIN_ID");
  int domain = d ? std::atoi(d) : 0;
  DomainParticipantQos pqos;
  pqos.name("fastdds_endpoints");
  ddstest_unicast(pqos, domain);
  static Listener listener;
  DomainParticipant *pp = DomainParticipantFactory::get_instance()->create_participant(domain, pqos, &listener);
  if (pp == nullptr) {
    std::fprintf(stderr, "create_participant failed\n");
    return 1;
  }
  std::string line;
  while (std::getline(std::cin, line)) {
  }
  DomainParticipantFactory::get_instance()->delete_participant(pp);
  return 0;
}
