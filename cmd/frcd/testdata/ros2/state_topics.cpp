// state_topics: a Fast DDS subscriber of frcd's ROS 2 state topics, the
// twin of state_topics.c (same output, without "typehash": Fast DDS 2.9.1
// does not give a matched writer's USER_DATA to a DataReader):
//
//   state_topics
//
// rt/tf_static (reliable, transient local, keep last 1), rt/rosout
// (reliable, transient local, keep last 1000), rt/diagnostics (reliable,
// volatile, keep last 10); types by fastddsgen from State.idl. Discovery
// is by unicast on 127.0.0.1 only (internal/ddstest/unicast.hpp).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>

#include "unicast.hpp"
#include "StatePubSubTypes.h"

using namespace eprosima::fastdds::dds;

static std::string clean(const std::string &s) {
  std::string out = s.substr(0, 200);
  for (char &c : out)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 32) c = '\'';
  return out;
}

static DataReader *reader(DomainParticipant *pp, Subscriber *sub, TopicDataType *t, const char *name, bool durable, int depth) {
  TypeSupport type(t);
  type.register_type(pp);
  Topic *topic = pp->create_topic(name, type.get_type_name(), TOPIC_QOS_DEFAULT);
  DataReaderQos q = DATAREADER_QOS_DEFAULT;
  q.reliability().kind = RELIABLE_RELIABILITY_QOS;
  q.durability().kind = durable ? TRANSIENT_LOCAL_DURABILITY_QOS : VOLATILE_DURABILITY_QOS;
  q.history().kind = KEEP_LAST_HISTORY_QOS;
  q.history().depth = depth;
  // Samples of any size (the generated types' bounds are only estimates).
  q.endpoint().history_memory_policy = eprosima::fastrtps::rtps::DYNAMIC_REUSABLE_MEMORY_MODE;
  DataReader *rd = topic ? sub->create_datareader(topic, q) : nullptr;
  if (rd == nullptr) {
    std::fprintf(stderr, "create_datareader %s failed\n", name);
    std::exit(1);
  }
  return rd;
}

int main() {
  DomainParticipant *pp = ddstest_participant("fastdds_state_topics");
  Subscriber *sub = pp->create_subscriber(SUBSCRIBER_QOS_DEFAULT);
  DataReader *tf = reader(pp, sub, new tf2_msgs::msg::dds_::TFMessage_PubSubType(), "rt/tf_static", true, 1);
  DataReader *lg = reader(pp, sub, new rcl_interfaces::msg::dds_::Log_PubSubType(), "rt/rosout", true, 1000);
  DataReader *dg = reader(pp, sub, new diagnostic_msgs::msg::dds_::DiagnosticArray_PubSubType(), "rt/diagnostics", false, 10);
  bool got_tf = false, got_up = false, got_diag = false, matched = false;
  SampleInfo info;
  while (!(got_tf && got_up && got_diag)) {
    bool any = false;
    if (!matched) {
      SubscriptionMatchedStatus st;
      tf->get_subscription_matched_status(st);
      if (st.current_count > 0) {
        matched = true;
        std::printf("{\"topic\":\"matched\"}\n");
      }
    }
    tf2_msgs::msg::dds_::TFMessage_ t;
    if (tf->take_next_sample(&t, &info) == ReturnCode_t::RETCODE_OK && info.valid_data) {
      any = got_tf = true;
      const auto &v = t.transforms();
      std::printf("{\"topic\":\"tf_static\",\"n\":%zu,\"parent\":\"%s\",\"child\":\"%s\",\"x\":%g,\"w\":%g}\n", v.size(),
                  v.empty() ? "" : clean(v[0].header().frame_id()).c_str(), v.empty() ? "" : clean(v[0].child_frame_id()).c_str(),
                  v.empty() ? 0.0 : v[0].transform().translation().x(), v.empty() ? 0.0 : v[0].transform().rotation().w());
    }
    rcl_interfaces::msg::dds_::Log_ l;
    if (lg->take_next_sample(&l, &info) == ReturnCode_t::RETCODE_OK && info.valid_data) {
      any = true;
      std::printf("{\"topic\":\"rosout\",\"level\":%u,\"name\":\"%s\",\"msg\":\"%s\"}\n", unsigned(l.level()), clean(l.name()).c_str(),
                  clean(l.msg()).c_str());
      if (l.msg().rfind("ros2: node up", 0) == 0) got_up = true;
    }
    diagnostic_msgs::msg::dds_::DiagnosticArray_ g;
    if (dg->take_next_sample(&g, &info) == ReturnCode_t::RETCODE_OK && info.valid_data) {
      any = got_diag = true;
      const auto &st = g.status();
      std::printf("{\"topic\":\"diagnostics\",\"n\":%zu,\"first\":\"%s\",\"level\":%u}\n", st.size(),
                  st.empty() ? "" : clean(st[0].name()).c_str(), st.empty() ? 0u : unsigned(st[0].level()));
    }
    std::fflush(stdout);
    if (!any) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  pp->delete_contained_entities();
  DomainParticipantFactory::get_instance()->delete_participant(pp);
  return 0;
}
