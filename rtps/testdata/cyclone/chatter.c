/* chatter: a Cyclone DDS peer for frcd's rtps interop tests.
 *
 *   chatter pub TOPIC COUNT RELIABLE TRANSIENT SIZE
 *   chatter sub TOPIC COUNT RELIABLE TRANSIENT
 *
 * The type is std_msgs::msg::dds_::String_ (../String.idl, compiled by idlc).
 * pub waits for a matched reader (unless TRANSIENT: then it writes at once),
 * writes COUNT messages "hello I" padded with 'x' to SIZE bytes, prints
 * {"event":"written"} and stays until its standard input closes. sub prints
 * {"event":"matched"} once a writer matched, then one line per sample,
 * {"len":L,"head":"hello I"}, and exits after COUNT samples. The domain is
 * $ROS_DOMAIN_ID; the network setup comes from $CYCLONEDDS_URI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "String.h"

/* qos: keep last max(10, count), so that a reader that takes more slowly
 * than a burst arrives loses nothing; a transient-local writer keeps as many
 * for late joiners in its durability service history, as rmw_cyclonedds
 * sets it (Cyclone keeps only durability_service.history.depth samples,
 * default 1, for transient local). */
static dds_qos_t *qos(int reliable, int transient, int count) {
  int depth = count > 10 ? count : 10;
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, reliable ? DDS_RELIABILITY_RELIABLE : DDS_RELIABILITY_BEST_EFFORT, DDS_SECS(1));
  dds_qset_durability(q, transient ? DDS_DURABILITY_TRANSIENT_LOCAL : DDS_DURABILITY_VOLATILE);
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, depth);
  if (transient)
    dds_qset_durability_service(q, 0, DDS_HISTORY_KEEP_LAST, depth, DDS_LENGTH_UNLIMITED, DDS_LENGTH_UNLIMITED, DDS_LENGTH_UNLIMITED);
  return q;
}

static int pub(dds_entity_t pp, dds_entity_t tp, int count, int reliable, int transient, int size) {
  dds_qos_t *q = qos(reliable, transient, count);
  dds_entity_t wr = dds_create_writer(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (wr < 0) {
    fprintf(stderr, "dds_create_writer: %s\n", dds_strretcode(-wr));
    return 1;
  }
  if (!transient) {
    dds_publication_matched_status_t st = {0};
    while (st.current_count < 1) {
      dds_get_publication_matched_status(wr, &st);
      dds_sleepfor(DDS_MSECS(5));
    }
  }
  char *buf = malloc((size_t)size + 32);
  for (int i = 0; i < count; i++) {
    int n = snprintf(buf, 32, "hello %d", i);
    while (n < size) buf[n++] = 'x';
    buf[n] = 0;
    std_msgs_msg_dds__String_ msg = {.data = buf};
    dds_return_t rc = dds_write(wr, &msg);
    if (rc != DDS_RETCODE_OK) {
      fprintf(stderr, "dds_write: %s\n", dds_strretcode(-rc));
      return 1;
    }
  }
  free(buf);
  printf("{\"event\":\"written\"}\n");
  fflush(stdout);
  while (getchar() != EOF) {
  }
  return 0;
}

static int sub(dds_entity_t pp, dds_entity_t tp, int count, int reliable, int transient) {
  dds_qos_t *q = qos(reliable, transient, count);
  dds_entity_t rd = dds_create_reader(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (rd < 0) {
    fprintf(stderr, "dds_create_reader: %s\n", dds_strretcode(-rd));
    return 1;
  }
  int matched = 0, got = 0;
  void *samples[1];
  samples[0] = std_msgs_msg_dds__String___alloc ();
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
      const char *s = ((std_msgs_msg_dds__String_ *)samples[0])->data;
      size_t head = strcspn(s, "x");
      printf("{\"len\":%zu,\"head\":\"%.*s\"}\n", strlen(s), (int)(head > 32 ? 32 : head), s);
      fflush(stdout);
      got++;
      continue;
    }
    dds_sleepfor(DDS_MSECS(2));
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: chatter pub|sub TOPIC COUNT RELIABLE TRANSIENT [SIZE]\n");
    return 2;
  }
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_entity_t pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (pp < 0) {
    fprintf(stderr, "dds_create_participant: %s\n", dds_strretcode(-pp));
    return 1;
  }
  dds_entity_t tp = dds_create_topic(pp, &std_msgs_msg_dds__String__desc, argv[2], NULL, NULL);
  if (tp < 0) {
    fprintf(stderr, "dds_create_topic: %s\n", dds_strretcode(-tp));
    return 1;
  }
  int count = atoi(argv[3]), reliable = atoi(argv[4]), transient = atoi(argv[5]);
  int rc = strcmp(argv[1], "pub") == 0 ? pub(pp, tp, count, reliable, transient, argc > 6 ? atoi(argv[6]) : 0)
                                       : sub(pp, tp, count, reliable, transient);
  dds_delete(pp);
  return rc;
}
