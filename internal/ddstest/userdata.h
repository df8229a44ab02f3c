/* userdata.h: what the Cyclone DDS test peers share (internal/ddstest, on
 * every gcc include path it builds with): ddstest_clean, a string cut to
 * 200 bytes with '"', '\' and control bytes as '\'' (safe in a JSON
 * string), and ddstest_userdata, the USER_DATA of a reader's first
 * matched writer (Jazzy's typehash=RIHS01_...;), cleaned. */
#pragma once
#include <string.h>
#include "dds/dds.h"

static inline void ddstest_clean(char *dst, const char *s) {
  size_t i = 0;
  for (; s && s[i] && i < 200; i++) dst[i] = (s[i] == '"' || s[i] == '\\' || (unsigned char)s[i] < 32) ? '\'' : s[i];
  dst[i] = 0;
}

/* ddstest_userdata prints into buf (256 bytes). */
static inline void ddstest_userdata(dds_entity_t rd, char *buf) {
  dds_instance_handle_t h[4];
  buf[0] = 0;
  dds_return_t n = dds_get_matched_publications(rd, h, 4);
  if (n <= 0) return;
  dds_builtintopic_endpoint_t *ep = dds_get_matched_publication_data(rd, h[0]);
  if (!ep) return;
  void *v = NULL;
  size_t sz = 0;
  if (dds_qget_userdata(ep->qos, &v, &sz) && v) {
    char tmp[256];
    size_t k = sz < 255 ? sz : 255;
    memcpy(tmp, v, k);
    tmp[k] = 0;
    ddstest_clean(buf, tmp);
    dds_free(v);
  }
  dds_builtintopic_free_endpoint(ep);
}
