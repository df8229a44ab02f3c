// chatter: a Fast DDS peer for frcd's rtps interop tests, the twin of
// ../cyclone/chatter.c (same arguments, same output):
//
//   chatter pub TOPIC COUNT RELIABLE TRANSIENT SIZE
//   chatter sub TOPIC COUNT RELIABLE TRANSIENT
//
// The type is std_msgs::msg::dds_::String_ (../String.idl, by fastddsgen).
// Discovery is by unicast on 127.0.0.1 only: UDPv4 on the loopback
// interface (no shared memory), initial peers at the discovery ports of
// participant ids 0 to 20 of domain $ROS_DOMAIN_ID.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>

#include "unicast.hpp"
#include "StringPubSubTypes.h"

using namespace eprosima::fastdds::dds;

static void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

template <typename Q>
static void set_qos(Q &q, bool reliable, bool transient, int count) {
  q.reliability().kind = reliable ? RELIABLE_RELIABILITY_QOS : BEST_EFFORT_RELIABILITY_QOS;
  q.durability().kind = transient ? TRANSIENT_LOCAL_DURABILITY_QOS : VOLATILE_DURABILITY_QOS;
  q.history().kind = KEEP_LAST_HISTORY_QOS;
  q.history().depth = count > 10 ? count : 10;
}

int main(int argc, char **argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: chatter pub|sub TOPIC COUNT RELIABLE TRANSIENT [SIZE]\n");
    return 2;
  }
  const char *d = std::getenv("ROS_DOMAIN_ID");
  int domain = d ? std::atoi(d) : 0;
  bool is_pub = std::strcmp(argv[1], "pub") == 0;
  int count = std::atoi(argv[3]);
  bool reliable = std::atoi(argv[4]) != 0, transient = std::atoi(argv[5]) != 0;
  int size = argc > 6 ? std::atoi(argv[6]) : 0;

  DomainParticipantQos pqos;
  pqos.name("fastdds_chatter");
  ddstest_unicast(pqos, domain);

  DomainParticipant *pp = DomainParticipantFactory::get_instance()->create_participant(domain, pqos);
  if (pp == nullptr) {
    std::fprintf(stderr, "create_participant failed\n");
    return 1;
  }
  TypeSupport type(new std_msgs::msg::dds_::String_PubSubType());
  type.register_type(pp);
  Topic *topic = pp->create_topic(argv[2], type.get_type_name(), TOPIC_QOS_DEFAULT);
  if (topic == nullptr) {
    std::fprintf(stderr, "create_topic failed\n");
    return 1;
  }
  if (is_pub) {
    Publisher *pub = pp->create_publisher(PUBLISHER_QOS_DEFAULT);
    DataWriterQos wq = DATAWRITER_QOS_DEFAULT;
    set_qos(wq, reliable, transient, count);
    DataWriter *wr = pub->create_datawriter(topic, wq);
    if (wr == nullptr) {
      std::fprintf(stderr, "create_datawriter failed\n");
      return 1;
    }
    if (!transient) {
      PublicationMatchedStatus st;
      do {
        sleep_ms(5);
        wr->get_publication_matched_status(st);
      } while (st.current_count < 1);
    }
    for (int i = 0; i < count; i++) {
      std::string s = "hello " + std::to_string(i);
      if (static_cast<int>(s.size()) < size) s.append(static_cast<size_t>(size) - s.size(), 'x');
      std_msgs::msg::dds_::String_ msg;
      msg.data(s);
      if (!wr->write(&msg)) {
        std::fprintf(stderr, "write failed\n");
        return 1;
      }
    }
    std::printf("{\"event\":\"written\"}\n");
    std::fflush(stdout);
    while (std::getchar() != EOF) {
    }
  } else {
    Subscriber *sub = pp->create_subscriber(SUBSCRIBER_QOS_DEFAULT);
    DataReaderQos rq = DATAREADER_QOS_DEFAULT;
    set_qos(rq, reliable, transient, count);
    DataReader *rd = sub->create_datareader(topic, rq);
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
      std_msgs::msg::dds_::String_ msg;
      SampleInfo info;
      if (rd->take_next_sample(&msg, &info) == ReturnCode_t::RETCODE_OK && info.valid_data) {
        const std::string &s = msg.data();
        size_t head = s.find('x');
        if (head == std::string::npos || head > 32) head = s.size() < 32 ? s.size() : 32;
        std::printf("{\"len\":%zu,\"head\":\"%s\"}\n", s.size(), s.substr(0, head).c_str());
        std::fflush(stdout);
        got++;
        continue;
      }
      sleep_ms(2);
    }
  }
  pp->delete_contained_entities();
  DomainParticipantFactory::get_instance()->delete_participant(pp);
  return 0;
}
