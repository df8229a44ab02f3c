/* topics: a Cyclone DDS reader of frcd's newest ROS 2 topics (the Driver
 * Station's, the sensors', the sim's, /tf) and a writer of sim/push.
 *
 *   topics KIND=TOPIC...
 *
 * KIND is the topic's type: bool, string, int8, float64 (std_msgs), joy,
 * joint_state (sensor_msgs), odometry (nav_msgs), tf (tf2_msgs
 * TFMessage); TOPIC its DDS name (rt/driver_station/joy0). Each reader is
 * as a ROS 2 subscriber's with the default QoS (reliable, volatile, keep
 * last 10); types from Topics.idl by idlc. For each topic it prints the
 * first sample as one JSON line:
 *   {"topic":T,"typehash":H, and by kind "b":true | "s":S | "i":N | "f":X |
 *    "axes":[..],"buttons":[..] | "names":[..],"pos":[..],"vel":[..] |
 *    "frame":F,"child":C,"p":[x,y,z],"q":[x,y,z,w] |
 *    "tf":[{"parent":P,"child":C,"t":[x,y,z],"q":[x,y,z,w]}..]}
 * H is the USER_DATA of the writer that matched (Jazzy's typehash=...;).
 * Numbers print with 17 digits (exact doubles), null when not finite;
 * strings as ddstest_clean prints them (internal/ddstest/userdata.h).
 *
 * Each line on stdin, NAME POS [NAME POS...], is written on rt/sim/push
 * as a sensor_msgs JointState (reliable), then {"pushed":N} printed. It
 * runs until stdin ends. The domain is $ROS_DOMAIN_ID; the network
 * $CYCLONEDDS_URI.
 */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dds/dds.h"
#include "userdata.h"
#include "Topics.h"

#define MAXTOPICS 64

static void num(double v) {
  if (isfinite(v))
    printf("%.17g", v);
  else
    printf("null");
}

static void str(const char *s) {
  char b[256];
  ddstest_clean(b, s);
  printf("\"%s\"", b);
}

static void nums(const double *v, uint32_t n) {
  printf("[");
  for (uint32_t i = 0; i < n; i++) {
    if (i) printf(",");
    num(v[i]);
  }
  printf("]");
}

static dds_entity_t topic(dds_entity_t pp, const dds_topic_descriptor_t *desc, const char *name) {
  dds_entity_t tp = dds_create_topic(pp, desc, name, NULL, NULL);
  if (tp < 0) {
    fprintf(stderr, "dds_create_topic %s: %s\n", name, dds_strretcode(-tp));
    exit(1);
  }
  return tp;
}

static dds_qos_t *rosDefault(void) {
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_durability(q, DDS_DURABILITY_VOLATILE);
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
  return q;
}

static const struct {
  const char *kind;
  const dds_topic_descriptor_t *desc;
} kinds[] = {
    {"bool", &std_msgs_msg_dds__Bool__desc},         {"string", &std_msgs_msg_dds__String__desc},
    {"int8", &std_msgs_msg_dds__Int8__desc},         {"float64", &std_msgs_msg_dds__Float64__desc},
    {"joy", &sensor_msgs_msg_dds__Joy__desc},        {"joint_state", &sensor_msgs_msg_dds__JointState__desc},
    {"odometry", &nav_msgs_msg_dds__Odometry__desc}, {"tf", &tf2_msgs_msg_dds__TFMessage__desc},
};

static void print(const char *kind, const void *s) {
  if (!strcmp(kind, "bool")) {
    printf(",\"b\":%s", ((const std_msgs_msg_dds__Bool_ *)s)->data ? "true" : "false");
  } else if (!strcmp(kind, "string")) {
    printf(",\"s\":");
    str(((const std_msgs_msg_dds__String_ *)s)->data);
  } else if (!strcmp(kind, "int8")) {
    printf(",\"i\":%d", (int)(int8_t)((const std_msgs_msg_dds__Int8_ *)s)->data);
  } else if (!strcmp(kind, "float64")) {
    printf(",\"f\":");
    num(((const std_msgs_msg_dds__Float64_ *)s)->data);
  } else if (!strcmp(kind, "joy")) {
    const sensor_msgs_msg_dds__Joy_ *m = s;
    printf(",\"axes\":[");
    for (uint32_t i = 0; i < m->axes._length; i++) {
      if (i) printf(",");
      num(m->axes._buffer[i]);
    }
    printf("],\"buttons\":[");
    for (uint32_t i = 0; i < m->buttons._length; i++) printf(i ? ",%d" : "%d", (int)m->buttons._buffer[i]);
    printf("],\"sec\":%d", (int)m->header.stamp.sec);
  } else if (!strcmp(kind, "joint_state")) {
    const sensor_msgs_msg_dds__JointState_ *m = s;
    printf(",\"names\":[");
    for (uint32_t i = 0; i < m->name._length; i++) {
      if (i) printf(",");
      str(m->name._buffer[i]);
    }
    printf("],\"pos\":");
    nums(m->position._buffer, m->position._length);
    printf(",\"vel\":");
    nums(m->velocity._buffer, m->velocity._length);
    printf(",\"sec\":%d", (int)m->header.stamp.sec);
  } else if (!strcmp(kind, "odometry")) {
    const nav_msgs_msg_dds__Odometry_ *m = s;
    const geometry_msgs_msg_dds__Pose_ *p = &m->pose.pose;
    printf(",\"frame\":");
    str(m->header.frame_id);
    printf(",\"child\":");
    str(m->child_frame_id);
    double v[4] = {p->position.x, p->position.y, p->position.z};
    printf(",\"p\":");
    nums(v, 3);
    double q[4] = {p->orientation.x, p->orientation.y, p->orientation.z, p->orientation.w};
    printf(",\"q\":");
    nums(q, 4);
  } else if (!strcmp(kind, "tf")) {
    const tf2_msgs_msg_dds__TFMessage_ *m = s;
    printf(",\"tf\":[");
    for (uint32_t i = 0; i < m->transforms._length; i++) {
      const geometry_msgs_msg_dds__TransformStamped_ *t = &m->transforms._buffer[i];
      printf(i ? ",{\"parent\":" : "{\"parent\":");
      str(t->header.frame_id);
      printf(",\"child\":");
      str(t->child_frame_id);
      double v[3] = {t->transform.translation.x, t->transform.translation.y, t->transform.translation.z};
      double q[4] = {t->transform.rotation.x, t->transform.rotation.y, t->transform.rotation.z, t->transform.rotation.w};
      printf(",\"t\":");
      nums(v, 3);
      printf(",\"q\":");
      nums(q, 4);
      printf("}");
    }
    printf("]");
  }
}

/* push writes one line's names and positions on sim/push. */
static int push(dds_entity_t wr, char *line) {
  static char *names[16];
  static double pos[16];
  uint32_t n = 0;
  for (char *tok = strtok(line, " \t\r"); tok && n < 16; tok = strtok(NULL, " \t\r")) {
    char *p = strtok(NULL, " \t\r");
    if (!p) break;
    names[n] = tok;
    pos[n++] = strtod(p, NULL);
  }
  sensor_msgs_msg_dds__JointState_ m;
  memset(&m, 0, sizeof m);
  m.header.frame_id = "";
  m.name._length = m.name._maximum = n;
  m.name._buffer = names;
  m.position._length = m.position._maximum = n;
  m.position._buffer = pos;
  dds_return_t rc = dds_write(wr, &m);
  if (rc < 0) fprintf(stderr, "dds_write: %s\n", dds_strretcode(-rc));
  return (int)n;
}

int main(int argc, char **argv) {
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_entity_t pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (pp < 0) {
    fprintf(stderr, "dds_create_participant: %s\n", dds_strretcode(-pp));
    return 1;
  }
  dds_entity_t rd[MAXTOPICS];
  const char *kind[MAXTOPICS], *name[MAXTOPICS];
  int seen[MAXTOPICS] = {0}, n = 0;
  dds_qos_t *q = rosDefault();
  for (int i = 1; i < argc && n < MAXTOPICS; i++) {
    char *eq = strchr(argv[i], '=');
    if (!eq) {
      fprintf(stderr, "not KIND=TOPIC: %s\n", argv[i]);
      return 2;
    }
    *eq = 0;
    const dds_topic_descriptor_t *desc = NULL;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
      if (!strcmp(kinds[k].kind, argv[i])) desc = kinds[k].desc;
    if (!desc) {
      fprintf(stderr, "unknown kind %s\n", argv[i]);
      return 2;
    }
    kind[n] = argv[i];
    name[n] = eq + 1;
    rd[n] = dds_create_reader(pp, topic(pp, desc, name[n]), q, NULL);
    if (rd[n] < 0) {
      fprintf(stderr, "dds_create_reader %s: %s\n", name[n], dds_strretcode(-rd[n]));
      return 1;
    }
    n++;
  }
  dds_entity_t wr = dds_create_writer(pp, topic(pp, &sensor_msgs_msg_dds__JointState__desc, "rt/sim/push"), q, NULL);
  dds_delete_qos(q);
  if (wr < 0) {
    fprintf(stderr, "dds_create_writer: %s\n", dds_strretcode(-wr));
    return 1;
  }
  char in[4096], h[256];
  size_t have = 0;
  void *s[1];
  dds_sample_info_t info[1];
  for (;;) {
    int any = 0;
    for (int i = 0; i < n; i++) {
      s[0] = NULL;
      if (dds_take(rd[i], s, info, 1, 1) <= 0) continue;
      any = 1;
      if (info[0].valid_data && !seen[i]) {
        seen[i] = 1;
        ddstest_userdata(rd[i], h);
        printf("{\"topic\":\"%s\",\"typehash\":\"%s\"", name[i], h);
        print(kind[i], s[0]);
        printf("}\n");
      }
      dds_return_loan(rd[i], s, 1);
    }
    struct pollfd pf = {.fd = 0, .events = POLLIN};
    if (poll(&pf, 1, 0) > 0) {
      ssize_t r = read(0, in + have, sizeof in - 1 - have);
      if (r <= 0) break; /* stdin ended */
      have += (size_t)r;
      in[have] = 0;
      char *nl;
      while ((nl = strchr(in, '\n')) != NULL) {
        *nl = 0;
        printf("{\"pushed\":%d}\n", push(wr, in));
        size_t used = (size_t)(nl + 1 - in);
        memmove(in, nl + 1, have - used + 1);
        have -= used;
      }
      if (have == sizeof in - 1) have = 0; /* a line too long: dropped */
      any = 1;
    }
    fflush(stdout);
    if (!any) dds_sleepfor(DDS_MSECS(2));
  }
  dds_delete(pp);
  return 0;
}
