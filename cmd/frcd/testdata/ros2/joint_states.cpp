// joint_states: a Fast DDS subscriber of frcd's ROS 2 /joint_states, the
// twin of joint_states.c (same argument, same output):
//
//   joint_states COUNT
//
// The type is sensor_msgs::msg::dds_::JointState_ (JointState.idl, by
// fastddsgen), on rt/joint_states, reliable, volatile, keep last 10.
// Discovery is by unicast on 127.0.0.1 only, or Fast DDS's default
// multicast under DDSTEST_DISCOVERY=multicast (internal/ddstest/unicast.hpp).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>

#include "unicast.hpp"
#include "JointStatePubSubTypes.h"

using namespace eprosima::fastdds::dds;

static bool finite_all(const std::vector<double> &v, size_t n) {
  if (v.size() != n) return false;
  for (double x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

// print_json_string prints s as a JSON string.
static void print_json_string(const std::string &s) {
  std::putchar('"');
  for (unsigned char c : s) {
    if (c == '"' || c == '\\')
      std::printf("\\%c", c);
    else if (c < 0x20)
      std::printf("\\u%04x", c);
    else
      std::putchar(c);
  }
  std::putchar('"');
}

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: joint_states COUNT\n");
    return 2;
  }
  int count = std::atoi(argv[1]);
  DomainParticipant *pp = ddstest_participant("fastdds_joint_states");
  TypeSupport type(new sensor_msgs::msg::dds_::JointState_PubSubType());
  type.register_type(pp);
  Topic *topic = pp->create_topic("rt/joint_states", type.get_type_name(), TOPIC_QOS_DEFAULT);
  Subscriber *sub = pp->create_subscriber(SUBSCRIBER_QOS_DEFAULT);
  DataReaderQos rq = DATAREADER_QOS_DEFAULT;
  rq.reliability().kind = RELIABLE_RELIABILITY_QOS;
  rq.durability().kind = VOLATILE_DURABILITY_QOS;
  rq.history().kind = KEEP_LAST_HISTORY_QOS;
  rq.history().depth = 10;
  DataReader *rd = topic && sub ? sub->create_datareader(topic, rq) : nullptr;
  if (rd == nullptr) {
    std::fprintf(stderr, "create_datareader failed\n");
    return 1;
  }
  bool matched = false;
  int got = 0;
  while (got < count) {
    if (!matched) {
      SubscriptionMatchedStatus st;
      rd->get_subscription_matched_status(st);
      if (st.current_count > 0) {
        matched = true;
        std::printf("{\"event\":\"matched\"}\n");
        std::fflush(stdout);
      }
    }
    sensor_msgs::msg::dds_::JointState_ msg;
    SampleInfo info;
    if (rd->take_next_sample(&msg, &info) == ReturnCode_t::RETCODE_OK && info.valid_data) {
      size_t n = msg.name().size();
      bool fin = finite_all(msg.position(), n) && finite_all(msg.velocity(), n) && finite_all(msg.effort(), n);
      std::string first = n > 0 ? msg.name()[0].substr(0, 64) : "";
      std::printf("{\"n\":%zu,\"first\":\"%s\",\"finite\":%d,\"sec\":%d,\"names\":[", n, first.c_str(), fin ? 1 : 0, msg.header().stamp().sec());
      for (size_t i = 0; i < n; i++) {
        if (i > 0) std::putchar(',');
        print_json_string(msg.name()[i]);
      }
      std::printf("]}\n");
      std::fflush(stdout);
      got++;
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  pp->delete_contained_entities();
  DomainParticipantFactory::get_instance()->delete_participant(pp);
  return 0;
}
