/* pub: the reference of `make bench`'s ROS 2 figures: a Cyclone DDS C
 * publisher of sensor_msgs/JointState as frcd's ROS 2 node publishes it.
 *
 *   pub RATE SECONDS JOINTS
 *
 * It writes one sensor_msgs::msg::dds_::JointState_ (JointState.idl,
 * compiled by idlc) on the DDS topic rt/joint_states (reliable, volatile,
 * keep last 10: rmw's default profile) every 1/RATE s, on an absolute
 * schedule, for SECONDS, with JOINTS joints (names joint0...; positions,
 * velocities and efforts changing each sample), stamped with the host's
 * real-time clock at the write, as frcd stamps its own. The domain is
 * $ROS_DOMAIN_ID; the network setup comes from $CYCLONEDDS_URI.
 */
#define _GNU_SOURCE
#include <time.h>
#include "joint_states.h"

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: pub RATE SECONDS JOINTS\n");
    return 2;
  }
  double rate = atof(argv[1]), secs = atof(argv[2]);
  int joints = atoi(argv[3]);
  if (rate <= 0 || rate > 100000 || secs <= 0 || joints < 0 || joints > 1000) {
    fprintf(stderr, "pub: RATE in (0, 100000], SECONDS > 0, JOINTS in [0, 1000]\n");
    return 2;
  }
  dds_entity_t pp, tp;
  dds_qos_t *q = js_open(&pp, &tp);
  if (q == NULL) return 1;
  dds_entity_t wr = dds_create_writer(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (wr < 0) {
    fprintf(stderr, "dds_create_writer: %s\n", dds_strretcode(-wr));
    return 1;
  }
  sensor_msgs_msg_dds__JointState_ m = {0};
  char (*names)[16] = calloc(joints ? joints : 1, 16);
  char **np = calloc(joints ? joints : 1, sizeof(char *));
  double *vals = calloc(3 * (joints ? joints : 1), sizeof(double));
  for (int i = 0; i < joints; i++) {
    snprintf(names[i], 16, "joint%d", i);
    np[i] = names[i];
  }
  m.header.frame_id = "";
  m.name._length = m.name._maximum = joints;
  m.name._buffer = np;
  m.position._length = m.position._maximum = joints;
  m.position._buffer = vals;
  m.velocity._length = m.velocity._maximum = joints;
  m.velocity._buffer = vals + joints;
  m.effort._length = m.effort._maximum = joints;
  m.effort._buffer = vals + 2 * joints;
  long long period = (long long)(1e9 / rate);
  struct timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  long long t = (long long)next.tv_sec * 1000000000LL + next.tv_nsec, end = t + (long long)(secs * 1e9);
  long n = 0;
  while (t < end) {
    for (int i = 0; i < 3 * joints; i++) vals[i] = 0.001 * (double)(n + i);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    m.header.stamp.sec = (int32_t)ts.tv_sec;
    m.header.stamp.nanosec = (uint32_t)ts.tv_nsec;
    dds_return_t rc = dds_write(wr, &m);
    if (rc != DDS_RETCODE_OK) {
      fprintf(stderr, "dds_write: %s\n", dds_strretcode(-rc));
      return 1;
    }
    n++;
    t += period;
    next.tv_sec = t / 1000000000LL;
    next.tv_nsec = t % 1000000000LL;
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) != 0) {
    }
  }
  printf("{\"written\":%ld}\n", n);
  dds_delete(pp);
  return 0;
}
