/* stamps: a Cyclone DDS reader of /joint_states and /tf that checks each
 * sample comes once and on time (ros2bridge TestStampsOnceOnTime).
 *
 *   stamps COUNT KIND=TOPIC...
 *
 * KIND is joint_state (sensor_msgs JointState, its header's stamp) or tf
 * (tf2_msgs TFMessage, its first transform's stamp, kept apart by that
 * transform's child frame: /tf carries several publishers' messages, and
 * tf2 checks repeats per frame); TOPIC its DDS name.
 * Each reader is a ROS 2 subscriber's with the default QoS (reliable,
 * volatile, keep last 10), except tf's: keep last 100 as tf2_ros's
 * TransformListener. It prints {"event":"matched","topic":T} as each
 * matches; then reads COUNT samples of each topic and prints
 * {"event":"done","topic":T,"n":N,"repeats":R,"backwards":B,
 *  "first":NS,"last":NS}: R samples whose stamp equals the one before
 * (of the same frame), B earlier than it, first and last the stamps (ns
 * since the epoch); for tf, N, first and last are those of the frame that
 * reached COUNT first, R and B every frame's. It
 * exits once every topic is done. The domain is $ROS_DOMAIN_ID; the
 * network $CYCLONEDDS_URI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "Topics.h"

#define MAXTOPICS 4

#define MAXFRAMES 8

struct frame {
  char child[64];
  int n;
  long long first, last;
};

struct topic {
  const char *name;
  int tf, matched, repeats, backwards, done, nframes;
  struct frame frames[MAXFRAMES];
  dds_entity_t rd;
};

/* frameOf is the topic's entry for child (the first, "", for joint states). */
static struct frame *frameOf(struct topic *p, const char *child) {
  for (int i = 0; i < p->nframes; i++)
    if (strcmp(p->frames[i].child, child) == 0)
      return &p->frames[i];
  if (p->nframes == MAXFRAMES)
    return NULL;
  struct frame *f = &p->frames[p->nframes++];
  snprintf(f->child, sizeof f->child, "%s", child);
  return f;
}

static long long ns(const builtin_interfaces_msg_dds__Time_ *t) { return (long long)t->sec * 1000000000LL + t->nanosec; }

int main(int argc, char **argv) {
  if (argc < 3 || argc > 2 + MAXTOPICS) {
    fprintf(stderr, "usage: stamps COUNT KIND=TOPIC...\n");
    return 2;
  }
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_entity_t pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (pp < 0) {
    fprintf(stderr, "dds_create_participant: %s\n", dds_strretcode(-pp));
    return 1;
  }
  int count = atoi(argv[1]), nt = argc - 2, ndone = 0;
  struct topic tp[MAXTOPICS];
  memset(tp, 0, sizeof tp);
  for (int i = 0; i < nt; i++) {
    char *eq = strchr(argv[2 + i], '=');
    if (!eq) {
      fprintf(stderr, "not KIND=TOPIC: %s\n", argv[2 + i]);
      return 2;
    }
    *eq = 0;
    tp[i].name = eq + 1;
    tp[i].tf = strcmp(argv[2 + i], "tf") == 0;
    const dds_topic_descriptor_t *desc = tp[i].tf ? &tf2_msgs_msg_dds__TFMessage__desc : &sensor_msgs_msg_dds__JointState__desc;
    dds_entity_t t = dds_create_topic(pp, desc, tp[i].name, NULL, NULL);
    dds_qos_t *q = dds_create_qos();
    dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
    dds_qset_history(q, DDS_HISTORY_KEEP_LAST, tp[i].tf ? 100 : 10);
    tp[i].rd = dds_create_reader(pp, t, q, NULL);
    dds_delete_qos(q);
    if (t < 0 || tp[i].rd < 0) {
      fprintf(stderr, "reader %s: %s\n", tp[i].name, dds_strretcode(-tp[i].rd));
      return 1;
    }
  }
  void *samples[16] = {0};
  dds_sample_info_t info[16];
  while (ndone < nt) {
    int any = 0;
    for (int i = 0; i < nt; i++) {
      struct topic *p = &tp[i];
      if (!p->matched) {
        dds_subscription_matched_status_t st;
        dds_get_subscription_matched_status(p->rd, &st);
        if (st.current_count > 0) {
          p->matched = 1;
          printf("{\"event\":\"matched\",\"topic\":\"%s\"}\n", p->name);
          fflush(stdout);
        }
      }
      int n = dds_take(p->rd, samples, info, 16, 16);
      for (int k = 0; k < n; k++) {
        if (!info[k].valid_data || p->done)
          continue;
        any = 1;
        long long s;
        struct frame *f;
        if (p->tf) {
          tf2_msgs_msg_dds__TFMessage_ *m = samples[k];
          if (m->transforms._length == 0)
            continue;
          s = ns(&m->transforms._buffer[0].header.stamp);
          f = frameOf(p, m->transforms._buffer[0].child_frame_id);
        } else {
          s = ns(&((sensor_msgs_msg_dds__JointState_ *)samples[k])->header.stamp);
          f = frameOf(p, "");
        }
        if (f == NULL)
          continue;
        if (f->n == 0)
          f->first = s;
        else if (s == f->last)
          p->repeats++;
        else if (s < f->last)
          p->backwards++;
        f->last = s;
        if (++f->n == count) {
          p->done = 1;
          ndone++;
          printf("{\"event\":\"done\",\"topic\":\"%s\",\"n\":%d,\"repeats\":%d,\"backwards\":%d,\"first\":%lld,\"last\":%lld}\n",
                 p->name, f->n, p->repeats, p->backwards, f->first, f->last);
          fflush(stdout);
        }
      }
      if (n > 0)
        dds_return_loan(p->rd, samples, n);
    }
    if (!any)
      dds_sleepfor(DDS_MSECS(1));
  }
  dds_delete(pp);
  return 0;
}
