/* graph: a Cyclone DDS participant that takes part in the ROS 2 node graph
 * as rmw_cyclonedds does, for frcd's ros2node tests.
 *
 * It publishes its own ParticipantEntitiesInfo on ros_discovery_info
 * (reliable, transient local, keep last 1: one node /peer/cnode, no
 * entities), and prints, one JSON object a line:
 *   {"user_data":"..."}  the USER_DATA of each other participant found;
 *   {"node":"/ns/name","readers":N,"writers":M,"reader0":"<hex of the first reader gid>","writer0":"..."}
 *                        for each node of each ParticipantEntitiesInfo it reads.
 * It runs until its standard input closes. Domain: $ROS_DOMAIN_ID; network:
 * $CYCLONEDDS_URI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "dds/dds.h"
#include "ParticipantEntitiesInfo.h"

static volatile int done = 0;

static void *wait_stdin(void *arg) {
  (void)arg;
  while (getchar() != EOF) {
  }
  done = 1;
  return NULL;
}

static void hex(char *out, const char *gid) {
  for (int i = 0; i < 16; i++) sprintf(out + 2 * i, "%02x", (unsigned char)gid[i]);
}

int main(void) {
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_entity_t pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (pp < 0) {
    fprintf(stderr, "dds_create_participant: %s\n", dds_strretcode(-pp));
    return 1;
  }
  dds_entity_t tp = dds_create_topic(pp, &rmw_dds_common_msg_dds__ParticipantEntitiesInfo__desc, "ros_discovery_info", NULL, NULL);
  if (tp < 0) {
    fprintf(stderr, "dds_create_topic: %s\n", dds_strretcode(-tp));
    return 1;
  }
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_durability(q, DDS_DURABILITY_TRANSIENT_LOCAL);
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 1);
  dds_qset_durability_service(q, 0, DDS_HISTORY_KEEP_LAST, 1, DDS_LENGTH_UNLIMITED, DDS_LENGTH_UNLIMITED, DDS_LENGTH_UNLIMITED);
  dds_entity_t wr = dds_create_writer(pp, tp, q, NULL);
  dds_qset_history(q, DDS_HISTORY_KEEP_ALL, 0);
  dds_entity_t rd = dds_create_reader(pp, tp, q, NULL);
  dds_delete_qos(q);
  dds_entity_t prd = dds_create_reader(pp, DDS_BUILTIN_TOPIC_DCPSPARTICIPANT, NULL, NULL);
  if (wr < 0 || rd < 0 || prd < 0) {
    fprintf(stderr, "creating the endpoints failed\n");
    return 1;
  }

  dds_guid_t guid;
  dds_get_guid(pp, &guid);
  rmw_dds_common_msg_dds__NodeEntitiesInfo_ node = {.node_namespace = "/peer", .node_name = "cnode"};
  rmw_dds_common_msg_dds__ParticipantEntitiesInfo_ info = {0};
  memcpy(info.gid.data, guid.v, 16);
  info.node_entities_info_seq._length = info.node_entities_info_seq._maximum = 1;
  info.node_entities_info_seq._buffer = &node;
  if (dds_write(wr, &info) != DDS_RETCODE_OK) {
    fprintf(stderr, "dds_write failed\n");
    return 1;
  }

  pthread_t th;
  pthread_create(&th, NULL, wait_stdin, NULL);
  void *samples[1] = {NULL};
  dds_sample_info_t si[1];
  while (!done) {
    int n = dds_take(prd, samples, si, 1, 1);
    if (n > 0 && si[0].valid_data) {
      dds_builtintopic_participant_t *p = samples[0];
      void *ud;
      size_t sz;
      if (memcmp(&p->key, &guid, sizeof guid) != 0 && dds_qget_userdata(p->qos, &ud, &sz) && sz > 0) {
        printf("{\"user_data\":\"%.*s\"}\n", (int)sz, (char *)ud);
        fflush(stdout);
        dds_free(ud);
      }
      dds_return_loan(prd, samples, n);
      continue;
    } else if (n > 0) {
      dds_return_loan(prd, samples, n);
    }
    samples[0] = NULL;
    n = dds_take(rd, samples, si, 1, 1);
    if (n > 0 && si[0].valid_data) {
      rmw_dds_common_msg_dds__ParticipantEntitiesInfo_ *m = samples[0];
      for (uint32_t i = 0; i < m->node_entities_info_seq._length; i++) {
        rmw_dds_common_msg_dds__NodeEntitiesInfo_ *e = &m->node_entities_info_seq._buffer[i];
        char r0[33] = "", w0[33] = "";
        if (e->reader_gid_seq._length > 0) hex(r0, e->reader_gid_seq._buffer[0].data);
        if (e->writer_gid_seq._length > 0) hex(w0, e->writer_gid_seq._buffer[0].data);
        printf("{\"node\":\"%s%s%s\",\"readers\":%u,\"writers\":%u,\"reader0\":\"%s\",\"writer0\":\"%s\"}\n", e->node_namespace,
               strcmp(e->node_namespace, "/") == 0 ? "" : "/", e->node_name, e->reader_gid_seq._length, e->writer_gid_seq._length, r0, w0);
        fflush(stdout);
      }
      dds_return_loan(rd, samples, n);
      samples[0] = NULL;
      continue;
    } else if (n > 0) {
      dds_return_loan(rd, samples, n);
      samples[0] = NULL;
    }
    dds_sleepfor(DDS_MSECS(5));
  }
  dds_delete(pp);
  return 0;
}
