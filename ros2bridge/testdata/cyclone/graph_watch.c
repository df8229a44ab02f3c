/* graph_watch: a Cyclone DDS peer that follows the DDS and ROS 2 graph
 * as rmw_cyclonedds reads it: the DCPSPublication and DCPSSubscription
 * builtin topics (the remote writers and readers SEDP announces, and
 * their disposal) and ros_discovery_info (types by idlc from ros2node's
 * ParticipantEntitiesInfo.idl: 16-byte gids, Jazzy's).
 *
 *   graph_watch SUBSTRING
 *
 * prints one JSON line per change:
 *   {"ep":"pub"|"sub","topic":T,"guid":G,"alive":1|0}
 *     an endpoint whose topic contains SUBSTRING appeared (alive 1), or
 *     its instance went NOT_ALIVE (0: disposed, or no writers);
 *   {"node":N,"writers":"G,G,...","readers":"G,..."}
 *     each node of each ros_discovery_info sample.
 * G is the GUID in 32 hex digits (prefix, then entity id). Runs until
 * killed. Domain $ROS_DOMAIN_ID, network $CYCLONEDDS_URI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "ParticipantEntitiesInfo.h"

#define MAXKNOWN 8192

/* known maps a builtin topic's instance handle to what it announced:
 * a disposed instance's sample carries no data. */
static struct {
  dds_instance_handle_t h;
  char topic[256];
  char guid[33];
} known[MAXKNOWN];
static int nknown;

static void hex(char *out, const unsigned char *v) {
  for (int i = 0; i < 16; i++) sprintf(out + 2 * i, "%02x", v[i]);
}

static void endpoints(dds_entity_t rd, const char *kind, const char *sub) {
  for (;;) {
    void *samples[1] = {NULL};
    dds_sample_info_t si;
    int n = dds_take(rd, samples, &si, 1, 1);
    if (n <= 0) return;
    if (si.valid_data && si.instance_state == DDS_IST_ALIVE) {
      dds_builtintopic_endpoint_t *e = samples[0];
      if (strstr(e->topic_name, sub) != NULL) {
        int i = 0;
        while (i < nknown && known[i].h != si.instance_handle) i++;
        if (i == nknown && nknown < MAXKNOWN) nknown++;
        if (i < MAXKNOWN) {
          known[i].h = si.instance_handle;
          snprintf(known[i].topic, sizeof known[i].topic, "%s", e->topic_name);
          hex(known[i].guid, e->key.v);
          printf("{\"ep\":\"%s\",\"topic\":\"%s\",\"guid\":\"%s\",\"alive\":1}\n", kind, known[i].topic, known[i].guid);
        }
      }
    } else if (si.instance_state != DDS_IST_ALIVE) {
      for (int i = 0; i < nknown; i++) {
        if (known[i].h == si.instance_handle) {
          printf("{\"ep\":\"%s\",\"topic\":\"%s\",\"guid\":\"%s\",\"alive\":0}\n", kind, known[i].topic, known[i].guid);
        }
      }
    }
    fflush(stdout);
    dds_return_loan(rd, samples, n);
  }
}

static void gids(char *buf, size_t size, const rmw_dds_common_msg_dds__Gid_ *g, uint32_t n) {
  size_t l = 0;
  buf[0] = 0;
  for (uint32_t i = 0; i < n && l + 34 < size; i++) {
    if (l > 0) buf[l++] = ',';
    hex(buf + l, g[i].data);
    l += 32;
  }
  buf[l] = 0;
}

static void graph(dds_entity_t rd) {
  for (;;) {
    void *samples[1] = {NULL};
    dds_sample_info_t si;
    int n = dds_take(rd, samples, &si, 1, 1);
    if (n <= 0) return;
    if (si.valid_data) {
      rmw_dds_common_msg_dds__ParticipantEntitiesInfo_ *m = samples[0];
      for (uint32_t i = 0; i < m->node_entities_info_seq._length; i++) {
        rmw_dds_common_msg_dds__NodeEntitiesInfo_ *e = &m->node_entities_info_seq._buffer[i];
        static char w[1 << 16], r[1 << 16];
        gids(w, sizeof w, e->writer_gid_seq._buffer, e->writer_gid_seq._length);
        gids(r, sizeof r, e->reader_gid_seq._buffer, e->reader_gid_seq._length);
        printf("{\"node\":\"%s%s%s\",\"writers\":\"%s\",\"readers\":\"%s\"}\n", e->node_namespace,
               strcmp(e->node_namespace, "/") == 0 ? "" : "/", e->node_name, w, r);
      }
      fflush(stdout);
    }
    dds_return_loan(rd, samples, n);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: graph_watch SUBSTRING\n");
    return 2;
  }
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_entity_t pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (pp < 0) {
    fprintf(stderr, "dds_create_participant: %s\n", dds_strretcode(-pp));
    return 1;
  }
  dds_entity_t pubs = dds_create_reader(pp, DDS_BUILTIN_TOPIC_DCPSPUBLICATION, NULL, NULL);
  dds_entity_t subs = dds_create_reader(pp, DDS_BUILTIN_TOPIC_DCPSSUBSCRIPTION, NULL, NULL);
  dds_entity_t tp = dds_create_topic(pp, &rmw_dds_common_msg_dds__ParticipantEntitiesInfo__desc, "ros_discovery_info", NULL, NULL);
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_durability(q, DDS_DURABILITY_TRANSIENT_LOCAL);
  dds_qset_history(q, DDS_HISTORY_KEEP_ALL, 0);
  dds_entity_t info = dds_create_reader(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (pubs < 0 || subs < 0 || tp < 0 || info < 0) {
    fprintf(stderr, "readers: %s %s %s %s\n", dds_strretcode(pubs), dds_strretcode(subs), dds_strretcode(tp), dds_strretcode(info));
    return 1;
  }
  for (;;) {
    endpoints(pubs, "pub", argv[1]);
    endpoints(subs, "sub", argv[1]);
    graph(info);
    dds_sleepfor(DDS_MSECS(5));
  }
}
