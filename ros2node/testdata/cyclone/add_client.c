/* add_client: a ROS 2 service client of /add_two_ints
 * (example_interfaces/srv/AddTwoInts) in rmw_cyclonedds's convention, on
 * Cyclone DDS: requests on rq/add_two_intsRequest with the header
 * {guid, seq} before the fields, replies taken from rr/add_two_intsReply
 * when their header is the request's. It sends (2, 40) then (-5, 3) and
 * prints {"seq":S,"sum":N} per reply. Domain $ROS_DOMAIN_ID, network
 * $CYCLONEDDS_URI.
 */
#include <stdio.h>
#include <stdlib.h>
#include "dds/dds.h"
#include "AddTwoIntsCyclone.h"

int main(void) {
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_entity_t pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  dds_entity_t rq = dds_create_topic(pp, &example_interfaces_srv_dds__AddTwoInts_Request__desc, "rq/add_two_intsRequest", NULL, NULL);
  dds_entity_t rr = dds_create_topic(pp, &example_interfaces_srv_dds__AddTwoInts_Response__desc, "rr/add_two_intsReply", NULL, NULL);
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
  dds_entity_t wr = dds_create_writer(pp, rq, q, NULL);
  dds_entity_t rd = dds_create_reader(pp, rr, q, NULL);
  dds_delete_qos(q);
  if (pp < 0 || rq < 0 || rr < 0 || wr < 0 || rd < 0) {
    fprintf(stderr, "creating the entities failed\n");
    return 1;
  }
  dds_publication_matched_status_t ps = {0};
  dds_subscription_matched_status_t ss = {0};
  while (ps.current_count < 1 || ss.current_count < 1) {
    dds_get_publication_matched_status(wr, &ps);
    dds_get_subscription_matched_status(rd, &ss);
    dds_sleepfor(DDS_MSECS(5));
  }
  const uint64_t me = 0x0123456789abcdefULL;
  long long args[2][2] = {{2, 40}, {-5, 3}};
  for (int i = 0; i < 2; i++) {
    example_interfaces_srv_dds__AddTwoInts_Request_ req = {.cdds_guid = me, .cdds_seq = i + 1, .a = args[i][0], .b = args[i][1]};
    dds_write(wr, &req);
    for (;;) {
      example_interfaces_srv_dds__AddTwoInts_Response_ resp;
      void *samples[1] = {&resp};
      dds_sample_info_t si;
      if (dds_take(rd, samples, &si, 1, 1) > 0 && si.valid_data && resp.cdds_guid == me && resp.cdds_seq == i + 1) {
        printf("{\"seq\":%lld,\"sum\":%lld}\n", (long long)resp.cdds_seq, (long long)resp.sum);
        fflush(stdout);
        break;
      }
      dds_sleepfor(DDS_MSECS(2));
    }
  }
  dds_delete(pp);
  return 0;
}
