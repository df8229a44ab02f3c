/* joint_states: a Cyclone DDS subscriber of frcd's ROS 2 /joint_states.
 *
 *   joint_states COUNT
 *
 * The type is sensor_msgs::msg::dds_::JointState_ (JointState.idl, compiled
 * by idlc), on the DDS topic rt/joint_states, reliable, volatile, keep last
 * 10 (rmw's default profile). It prints {"event":"matched"} once a writer
 * matched, then one line per sample, {"n":N,"first":"NAME","finite":F,
 * "sec":S,"names":["NAME",...]} (N names; F 1 when positions, velocities
 * and efforts are N finite values each), and exits after COUNT samples.
 * The domain is $ROS_DOMAIN_ID; the network setup comes from
 * $CYCLONEDDS_URI (Cyclone's defaults without it).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "dds/dds.h"
#include "JointState.h"

static int finite_all(const dds_sequence_double *s, uint32_t n) {
  if (s->_length != n) return 0;
  for (uint32_t i = 0; i < n; i++)
    if (!isfinite(s->_buffer[i])) return 0;
  return 1;
}

/* print_json_string prints s as a JSON string. */
static void print_json_string(const char *s) {
  putchar('"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      printf("\\%c", c);
    else if (c < 0x20)
      printf("\\u%04x", c);
    else
      putchar(c);
  }
  putchar('"');
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: joint_states COUNT\n");
    return 2;
  }
  int count = atoi(argv[1]);
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_entity_t pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (pp < 0) {
    fprintf(stderr, "dds_create_participant: %s\n", dds_strretcode(-pp));
    return 1;
  }
  dds_entity_t tp = dds_create_topic(pp, &sensor_msgs_msg_dds__JointState__desc, "rt/joint_states", NULL, NULL);
  if (tp < 0) {
    fprintf(stderr, "dds_create_topic: %s\n", dds_strretcode(-tp));
    return 1;
  }
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_durability(q, DDS_DURABILITY_VOLATILE);
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
  dds_entity_t rd = dds_create_reader(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (rd < 0) {
    fprintf(stderr, "dds_create_reader: %s\n", dds_strretcode(-rd));
    return 1;
  }
  int matched = 0, got = 0;
  void *samples[1];
  samples[0] = sensor_msgs_msg_dds__JointState___alloc();
  dds_sample_info_t info[1];
  while (got < count) {
    if (!matched) {
      dds_subscription_matched_status_t st;
      dds_get_subscription_matched_status(rd, &st);
      if (st.current_count > 0) {
        matched = 1;
        printf("{\"event\":\"matched\"}\n");
        fflush(stdout);
      }
    }
    if (dds_take(rd, samples, info, 1, 1) > 0 && info[0].valid_data) {
      const sensor_msgs_msg_dds__JointState_ *m = samples[0];
      uint32_t n = m->name._length;
      int fin = finite_all(&m->position, n) && finite_all(&m->velocity, n) && finite_all(&m->effort, n);
      printf("{\"n\":%u,\"first\":\"%.64s\",\"finite\":%d,\"sec\":%d,\"names\":[", n, n > 0 ? m->name._buffer[0] : "", fin, m->header.stamp.sec);
      for (uint32_t i = 0; i < n; i++) {
        if (i > 0) putchar(',');
        print_json_string(m->name._buffer[i]);
      }
      printf("]}\n");
      fflush(stdout);
      got++;
      continue;
    }
    dds_sleepfor(DDS_MSECS(2));
  }
  dds_delete(pp);
  return 0;
}
