/* param_nodes_client: a Cyclone DDS peer that lists the ROS 2 node graph
 * as rmw_cyclonedds reads it, then tunes a controller's gain through its
 * node's parameter services in rmw_cyclonedds's convention (types from
 * ParamNodesCyclone.idl and ros2node's ParticipantEntitiesInfo.idl by
 * idlc).
 *
 *   param_nodes_client NODE PARAM DELTA
 *
 * It reads ros_discovery_info (reliable, transient local, keep all, as
 * rmw_cyclonedds) until a participant's entry lists NODE (a fully
 * qualified name such as /turret_position) and /controller_manager, and
 * prints that participant's nodes and the numbers of NODE's readers and
 * writers there:
 *   {"graph":"/a,/b,...","node_readers":R,"node_writers":W}
 * then, one JSON line each, on NODE's services:
 *   list_parameters                 {"list":"name,name,..."}
 *   describe_parameters PARAM       {"type":T,"read_only":B,"ranges":N,"from":F,"to":T,"step":S}
 *   get_parameters PARAM            {"get":TYPE,"value":V}
 *   set_parameters PARAM V+DELTA    {"set":OK,"reason":R}
 *   get_parameters PARAM            {"get":TYPE,"value":V}
 *   set_parameters PARAM 2e6        {"set":OK,"reason":R}   (out of range)
 *   get_parameters PARAM            {"get":TYPE,"value":V}
 * Names are cut to 4000 bytes in all. Domain $ROS_DOMAIN_ID, network
 * $CYCLONEDDS_URI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "service.h"
#include "ParamNodesCyclone.h"
#include "ParticipantEntitiesInfo.h"

static const char *node, *param;

/* append adds s to buf (size n) after a comma. */
static void append(char *buf, size_t n, const char *s) {
  size_t l = strlen(buf);
  snprintf(buf + l, n - l, "%s%s", l > 0 ? "," : "", s);
}

/* graph waits for a participant listing node and /controller_manager and
 * prints its nodes. */
static void graph(dds_entity_t pp) {
  dds_entity_t tp = dds_create_topic(pp, &rmw_dds_common_msg_dds__ParticipantEntitiesInfo__desc, "ros_discovery_info", NULL, NULL);
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_durability(q, DDS_DURABILITY_TRANSIENT_LOCAL);
  dds_qset_history(q, DDS_HISTORY_KEEP_ALL, 0);
  dds_entity_t rd = dds_create_reader(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (tp < 0 || rd < 0) {
    fprintf(stderr, "ros_discovery_info: %s %s\n", dds_strretcode(tp), dds_strretcode(rd));
    exit(1);
  }
  for (;;) {
    void *samples[1] = {NULL};
    dds_sample_info_t si;
    int n = dds_take(rd, samples, &si, 1, 1);
    if (n <= 0) {
      dds_sleepfor(DDS_MSECS(5));
      continue;
    }
    int found = 0;
    uint32_t readers = 0, writers = 0;
    static char list[4000];
    list[0] = 0;
    if (si.valid_data) {
      rmw_dds_common_msg_dds__ParticipantEntitiesInfo_ *m = samples[0];
      for (uint32_t i = 0; i < m->node_entities_info_seq._length; i++) {
        rmw_dds_common_msg_dds__NodeEntitiesInfo_ *e = &m->node_entities_info_seq._buffer[i];
        char full[600];
        snprintf(full, sizeof full, "%s%s%s", e->node_namespace, strcmp(e->node_namespace, "/") == 0 ? "" : "/", e->node_name);
        if (strcmp(full, node) == 0) {
          found |= 1;
          readers = e->reader_gid_seq._length;
          writers = e->writer_gid_seq._length;
        }
        found |= (strcmp(full, "/controller_manager") == 0) << 1;
        append(list, sizeof list, full);
      }
    }
    dds_return_loan(rd, samples, n);
    if (found == 3) {
      printf("{\"graph\":\"%s\",\"node_readers\":%u,\"node_writers\":%u}\n", list, readers, writers);
      fflush(stdout);
      return;
    }
  }
}

static double get(struct ddstest_service s) {
  char *names[] = {(char *)param};
  rcl_interfaces_srv_dds__GetParameters_Request_ req = {.names = {._length = 1, ._maximum = 1, ._buffer = names}};
  rcl_interfaces_srv_dds__GetParameters_Response_ resp;
  memset(&resp, 0, sizeof resp);
  ddstest_call(s, &req, &resp);
  if (resp.values._length != 1) {
    printf("{\"get\":-1}\n");
    fflush(stdout);
    return 0;
  }
  printf("{\"get\":%d,\"value\":%.17g}\n", resp.values._buffer[0].type, resp.values._buffer[0].double_value);
  fflush(stdout);
  return resp.values._buffer[0].double_value;
}

static void set(struct ddstest_service s, double v) {
  rcl_interfaces_msg_dds__Parameter_ p;
  memset(&p, 0, sizeof p);
  p.name = (char *)param;
  p.value.type = 3; /* PARAMETER_DOUBLE */
  p.value.double_value = v;
  p.value.string_value = "";
  rcl_interfaces_srv_dds__SetParameters_Request_ req = {.parameters = {._length = 1, ._maximum = 1, ._buffer = &p}};
  rcl_interfaces_srv_dds__SetParameters_Response_ resp;
  memset(&resp, 0, sizeof resp);
  ddstest_call(s, &req, &resp);
  if (resp.results._length != 1) {
    printf("{\"set\":-1}\n");
  } else {
    printf("{\"set\":%d,\"reason\":\"%s\"}\n", resp.results._buffer[0].successful, resp.results._buffer[0].reason);
  }
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: param_nodes_client NODE PARAM DELTA\n");
    return 2;
  }
  node = argv[1];
  param = argv[2];
  double delta = atof(argv[3]);
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_entity_t pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (pp < 0) {
    fprintf(stderr, "dds_create_participant: %s\n", dds_strretcode(-pp));
    return 1;
  }
  graph(pp);
  char srv[300];
#define SERVICE(name, T)                                                                                                \
  (snprintf(srv, sizeof srv, "%s/" name, node),                                                                         \
   ddstest_service(pp, srv, &rcl_interfaces_srv_dds__##T##_Request__desc, &rcl_interfaces_srv_dds__##T##_Response__desc))
  struct ddstest_service ls = SERVICE("list_parameters", ListParameters);
  struct ddstest_service ds = SERVICE("describe_parameters", DescribeParameters);
  struct ddstest_service gp = SERVICE("get_parameters", GetParameters);
  struct ddstest_service sp = SERVICE("set_parameters", SetParameters);
  dds_sleepfor(DDS_MSECS(200)); /* the server's reply writers learn the reply readers too */

  rcl_interfaces_srv_dds__ListParameters_Request_ lreq = {.depth = 0};
  rcl_interfaces_srv_dds__ListParameters_Response_ lresp;
  memset(&lresp, 0, sizeof lresp);
  ddstest_call(ls, &lreq, &lresp);
  static char names[4000];
  for (uint32_t i = 0; i < lresp.result.names._length; i++) append(names, sizeof names, lresp.result.names._buffer[i]);
  printf("{\"list\":\"%s\"}\n", names);
  fflush(stdout);

  char *dn[] = {(char *)param};
  rcl_interfaces_srv_dds__DescribeParameters_Request_ dreq = {.names = {._length = 1, ._maximum = 1, ._buffer = dn}};
  rcl_interfaces_srv_dds__DescribeParameters_Response_ dresp;
  memset(&dresp, 0, sizeof dresp);
  ddstest_call(ds, &dreq, &dresp);
  if (dresp.descriptors._length != 1) {
    printf("{\"type\":-1}\n");
  } else {
    rcl_interfaces_msg_dds__ParameterDescriptor_ *p = &dresp.descriptors._buffer[0];
    rcl_interfaces_msg_dds__FloatingPointRange_ r = {0};
    if (p->floating_point_range._length > 0) r = p->floating_point_range._buffer[0];
    printf("{\"type\":%d,\"read_only\":%d,\"ranges\":%u,\"from\":%.17g,\"to\":%.17g,\"step\":%.17g}\n", p->type, p->read_only,
           p->floating_point_range._length, r.from_value, r.to_value, r.step);
  }
  fflush(stdout);

  double v = get(gp);
  set(sp, v + delta);
  get(gp);
  set(sp, 2e6);
  get(gp);
  dds_delete(pp);
  return 0;
}
