// add_client: a ROS 2 service client of /add_two_ints
// (example_interfaces/srv/AddTwoInts) in rmw_fastrtps's convention, on
// Fast DDS: each request on rq/add_two_intsRequest carries the related
// sample identity {this client's reply reader, unknown sequence}; a reply
// on rr/add_two_intsReply is this request's when its related sample
// identity is {that reader (or the request writer), the request's
// sequence number}. It sends (2, 40) then (-5, 3) and prints
// {"seq":S,"sum":N} per reply, S the request's RTPS sequence number.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>
#include <fastdds/rtps/common/WriteParams.h>

#include "unicast.hpp"
#include "AddTwoIntsPubSubTypes.h"

using namespace eprosima::fastdds::dds;
using example_interfaces::srv::dds_::AddTwoInts_Request_;
using example_interfaces::srv::dds_::AddTwoInts_Response_;

int main() {
  const char *d = std::getenv("ROS_DOMAIN_ID");
  int domain = d ? std::atoi(d) : 0;
  DomainParticipantQos pqos;
  ddstest_unicast(pqos, domain);
  DomainParticipant *pp = DomainParticipantFactory::get_instance()->create_participant(domain, pqos);
  TypeSupport reqt(new example_interfaces::srv::dds_::AddTwoInts_Request_PubSubType());
  TypeSupport respt(new example_interfaces::srv::dds_::AddTwoInts_Response_PubSubType());
  reqt.register_type(pp);
  respt.register_type(pp);
  Topic *rq = pp->create_topic("rq/add_two_intsRequest", reqt.get_type_name(), TOPIC_QOS_DEFAULT);
  Topic *rr = pp->create_topic("rr/add_two_intsReply", respt.get_type_name(), TOPIC_QOS_DEFAULT);
  DataWriterQos wq = DATAWRITER_QOS_DEFAULT;
  wq.reliability().kind = RELIABLE_RELIABILITY_QOS;
  wq.history().kind = KEEP_LAST_HISTORY_QOS;
  wq.history().depth = 10;
  DataReaderQos rqos = DATAREADER_QOS_DEFAULT;
  rqos.reliability().kind = RELIABLE_RELIABILITY_QOS;
  rqos.history().kind = KEEP_LAST_HISTORY_QOS;
  rqos.history().depth = 10;
  DataWriter *wr = pp->create_publisher(PUBLISHER_QOS_DEFAULT)->create_datawriter(rq, wq);
  DataReader *rd = pp->create_subscriber(SUBSCRIBER_QOS_DEFAULT)->create_datareader(rr, rqos);
  if (wr == nullptr || rd == nullptr) {
    std::fprintf(stderr, "creating the endpoints failed\n");
    return 1;
  }
  PublicationMatchedStatus ps;
  SubscriptionMatchedStatus ss;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    wr->get_publication_matched_status(ps);
    rd->get_subscription_matched_status(ss);
  } while (ps.current_count < 1 || ss.current_count < 1);
  const auto reader_guid = rd->guid();
  long long args[2][2] = {{2, 40}, {-5, 3}};
  for (auto &a : args) {
    AddTwoInts_Request_ req;
    req.a(a[0]);
    req.b(a[1]);
    eprosima::fastrtps::rtps::WriteParams wp;
    wp.related_sample_identity().writer_guid() = reader_guid;
    if (!wr->write(&req, wp)) {
      std::fprintf(stderr, "write failed\n");
      return 1;
    }
    const auto sn = wp.sample_identity().sequence_number();
    for (;;) {
      AddTwoInts_Response_ resp;
      SampleInfo si;
      if (rd->take_next_sample(&resp, &si) == ReturnCode_t::RETCODE_OK && si.valid_data) {
        const auto &rel = si.related_sample_identity;
        if ((rel.writer_guid() == reader_guid || rel.writer_guid() == wr->guid()) && rel.sequence_number() == sn) {
          std::printf("{\"seq\":%lld,\"sum\":%lld}\n", static_cast<long long>(sn.to64long()), static_cast<long long>(resp.sum()));
          std::fflush(stdout);
          break;
        }
        std::fprintf(stderr, "a reply not for this request (related seq %lld)\n", static_cast<long long>(rel.sequence_number().to64long()));
        continue;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  pp->delete_contained_entities();
  DomainParticipantFactory::get_instance()->delete_participant(pp);
  return 0;
}
