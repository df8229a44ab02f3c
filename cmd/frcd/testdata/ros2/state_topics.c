/* state_topics: a Cyclone DDS subscriber of frcd's ROS 2 state topics,
 * started after frcd (a late joiner).
 *
 *   state_topics
 *
 * Readers, as ROS 2 subscribers would make them: rt/tf_static
 * (tf2_msgs TFMessage, reliable, transient local, keep last 1, as tf2_ros's
 * StaticListenerQoS), rt/rosout (rcl_interfaces Log, reliable, transient
 * local, keep last 1000, as rcl's rosout QoS) and rt/diagnostics
 * (diagnostic_msgs DiagnosticArray, reliable, volatile, keep last 10).
 * Types from State.idl by idlc. It prints one JSON line per sample:
 *   {"topic":"tf_static","n":N,"parent":P,"child":C,"x":X,"w":W,"typehash":H}
 *   {"topic":"rosout","level":L,"name":N,"msg":M,"typehash":H}
 *   {"topic":"diagnostics","n":N,"first":S,"level":L,"typehash":H}
 * H is the USER_DATA of the writer that matched (Jazzy's typehash=...;).
 * It exits after it has printed one of each and a rosout line whose msg
 * starts with "ros2: node up". Strings are cut to 200 bytes, '"' and '\'
 * printed as '\''. The domain is $ROS_DOMAIN_ID; the network
 * $CYCLONEDDS_URI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "userdata.h"
#include "State.h"


static dds_entity_t reader(dds_entity_t pp, const dds_topic_descriptor_t *desc, const char *name, int durable, int depth) {
  dds_entity_t tp = dds_create_topic(pp, desc, name, NULL, NULL);
  if (tp < 0) {
    fprintf(stderr, "dds_create_topic %s: %s\n", name, dds_strretcode(-tp));
    exit(1);
  }
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_durability(q, durable ? DDS_DURABILITY_TRANSIENT_LOCAL : DDS_DURABILITY_VOLATILE);
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, depth);
  dds_entity_t rd = dds_create_reader(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (rd < 0) {
    fprintf(stderr, "dds_create_reader %s: %s\n", name, dds_strretcode(-rd));
    exit(1);
  }
  return rd;
}

int main(void) {
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_entity_t pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (pp < 0) {
    fprintf(stderr, "dds_create_participant: %s\n", dds_strretcode(-pp));
    return 1;
  }
  dds_entity_t tf = reader(pp, &tf2_msgs_msg_dds__TFMessage__desc, "rt/tf_static", 1, 1);
  dds_entity_t lg = reader(pp, &rcl_interfaces_msg_dds__Log__desc, "rt/rosout", 1, 1000);
  dds_entity_t dg = reader(pp, &diagnostic_msgs_msg_dds__DiagnosticArray__desc, "rt/diagnostics", 0, 10);
  int got_tf = 0, got_up = 0, got_diag = 0;
  void *s[1];
  dds_sample_info_t info[1];
  char a[256], b[256], h[256];
  while (!(got_tf && got_up && got_diag)) {
    int any = 0;
    s[0] = NULL;
    if (dds_take(tf, s, info, 1, 1) > 0) {
      any = 1;
      if (info[0].valid_data) {
        const tf2_msgs_msg_dds__TFMessage_ *m = s[0];
        const geometry_msgs_msg_dds__TransformStamped_ *t = m->transforms._length > 0 ? &m->transforms._buffer[0] : NULL;
        ddstest_clean(a, t ? t->header.frame_id : "");
        ddstest_clean(b, t ? t->child_frame_id : "");
        ddstest_userdata(tf, h);
        printf("{\"topic\":\"tf_static\",\"n\":%u,\"parent\":\"%s\",\"child\":\"%s\",\"x\":%g,\"w\":%g,\"typehash\":\"%s\"}\n",
               m->transforms._length, a, b, t ? t->transform.translation.x : 0, t ? t->transform.rotation.w : 0, h);
        got_tf = 1;
      }
      dds_return_loan(tf, s, 1);
    }
    s[0] = NULL;
    if (dds_take(lg, s, info, 1, 1) > 0) {
      any = 1;
      if (info[0].valid_data) {
        const rcl_interfaces_msg_dds__Log_ *m = s[0];
        ddstest_clean(a, m->name);
        ddstest_clean(b, m->msg);
        ddstest_userdata(lg, h);
        printf("{\"topic\":\"rosout\",\"level\":%u,\"name\":\"%s\",\"msg\":\"%s\",\"typehash\":\"%s\"}\n", m->level, a, b, h);
        if (strncmp(m->msg, "ros2: node up", 13) == 0) got_up = 1;
      }
      dds_return_loan(lg, s, 1);
    }
    s[0] = NULL;
    if (dds_take(dg, s, info, 1, 1) > 0) {
      any = 1;
      if (info[0].valid_data) {
        const diagnostic_msgs_msg_dds__DiagnosticArray_ *m = s[0];
        const diagnostic_msgs_msg_dds__DiagnosticStatus_ *st = m->status._length > 0 ? &m->status._buffer[0] : NULL;
        ddstest_clean(a, st ? st->name : "");
        ddstest_userdata(dg, h);
        printf("{\"topic\":\"diagnostics\",\"n\":%u,\"first\":\"%s\",\"level\":%u,\"typehash\":\"%s\"}\n", m->status._length, a,
               st ? st->level : 0, h);
        got_diag = 1;
      }
      dds_return_loan(dg, s, 1);
    }
    fflush(stdout);
    if (!any) dds_sleepfor(DDS_MSECS(2));
  }
  dds_delete(pp);
  return 0;
}
