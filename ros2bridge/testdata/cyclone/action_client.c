/* action_client: a ROS 2 client of frcd's drive base and joint trajectory
 * controller on Cyclone DDS, in rmw_cyclonedds's conventions (a request
 * header {guid, seq} before a request's and a reply's fields; types from
 * ActionCyclone.idl by idlc). Domain $ROS_DOMAIN_ID, network
 * $CYCLONEDDS_URI. Modes:
 *   twist S      publish geometry_msgs/msg/TwistStamped {linear.x 0.5} on
 *                /drive/cmd_vel at 50 Hz for S seconds; prints {"sent":N}
 *   succeed      send a FollowJointTrajectory goal to
 *                /arm_trajectory/follow_joint_trajectory (shoulder 0.5 then
 *                0.8 rad, elevator 0.2 then 0.4 m, at 1 and 2 s), ask for
 *                its result, and print {"accepted":A,"status":S,"error_code":C,
 *                "feedback":F,"status_msgs":M}
 *   cancel       send a goal back to shoulder 0.5 over 2 s, cancel it after
 *                1 s, print the cancel's return code and the result as above
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "ActionCyclone.h"

#define ACTION "/arm_trajectory/follow_joint_trajectory/_action/"
static const uint64_t me = 0x0123456789abcdefULL;
static dds_entity_t pp;

static dds_entity_t topic(const dds_topic_descriptor_t *desc, const char *name) {
  dds_entity_t t = dds_create_topic(pp, desc, name, NULL, NULL);
  if (t < 0) {
    fprintf(stderr, "topic %s: %s\n", name, dds_strretcode(t));
    exit(1);
  }
  return t;
}

static dds_entity_t endpoint(int writer, const dds_topic_descriptor_t *desc, const char *name, int latched) {
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, latched ? 1 : 10);
  if (latched)
    dds_qset_durability(q, DDS_DURABILITY_TRANSIENT_LOCAL);
  dds_entity_t t = topic(desc, name);
  dds_entity_t e = writer ? dds_create_writer(pp, t, q, NULL) : dds_create_reader(pp, t, q, NULL);
  dds_delete_qos(q);
  if (e < 0) {
    fprintf(stderr, "endpoint %s: %s\n", name, dds_strretcode(e));
    exit(1);
  }
  return e;
}

/* matched waits until writer w and reader r have each matched one peer. */
static void matched(dds_entity_t w, dds_entity_t r) {
  dds_publication_matched_status_t ps = {0};
  dds_subscription_matched_status_t ss = {0};
  while (ps.current_count < 1 || ss.current_count < 1) {
    dds_get_publication_matched_status(w, &ps);
    dds_get_subscription_matched_status(r, &ss);
    dds_sleepfor(DDS_MSECS(5));
  }
}

static int twist(double secs) {
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_entity_t w = dds_create_writer(pp, topic(&geometry_msgs_msg_dds__TwistStamped__desc, "rt/drive/cmd_vel"), q, NULL);
  dds_delete_qos(q);
  dds_publication_matched_status_t ps = {0};
  while (ps.current_count < 1) {
    dds_get_publication_matched_status(w, &ps);
    dds_sleepfor(DDS_MSECS(5));
  }
  int n = 0;
  for (; n < secs * 50; n++) {
    geometry_msgs_msg_dds__TwistStamped_ m = {.header = {.frame_id = "base_link"}, .twist = {.linear = {.x = 0.5}}};
    dds_write(w, &m);
    dds_sleepfor(DDS_MSECS(20));
  }
  printf("{\"sent\":%d}\n", n);
  return 0;
}

static dds_entity_t goal_w, goal_r, result_w, result_r, cancel_w, cancel_r, feedback_r, status_r;
static int feedbacks, statuses;

/* drain counts the feedback and status samples that came. */
static void drain(void) {
  void *samples[1] = {NULL};
  dds_sample_info_t si;
  while (dds_take(feedback_r, samples, &si, 1, 1) > 0) {
    if (si.valid_data)
      feedbacks++;
    dds_return_loan(feedback_r, samples, 1);
    samples[0] = NULL;
  }
  while (dds_take(status_r, samples, &si, 1, 1) > 0) {
    if (si.valid_data)
      statuses++;
    dds_return_loan(status_r, samples, 1);
    samples[0] = NULL;
  }
}

/* reply takes from r until a sample whose header is seq's, into buf (a
 * reply struct starting with cdds_guid, cdds_seq). */
static void reply(dds_entity_t r, void *buf, int64_t seq) {
  for (;;) {
    void *samples[1] = {buf};
    dds_sample_info_t si;
    if (dds_take(r, samples, &si, 1, 1) > 0 && si.valid_data) {
      uint64_t *h = buf;
      if (h[0] == me && (int64_t)h[1] == seq)
        return;
    }
    drain();
    dds_sleepfor(DDS_MSECS(2));
  }
}

static int64_t seq;

static int send_goal(uint8_t id, const double (*pts)[3], int n) {
  static char *names[] = {"shoulder_joint", "elevator_joint"};
  trajectory_msgs_msg_dds__JointTrajectoryPoint_ points[4];
  double pos[4][2];
  memset(points, 0, sizeof points);
  for (int i = 0; i < n; i++) {
    pos[i][0] = pts[i][0];
    pos[i][1] = pts[i][1];
    points[i].positions._length = points[i].positions._maximum = 2;
    points[i].positions._buffer = pos[i];
    points[i].time_from_start.sec = (int32_t)pts[i][2];
    points[i].time_from_start.nanosec = (uint32_t)((pts[i][2] - (int32_t)pts[i][2]) * 1e9);
  }
  control_msgs_action_dds__FollowJointTrajectory_SendGoal_Request_ req;
  memset(&req, 0, sizeof req);
  req.cdds_guid = me;
  req.cdds_seq = ++seq;
  req.goal_id.uuid[0] = id;
  req.goal.trajectory.joint_names._length = req.goal.trajectory.joint_names._maximum = 2;
  req.goal.trajectory.joint_names._buffer = names;
  req.goal.trajectory.points._length = req.goal.trajectory.points._maximum = n;
  req.goal.trajectory.points._buffer = points;
  req.goal.trajectory.header.frame_id = "";
  req.goal.multi_dof_trajectory.header.frame_id = "";
  dds_write(goal_w, &req);
  control_msgs_action_dds__FollowJointTrajectory_SendGoal_Response_ resp;
  reply(goal_r, &resp, seq);
  return resp.accepted;
}

static void result(uint8_t id, int accepted) {
  control_msgs_action_dds__FollowJointTrajectory_GetResult_Request_ req = {.cdds_guid = me, .cdds_seq = ++seq};
  req.goal_id.uuid[0] = id;
  dds_write(result_w, &req);
  control_msgs_action_dds__FollowJointTrajectory_GetResult_Response_ resp;
  memset(&resp, 0, sizeof resp);
  reply(result_r, &resp, seq);
  drain();
  printf("{\"accepted\":%d,\"status\":%d,\"error_code\":%d,\"feedback\":%d,\"status_msgs\":%d}\n", accepted, resp.status,
         resp.result.error_code, feedbacks, statuses);
}

int main(int argc, char **argv) {
  const char *d = getenv("ROS_DOMAIN_ID");
  pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (pp < 0 || argc < 2) {
    fprintf(stderr, "usage: action_client twist S | succeed | cancel\n");
    return 1;
  }
  if (strcmp(argv[1], "twist") == 0)
    return twist(argc > 2 ? atof(argv[2]) : 1);
  goal_w = endpoint(1, &control_msgs_action_dds__FollowJointTrajectory_SendGoal_Request__desc, "rq" ACTION "send_goalRequest", 0);
  goal_r = endpoint(0, &control_msgs_action_dds__FollowJointTrajectory_SendGoal_Response__desc, "rr" ACTION "send_goalReply", 0);
  result_w = endpoint(1, &control_msgs_action_dds__FollowJointTrajectory_GetResult_Request__desc, "rq" ACTION "get_resultRequest", 0);
  result_r = endpoint(0, &control_msgs_action_dds__FollowJointTrajectory_GetResult_Response__desc, "rr" ACTION "get_resultReply", 0);
  cancel_w = endpoint(1, &action_msgs_srv_dds__CancelGoal_Request__desc, "rq" ACTION "cancel_goalRequest", 0);
  cancel_r = endpoint(0, &action_msgs_srv_dds__CancelGoal_Response__desc, "rr" ACTION "cancel_goalReply", 0);
  feedback_r = endpoint(0, &control_msgs_action_dds__FollowJointTrajectory_FeedbackMessage__desc, "rt" ACTION "feedback", 0);
  status_r = endpoint(0, &action_msgs_msg_dds__GoalStatusArray__desc, "rt" ACTION "status", 1);
  matched(goal_w, goal_r);
  matched(result_w, result_r);
  matched(cancel_w, cancel_r);
  dds_sleepfor(DDS_MSECS(200)); /* the server's reply writers learn the reply readers too */
  if (strcmp(argv[1], "succeed") == 0) {
    const double pts[2][3] = {{0.5, 0.2, 1}, {0.8, 0.4, 2}};
    result(1, send_goal(1, pts, 2));
  } else if (strcmp(argv[1], "cancel") == 0) {
    const double pts[1][3] = {{0.5, 0.4, 2}};
    int accepted = send_goal(2, pts, 1);
    dds_sleepfor(DDS_SECS(1));
    action_msgs_srv_dds__CancelGoal_Request_ req = {.cdds_guid = me, .cdds_seq = ++seq};
    req.goal_info.goal_id.uuid[0] = 2;
    dds_write(cancel_w, &req);
    action_msgs_srv_dds__CancelGoal_Response_ resp;
    memset(&resp, 0, sizeof resp);
    reply(cancel_r, &resp, seq);
    printf("{\"cancel\":%d,\"canceling\":%u}\n", resp.return_code, resp.goals_canceling._length);
    fflush(stdout);
    result(2, accepted);
  }
  fflush(stdout);
  dds_delete(pp);
  return 0;
}
