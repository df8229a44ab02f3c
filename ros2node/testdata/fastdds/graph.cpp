// graph: a Fast DDS participant that takes part in the ROS 2 node graph
// as rmw_fastrtps does, the twin of ../cyclone/graph.c (same output, its
// own node /peer/fnode). Discovery by unicast on 127.0.0.1 only (UDPv4 on
// loopback, initial peers at participant ids 0 to 20 of $ROS_DOMAIN_ID).
// Runs until its standard input closes.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/domain/DomainParticipantListener.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>

#include "unicast.hpp"
#include "ParticipantEntitiesInfoPubSubTypes.h"

using namespace eprosima::fastdds::dds;
using rmw_dds_common::msg::dds_::Gid_;

static std::mutex out_mu;

static void line(const std::string &s) {
  std::lock_guard<std::mutex> lock(out_mu);
  std::printf("%s\n", s.c_str());
  std::fflush(stdout);
}

static std::string hex(const Gid_ &g) {
  char buf[33];
  for (int i = 0; i < 16; i++) std::snprintf(buf + 2 * i, 3, "%02x", static_cast<unsigned char>(g.data()[i]));
  return buf;
}

class Listener : public DomainParticipantListener {
 public:
  void on_participant_discovery(DomainParticipant *, eprosima::fastrtps::rtps::ParticipantDiscoveryInfo &&info) override {
    if (info.status != eprosima::fastrtps::rtps::ParticipantDiscoveryInfo::DISCOVERED_PARTICIPANT) return;
    const auto &ud = info.info.m_userData.data_vec();
    if (!ud.empty()) line("{\"user_data\":\"" + std::string(ud.begin(), ud.end()) + "\"}");
  }
};

int main() {
  const char *d = std::getenv("ROS_DOMAIN_ID");
  int domain = d ? std::atoi(d) : 0;
  DomainParticipantQos pqos;
  ddstest_unicast(pqos, domain);
  Listener listener;
  DomainParticipant *pp = DomainParticipantFactory::get_instance()->create_participant(domain, pqos, &listener);
  if (pp == nullptr) {
    std::fprintf(stderr, "create_participant failed\n");
    return 1;
  }
  TypeSupport type(new rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_PubSubType());
  type.register_type(pp);
  Topic *topic = pp->create_topic("ros_discovery_info", type.get_type_name(), TOPIC_QOS_DEFAULT);
  DataWriterQos wq = DATAWRITER_QOS_DEFAULT;
  wq.reliability().kind = RELIABLE_RELIABILITY_QOS;
  wq.durability().kind = TRANSIENT_LOCAL_DURABILITY_QOS;
  wq.history().kind = KEEP_LAST_HISTORY_QOS;
  wq.history().depth = 1;
  DataWriter *wr = pp->create_publisher(PUBLISHER_QOS_DEFAULT)->create_datawriter(topic, wq);
  DataReaderQos rq = DATAREADER_QOS_DEFAULT;
  rq.reliability().kind = RELIABLE_RELIABILITY_QOS;
  rq.durability().kind = TRANSIENT_LOCAL_DURABILITY_QOS;
  rq.history().kind = KEEP_ALL_HISTORY_QOS;
  DataReader *rd = pp->create_subscriber(SUBSCRIBER_QOS_DEFAULT)->create_datareader(topic, rq);
  if (wr == nullptr || rd == nullptr) {
    std::fprintf(stderr, "creating the endpoints failed\n");
    return 1;
  }
  rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_ info;
  const auto &guid = pp->guid();
  std::memcpy(info.gid().data().data(), guid.guidPrefix.value, 12);
  std::memcpy(info.gid().data().data() + 12, guid.entityId.value, 4);
  rmw_dds_common::msg::dds_::NodeEntitiesInfo_ node;
  node.node_namespace("/peer");
  node.node_name("fnode");
  info.node_entities_info_seq().push_back(node);
  wr->write(&info);

  std::atomic<bool> done{false};
  std::thread([&done] {
    while (std::getchar() != EOF) {
    }
    done = true;
  }).detach();
  while (!done) {
    rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_ m;
    SampleInfo si;
    if (rd->take_next_sample(&m, &si) == ReturnCode_t::RETCODE_OK && si.valid_data) {
      for (const auto &e : m.node_entities_info_seq()) {
        std::string ns = e.node_namespace().to_string(), name = e.node_name().to_string();
        std::string full = ns == "/" ? "/" + name : ns + "/" + name;
        line("{\"node\":\"" + full + "\",\"readers\":" + std::to_string(e.reader_gid_seq().size()) +
             ",\"writers\":" + std::to_string(e.writer_gid_seq().size()) + ",\"reader0\":\"" +
             (e.reader_gid_seq().empty() ? "" : hex(e.reader_gid_seq()[0])) + "\",\"writer0\":\"" +
             (e.writer_gid_seq().empty() ? "" : hex(e.writer_gid_seq()[0])) + "\"}");
      }
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  pp->delete_contained_entities();
  DomainParticipantFactory::get_instance()->delete_participant(pp);
  return 0;
}
