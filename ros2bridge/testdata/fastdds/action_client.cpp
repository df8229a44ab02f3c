// action_client: a FollowJointTrajectory action client of
// /arm_trajectory/follow_joint_trajectory in rmw_fastrtps's service
// convention, on Fast DDS 2.9.1 (types from ActionFastDDS.idl by
// fastddsgen): each request carries the related sample identity {this
// client's reply reader, unknown}, a reply is the request's when its
// related sample identity is {that reader or the request writer, the
// request's sequence number}. It sends a goal (shoulder 0.5 then 0.8 rad,
// elevator 0.2 then 0.4 m, at 1 and 2 s), asks for its result at once,
// and prints {"accepted":A,"status":S,"error_code":C}.
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
#include "ActionFastDDSPubSubTypes.h"

using namespace eprosima::fastdds::dds;
namespace act = control_msgs::action::dds_;

static DomainParticipant *pp;

// A service client: its request writer and reply reader, matched.
struct Client {
  DataWriter *w;
  DataReader *r;
};

static Client client(const char *name, TopicDataType *req, TopicDataType *resp) {
  TypeSupport reqt(req), respt(resp);
  reqt.register_type(pp);
  respt.register_type(pp);
  std::string base = std::string("/arm_trajectory/follow_joint_trajectory/_action/") + name;
  Topic *rq = pp->create_topic("rq" + base + "Request", reqt.get_type_name(), TOPIC_QOS_DEFAULT);
  Topic *rr = pp->create_topic("rr" + base + "Reply", respt.get_type_name(), TOPIC_QOS_DEFAULT);
  DataWriterQos wq = DATAWRITER_QOS_DEFAULT;
  wq.reliability().kind = RELIABLE_RELIABILITY_QOS;
  wq.history().kind = KEEP_LAST_HISTORY_QOS;
  wq.history().depth = 10;
  DataReaderQos rqos = DATAREADER_QOS_DEFAULT;
  rqos.reliability().kind = RELIABLE_RELIABILITY_QOS;
  rqos.history().kind = KEEP_LAST_HISTORY_QOS;
  rqos.history().depth = 10;
  Client c{pp->create_publisher(PUBLISHER_QOS_DEFAULT)->create_datawriter(rq, wq),
           pp->create_subscriber(SUBSCRIBER_QOS_DEFAULT)->create_datareader(rr, rqos)};
  if (c.w == nullptr || c.r == nullptr) {
    std::fprintf(stderr, "creating the endpoints of %s failed\n", name);
    std::exit(1);
  }
  PublicationMatchedStatus ps;
  SubscriptionMatchedStatus ss;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    c.w->get_publication_matched_status(ps);
    c.r->get_subscription_matched_status(ss);
  } while (ps.current_count < 1 || ss.current_count < 1);
  return c;
}

// call writes req and takes replies into resp until the one to it.
template <typename Req, typename Resp>
static void call(Client &c, Req &req, Resp &resp) {
  eprosima::fastrtps::rtps::WriteParams wp;
  wp.related_sample_identity().writer_guid() = c.r->guid();
  if (!c.w->write(&req, wp)) {
    std::fprintf(stderr, "write failed\n");
    std::exit(1);
  }
  const auto sn = wp.sample_identity().sequence_number();
  for (;;) {
    SampleInfo si;
    if (c.r->take_next_sample(&resp, &si) == ReturnCode_t::RETCODE_OK && si.valid_data) {
      const auto &rel = si.related_sample_identity;
      if ((rel.writer_guid() == c.r->guid() || rel.writer_guid() == c.w->guid()) && rel.sequence_number() == sn)
        return;
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

int main() {
  const char *d = std::getenv("ROS_DOMAIN_ID");
  int domain = d ? std::atoi(d) : 0;
  DomainParticipantQos pqos;
  ddstest_unicast(pqos, domain);
  pp = DomainParticipantFactory::get_instance()->create_participant(domain, pqos);
  Client send = client("send_goal", new act::FollowJointTrajectory_SendGoal_Request_PubSubType(),
                       new act::FollowJointTrajectory_SendGoal_Response_PubSubType());
  Client result = client("get_result", new act::FollowJointTrajectory_GetResult_Request_PubSubType(),
                         new act::FollowJointTrajectory_GetResult_Response_PubSubType());
  std::this_thread::sleep_for(std::chrono::milliseconds(200)); // the server's reply writers learn the readers too

  act::FollowJointTrajectory_SendGoal_Request_ req;
  req.goal_id().uuid()[0] = 7;
  auto &tr = req.goal().trajectory();
  tr.joint_names({"shoulder_joint", "elevator_joint"});
  const double pts[2][3] = {{0.5, 0.2, 1}, {0.8, 0.4, 2}};
  for (auto &p : pts) {
    trajectory_msgs::msg::dds_::JointTrajectoryPoint_ jp;
    jp.positions({p[0], p[1]});
    jp.time_from_start().sec(static_cast<int32_t>(p[2]));
    tr.points().push_back(jp);
  }
  act::FollowJointTrajectory_SendGoal_Response_ sresp;
  call(send, req, sresp);

  act::FollowJointTrajectory_GetResult_Request_ rreq;
  rreq.goal_id().uuid()[0] = 7;
  act::FollowJointTrajectory_GetResult_Response_ rresp;
  call(result, rreq, rresp);
  std::printf("{\"accepted\":%d,\"status\":%d,\"error_code\":%d}\n", sresp.accepted() ? 1 : 0, static_cast<int>(rresp.status()),
              static_cast<int>(rresp.result().error_code()));
  std::fflush(stdout);
  pp->delete_contained_entities();
  DomainParticipantFactory::get_instance()->delete_participant(pp);
  return 0;
}
