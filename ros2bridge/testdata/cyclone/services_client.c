/* services_client: calls frcd's ros2_control controller_manager and
 * parameter services on Cyclone DDS in rmw_cyclonedds's convention (types
 * from ServicesCyclone.idl by idlc). Domain $ROS_DOMAIN_ID, network
 * $CYCLONEDDS_URI. In order, one JSON line each:
 *   /controller_manager/list_controllers   {"phase":1,"name":N,"state":S,"ctype":T,"claimed":C,"rate":R} per controller
 *   /controller_manager/switch_controller  deactivate turret_position, STRICT: {"switch":OK,"message":M}
 *   list_controllers again                 {"phase":2,...} per controller
 *   /controller_manager/list_hardware_components
 *                                          {"component":N,"type":T,"class":C,"state_id":I,"label":L,
 *                                           "commands":N,"available":N,"states":N,"rw_rate":R} per component
 *   /controller_manager/set_hardware_component_state
 *                                          frcd inactive: {"hwset":OK,"hw_id":I,"hw_label":L}
 *   list_hardware_components again, then set_hardware_component_state frcd active: the same lines
 *   /frcd/get_parameters                   turret_position.pid.p: {"get":TYPE,"value":V}
 *   /frcd/set_parameters                   it to V+1.5 (double), then to 3 (integer):
 *                                          {"set":OK,"reason":R} each
 *   /frcd/get_parameters                   again: {"get":TYPE,"value":V}
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "service.h"
#include "ServicesCyclone.h"

static dds_entity_t pp;

static void list(struct ddstest_service s, int phase) {
  controller_manager_msgs_srv_dds__ListControllers_Request_ req = {0};
  controller_manager_msgs_srv_dds__ListControllers_Response_ resp;
  memset(&resp, 0, sizeof resp);
  ddstest_call(s, &req, &resp);
  for (uint32_t i = 0; i < resp.controller._length; i++) {
    controller_manager_msgs_msg_dds__ControllerState_ *c = &resp.controller._buffer[i];
    printf("{\"phase\":%d,\"name\":\"%s\",\"state\":\"%s\",\"ctype\":\"%s\",\"claimed\":\"%s\",\"rate\":%u}\n", phase, c->name, c->state,
           c->type, c->claimed_interfaces._length > 0 ? c->claimed_interfaces._buffer[0] : "", c->update_rate);
  }
  fflush(stdout);
}

static char rate_buf[64];
#define RATE(c) (snprintf(rate_buf, sizeof rate_buf, ",\"rw_rate\":%u", (c)->rw_rate), rate_buf)

#include "components.h"

/* sethw sets frcd's hardware component to state id, label. */
static void sethw(struct ddstest_service s, uint8_t id, char *label) {
  controller_manager_msgs_srv_dds__SetHardwareComponentState_Request_ req = {.name = "frcd", .target_state = {.id = id, .label = label}};
  controller_manager_msgs_srv_dds__SetHardwareComponentState_Response_ resp;
  memset(&resp, 0, sizeof resp);
  ddstest_call(s, &req, &resp);
  printf("{\"hwset\":%d,\"hw_id\":%u,\"hw_label\":\"%s\"}\n", resp.ok, resp.state.id, resp.state.label);
  fflush(stdout);
}

static double get(struct ddstest_service s) {
  char *names[] = {"turret_position.pid.p"};
  rcl_interfaces_srv_dds__GetParameters_Request_ req = {.names = {._length = 1, ._maximum = 1, ._buffer = names}};
  rcl_interfaces_srv_dds__GetParameters_Response_ resp;
  memset(&resp, 0, sizeof resp);
  ddstest_call(s, &req, &resp);
  if (resp.values._length != 1) {
    printf("{\"get\":-1}\n");
    return 0;
  }
  printf("{\"get\":%d,\"value\":%g}\n", resp.values._buffer[0].type, resp.values._buffer[0].double_value);
  fflush(stdout);
  return resp.values._buffer[0].double_value;
}

static void set(struct ddstest_service s, uint8_t type, double v) {
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
  ddstest_call(s, &req, &resp);
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
  struct ddstest_service lc = ddstest_service(pp, "/controller_manager/list_controllers", &controller_manager_msgs_srv_dds__ListControllers_Request__desc,
                              &controller_manager_msgs_srv_dds__ListControllers_Response__desc);
  struct ddstest_service sw = ddstest_service(pp, "/controller_manager/switch_controller", &controller_manager_msgs_srv_dds__SwitchController_Request__desc,
                              &controller_manager_msgs_srv_dds__SwitchController_Response__desc);
  struct ddstest_service hc = ddstest_service(pp, "/controller_manager/list_hardware_components",
                                              &controller_manager_msgs_srv_dds__ListHardwareComponents_Request__desc,
                                              &controller_manager_msgs_srv_dds__ListHardwareComponents_Response__desc);
  struct ddstest_service shs = ddstest_service(pp, "/controller_manager/set_hardware_component_state",
                                               &controller_manager_msgs_srv_dds__SetHardwareComponentState_Request__desc,
                                               &controller_manager_msgs_srv_dds__SetHardwareComponentState_Response__desc);
  struct ddstest_service gp = ddstest_service(pp, "/frcd/get_parameters", &rcl_interfaces_srv_dds__GetParameters_Request__desc,
                              &rcl_interfaces_srv_dds__GetParameters_Response__desc);
  struct ddstest_service sp = ddstest_service(pp, "/frcd/set_parameters", &rcl_interfaces_srv_dds__SetParameters_Request__desc,
                              &rcl_interfaces_srv_dds__SetParameters_Response__desc);
  dds_sleepfor(DDS_MSECS(200)); /* the server's reply writers learn the reply readers too */
  list(lc, 1);
  char *off[] = {"turret_position"};
  controller_manager_msgs_srv_dds__SwitchController_Request_ req = {.deactivate_controllers = {._length = 1, ._maximum = 1, ._buffer = off},
                                                                    .strictness = 2};
  controller_manager_msgs_srv_dds__SwitchController_Response_ resp;
  memset(&resp, 0, sizeof resp);
  ddstest_call(sw, &req, &resp);
  printf("{\"switch\":%d,\"message\":\"%s\"}\n", resp.ok, resp.message);
  fflush(stdout);
  list(lc, 2);
  components(hc);
  sethw(shs, 2, "inactive");
  components(hc);
  sethw(shs, 3, "active");
  double p = get(gp);
  set(sp, 3, p + 1.5);
  set(sp, 2, 3);
  get(gp);
  dds_delete(pp);
  return 0;
}
