/* services_client: calls frcd's ros2_control controller_manager and
 * parameter services on Cyclone DDS in rmw_cyclonedds's convention (types
 * from ServicesCyclone.idl by idlc). Domain $ROS_DOMAIN_ID, network
 * $CYCLONEDDS_URI. In order, one JSON line each:
 *   /controller_manager/list_controllers   {"phase":1,"name":N,"state":S,"claimed":C,"rate":R} per controller
 *   /controller_manager/switch_controller  deactivate turret_position, STRICT: {"switch":OK,"message":M}
 *   list_controllers again                 {"phase":2,...} per controller
 *   /frcd/get_parameters                   turret_position.pid.p: {"get":TYPE,"value":V}
 *   /frcd/set_parameters                   it to V+1.5 (double), then to 3 (integer):
 *                                          {"set":OK,"reason":R} each
 *   /frcd/get_parameters                   again: {"get":TYPE,"value":V}
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "ServicesCyclone.h"

static const uint64_t me = 0x0123456789abcdefULL;
static dds_entity_t pp;
static int64_t seq;

struct service {
  dds_entity_t w, r;
};

static struct service service(const char *name, const dds_topic_descriptor_t *req, const dds_topic_descriptor_t *resp) {
  char rq[256], rr[256];
  snprintf(rq, sizeof rq, "rq%sRequest", name);
  snprintf(rr, sizeof rr, "rr%sReply", name);
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
  struct service s = {dds_create_writer(pp, dds_create_topic(pp, req, rq, NULL, NULL), q, NULL),
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

/* call writes req (a request struct starting with the header, which it
 * fills) and takes replies into resp until the one to it. */
static void call(struct service s, void *req, void *resp) {
  uint64_t *h = req;
  h[0] = me;
  h[1] = (uint64_t)++seq;
  dds_write(s.w, req);
  for (;;) {
    void *samples[1] = {resp};
    dds_sample_info_t si;
    if (dds_take(s.r, samples, &si, 1, 1) > 0 && si.valid_data) {
      uint64_t *rh = resp;
      if (rh[0] == me && (int64_t)rh[1] == seq)
        return;
    }
    dds_sleepfor(DDS_MSECS(2));
  }
}

static void list(struct service s, int phase) {
  controller_manager_msgs_srv_dds__ListControllers_Request_ req = {0};
  controller_manager_msgs_srv_dds__ListControllers_Response_ resp;
  memset(&resp, 0, sizeof resp);
  call(s, &req, &resp);
  for (uint32_t i = 0; i < resp.controller._length; i++) {
    controller_manager_msgs_msg_dds__ControllerState_ *c = &resp.controller._buffer[i];
    printf("{\"phase\":%d,\"name\":\"%s\",\"state\":\"%s\",\"claimed\":\"%s\",\"rate\":%u}\n", phase, c->name, c->state,
           c->claimed_interfaces._length > 0 ? c->claimed_interfaces._buffer[0] : "", c->update_rate);
  }
  fflush(stdout);
}

static double get(struct service s) {
  char *names[] = {"turret_position.pid.p"};
  rcl_interfaces_srv_dds__GetParameters_Request_ req = {.names = {._length = 1, ._maximum = 1, ._buffer = names}};
  rcl_interfaces_srv_dds__GetParameters_Response_ resp;
  memset(&resp, 0, sizeof resp);
  call(s, &req, &resp);
  if (resp.values._length != 1) {
    printf("{\"get\":-1}\n");
    return 0;
  }
  printf("{\"get\":%d,\"value\":%g}\n", resp.values._buffer[0].type, resp.values._buffer[0].double_value);
  fflush(stdout);
  return resp.values._buffer[0].double_value;
}

static void set(struct service s, uint8_t type, double v) {
  rcl_interfaces_msg_dds__Parameter_ p;
  memset(&p, 0, sizeof p);
  p.name = "turret_position.pid.p";
  p.value.type = type;
  p.value.double_value = v;
  p.value.integer_value = (long long)v;
  p.value.string_value = "";
  rcl_interfaces_srv_dds__SetParameters_Request_ req = {.parameters = {._length = 1, ._maximum = 1, ._buffer = &p}};
  rcl_interfaces_srv_dds__SetParameters_Response_ resp;
  memset(&resp, 0, sizeof resp);
  call(s, &req, &resp);
  if (resp.results._length != 1) {
    printf("{\"set\":-1}\n");
    return;
  }
  printf("{\"set\":%d,\"reason\":\"%s\"}\n", resp.results._buffer[0].successful, resp.results._buffer[0].reason);
  fflush(stdout);
}

int main(void) {
  const char *d = getenv("ROS_DOMAIN_ID");
  pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  struct service lc = service("/controller_manager/list_controllers", &controller_manager_msgs_srv_dds__ListControllers_Request__desc,
                              &controller_manager_msgs_srv_dds__ListControllers_Response__desc);
  struct service sw = service("/controller_manager/switch_controller", &controller_manager_msgs_srv_dds__SwitchController_Request__desc,
                              &controller_manager_msgs_srv_dds__SwitchController_Response__desc);
  struct service gp = service("/frcd/get_parameters", &rcl_interfaces_srv_dds__GetParameters_Request__desc,
                              &rcl_interfaces_srv_dds__GetParameters_Response__desc);
  struct service sp = service("/frcd/set_parameters", &rcl_interfaces_srv_dds__SetParameters_Request__desc,
                              &rcl_interfaces_srv_dds__SetParameters_Response__desc);
  dds_sleepfor(DDS_MSECS(200)); /* the server's reply writers learn the reply readers too */
  list(lc, 1);
  char *off[] = {"turret_position"};
  controller_manager_msgs_srv_dds__SwitchController_Request_ req = {.deactivate_controllers = {._length = 1, ._maximum = 1, ._buffer = off},
                                                                    .strictness = 2};
  controller_manager_msgs_srv_dds__SwitchController_Response_ resp;
  memset(&resp, 0, sizeof resp);
  call(sw, &req, &resp);
  printf("{\"switch\":%d,\"message\":\"%s\"}\n", resp.ok, resp.message);
  fflush(stdout);
  list(lc, 2);
  double p = get(gp);
  set(sp, 3, p + 1.5);
  set(sp, 2, 3);
  get(gp);
  dds_delete(pp);
  return 0;
}
