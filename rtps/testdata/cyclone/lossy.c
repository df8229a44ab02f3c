/* lossy: the Cyclone DDS ends of frcd's reliability-under-loss comparison
 * (rtps TestReliableUnderLossLikeCyclone).
 *
 *   lossy pub TOPIC COUNT PERIOD_US
 *   lossy sub COUNT TOPIC...
 *
 * Both use rmw's default QoS for a ROS 2 topic (rmw qos_profiles.h
 * rmw_qos_profile_default): reliable, volatile, keep last 10. The type is
 * std_msgs::msg::dds_::String_ (../String.idl), each sample's data its
 * number "0" to "COUNT-1". pub waits for a matched reader, writes COUNT
 * samples one every PERIOD_US on an absolute schedule, prints
 * {"event":"written"} and stays until its standard input closes. sub makes
 * one reader per topic, prints {"event":"matched","topic":I} as each
 * matches, and once a topic's last sample (COUNT-1) arrived
 * {"event":"done","topic":I,"got":G,"missed":M} (G distinct numbers, M of
 * 0..COUNT-1 never received); it exits when every topic is done. The
 * domain is $ROS_DOMAIN_ID; the network setup comes from $CYCLONEDDS_URI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "String.h"

static dds_qos_t *qos(void) {
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_durability(q, DDS_DURABILITY_VOLATILE);
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
  return q;
}

static int pub(dds_entity_t pp, const char *topic, int count, int period_us) {
  dds_entity_t tp = dds_create_topic(pp, &std_msgs_msg_dds__String__desc, topic, NULL, NULL);
  dds_qos_t *q = qos();
  dds_entity_t wr = dds_create_writer(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (tp < 0 || wr < 0) {
    fprintf(stderr, "dds_create_writer: %s\n", dds_strretcode(-wr));
    return 1;
  }
  dds_publication_matched_status_t st = {0};
  while (st.current_count < 1) {
    dds_get_publication_matched_status(wr, &st);
    dds_sleepfor(DDS_MSECS(5));
  }
  char buf[16];
  dds_time_t next = dds_time();
  for (int i = 0; i < count; i++) {
    dds_time_t now = dds_time();
    if (next > now)
      dds_sleepfor(next - now);
    next += DDS_USECS(period_us);
    snprintf(buf, sizeof buf, "%d", i);
    std_msgs_msg_dds__String_ msg = {.data = buf};
    dds_return_t rc = dds_write(wr, &msg);
    if (rc != DDS_RETCODE_OK) {
      fprintf(stderr, "dds_write: %s\n", dds_strretcode(-rc));
      return 1;
    }
  }
  printf("{\"event\":\"written\"}\n");
  fflush(stdout);
  while (getchar() != EOF) {
  }
  return 0;
}

#define MAXTOPICS 4

static int sub(dds_entity_t pp, int count, int ntopics, char **topics) {
  dds_entity_t rd[MAXTOPICS];
  char *seen[MAXTOPICS];
  int matched[MAXTOPICS] = {0}, got[MAXTOPICS] = {0}, done[MAXTOPICS] = {0}, ndone = 0;
  for (int i = 0; i < ntopics; i++) {
    dds_entity_t tp = dds_create_topic(pp, &std_msgs_msg_dds__String__desc, topics[i], NULL, NULL);
    dds_qos_t *q = qos();
    rd[i] = dds_create_reader(pp, tp, q, NULL);
    dds_delete_qos(q);
    if (tp < 0 || rd[i] < 0) {
      fprintf(stderr, "dds_create_reader: %s\n", dds_strretcode(-rd[i]));
      return 1;
    }
    seen[i] = calloc((size_t)count, 1);
  }
  void *samples[16];
  dds_sample_info_t info[16];
  for (int k = 0; k < 16; k++)
    samples[k] = std_msgs_msg_dds__String___alloc();
  while (ndone < ntopics) {
    int any = 0;
    for (int i = 0; i < ntopics; i++) {
      if (!matched[i]) {
        dds_subscription_matched_status_t st;
        dds_get_subscription_matched_status(rd[i], &st);
        if (st.current_count > 0) {
          matched[i] = 1;
          printf("{\"event\":\"matched\",\"topic\":%d}\n", i);
          fflush(stdout);
        }
      }
      int n = dds_take(rd[i], samples, info, 16, 16);
      for (int k = 0; k < n; k++) {
        if (!info[k].valid_data)
          continue;
        any = 1;
        int v = atoi(((std_msgs_msg_dds__String_ *)samples[k])->data);
        if (v < 0 || v >= count || seen[i][v])
          continue;
        seen[i][v] = 1;
        got[i]++;
        if (v == count - 1 && !done[i]) {
          done[i] = 1;
          ndone++;
          printf("{\"event\":\"done\",\"topic\":%d,\"got\":%d,\"missed\":%d}\n", i, got[i], count - got[i]);
          fflush(stdout);
        }
      }
    }
    if (!any)
      dds_sleepfor(DDS_MSECS(1));
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4 || (strcmp(argv[1], "pub") == 0 && argc != 5) || argc > 3 + MAXTOPICS) {
    fprintf(stderr, "usage: lossy pub TOPIC COUNT PERIOD_US | lossy sub COUNT TOPIC...\n");
    return 2;
  }
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_entity_t pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (pp < 0) {
    fprintf(stderr, "dds_create_participant: %s\n", dds_strretcode(-pp));
    return 1;
  }
  int rc = strcmp(argv[1], "pub") == 0 ? pub(pp, argv[2], atoi(argv[3]), atoi(argv[4]))
                                       : sub(pp, atoi(argv[2]), argc - 3, argv + 3);
  dds_delete(pp);
  return rc;
}
