/* service.h: a ROS 2 service client on Cyclone DDS in rmw_cyclonedds's
 * convention, for the Cyclone test peers (internal/ddstest, on every gcc
 * include path it builds with): topics rq<NAME>Request and rr<NAME>Reply,
 * reliable, keep last 10; each request and reply starts with the header
 * {uint64 guid; int64 seq} (the IDL's cdds_guid, cdds_seq). */
#pragma once
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "dds/dds.h"

struct ddstest_service {
  dds_entity_t w, r;
};

/* ddstest_service makes a service's request writer and reply reader on pp
 * and waits until both have matched frcd's. */
static inline struct ddstest_service ddstest_service(dds_entity_t pp, const char *name, const dds_topic_descriptor_t *req,
                                                     const dds_topic_descriptor_t *resp) {
  char rq[256], rr[256];
  snprintf(rq, sizeof rq, "rq%sRequest", name);
  snprintf(rr, sizeof rr, "rr%sReply", name);
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
  struct ddstest_service s = {dds_create_writer(pp, dds_create_topic(pp, req, rq, NULL, NULL), q, NULL),
                              dds_create_reader(pp, dds_create_topic(pp, resp, rr, NULL, NULL), q, NULL)};
  dds_delete_qos(q);
  if (s.w < 0 || s.r < 0) {
    fprintf(stderr, "service %s: %s %s\n", name, dds_strretcode(s.w), dds_strretcode(s.r));
    exit(1);
  }
  dds_publication_matched_status_t ps = {0};
  dds_subscription_matched_status_t ss = {0};
  while (ps.current_count < 1 || ss.current_count < 1) {
    dds_get_publication_matched_status(s.w, &ps);
    dds_get_subscription_matched_status(s.r, &ss);
    dds_sleepfor(DDS_MSECS(5));
  }
  return s;
}

/* ddstest_call writes req (a request struct starting with the header,
 * which it fills) and takes replies into resp until the one to it. */
static inline void ddstest_call(struct ddstest_service s, void *req, void *resp) {
  static const uint64_t me = 0x0123456789abcdefULL;
  static int64_t seq;
  uint64_t *h = req;
  h[0] = me;
  h[1] = (uint64_t)++seq;
  dds_write(s.w, req);
  for (;;) {
    void *samples[1] = {resp};
    dds_sample_info_t si;
    if (dds_take(s.r, samples, &si, 1, 1) > 0 && si.valid_data) {
      uint64_t *rh = resp;
      if (rh[0] == me && (int64_t)rh[1] == seq) return;
    }
    dds_sleepfor(DDS_MSECS(2));
  }
}
