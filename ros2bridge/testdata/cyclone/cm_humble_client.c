/* cm_humble_client: calls frcd's ros2_control controller_manager services
 * as a Humble client would, on Cyclone DDS in rmw_cyclonedds's convention
 * (Humble's types from ServicesHumbleCyclone.idl by idlc). Domain
 * $ROS_DOMAIN_ID, network $CYCLONEDDS_URI. In order, one JSON line each:
 *   /controller_manager/list_controllers          {"phase":1,"name":N,"state":S,"claimed":C} per controller
 *   /controller_manager/switch_controller         deactivate turret_position through Humble's
 *                                                 deprecated stop_controllers, STRICT: {"switch":OK}
 *   list_controllers again                        {"phase":2,...} per controller
 *   /controller_manager/list_hardware_interfaces  {"iface":N,"command":1|0,"available":A,"taken":C} each
 *   /controller_manager/list_hardware_components  {"component":N,"type":T,"class":C,"state_id":I,"label":L,
 *                                                  "commands":N,"states":N} per component
 * then {"done":1}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "service.h"
#include "ServicesHumbleCyclone.h"

static dds_entity_t pp;

static void list(struct ddstest_service s, int phase) {
  controller_manager_msgs_srv_dds__ListControllers_Request_ req = {0};
  controller_manager_msgs_srv_dds__ListControllers_Response_ resp;
  memset(&resp, 0, sizeof resp);
  ddstest_call(s, &req, &resp);
  for (uint32_t i = 0; i < resp.controller._length; i++) {
    controller_manager_msgs_msg_dds__ControllerState_ *c = &resp.controller._buffer[i];
    printf("{\"phase\":%d,\"name\":\"%s\",\"state\":\"%s\",\"claimed\":\"%s\"}\n", phase, c->name, c->state,
           c->claimed_interfaces._length > 0 ? c->claimed_interfaces._buffer[0] : "");
  }
  fflush(stdout);
}

#define RATE(c) ""

#include "components.h"

static void ifaces(const dds_sequence_controller_manager_msgs_msg_dds__HardwareInterface_ *s, int command) {
  for (uint32_t i = 0; i < s->_length; i++)
    printf("{\"iface\":\"%s\",\"command\":%d,\"available\":%d,\"taken\":%d}\n", s->_buffer[i].name, command, s->_buffer[i].is_available,
           s->_buffer[i].is_claimed);
}

int main(void) {
  const char *d = getenv("ROS_DOMAIN_ID");
  pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  struct ddstest_service lc = ddstest_service(pp, "/controller_manager/list_controllers", &controller_manager_msgs_srv_dds__ListControllers_Request__desc,
                              &controller_manager_msgs_srv_dds__ListControllers_Response__desc);
  struct ddstest_service sw = ddstest_service(pp, "/controller_manager/switch_controller", &controller_manager_msgs_srv_dds__SwitchController_Request__desc,
                              &controller_manager_msgs_srv_dds__SwitchController_Response__desc);
  struct ddstest_service hw =
      ddstest_service(pp, "/controller_manager/list_hardware_interfaces", &controller_manager_msgs_srv_dds__ListHardwareInterfaces_Request__desc,
              &controller_manager_msgs_srv_dds__ListHardwareInterfaces_Response__desc);
  struct ddstest_service hc = ddstest_service(pp, "/controller_manager/list_hardware_components",
                                              &controller_manager_msgs_srv_dds__ListHardwareComponents_Request__desc,
                                              &controller_manager_msgs_srv_dds__ListHardwareComponents_Response__desc);
  dds_sleepfor(DDS_MSECS(200)); /* the server's reply writers learn the reply readers too */
  list(lc, 1);
  char *off[] = {"turret_position"};
  controller_manager_msgs_srv_dds__SwitchController_Request_ req = {.stop_controllers = {._length = 1, ._maximum = 1, ._buffer = off},
                                                                    .strictness = 2};
  controller_manager_msgs_srv_dds__SwitchController_Response_ resp;
  memset(&resp, 0, sizeof resp);
  ddstest_call(sw, &req, &resp);
  printf("{\"switch\":%d}\n", resp.ok);
  fflush(stdout);
  list(lc, 2);
  controller_manager_msgs_srv_dds__ListHardwareInterfaces_Request_ hreq = {0};
  controller_manager_msgs_srv_dds__ListHardwareInterfaces_Response_ hresp;
  memset(&hresp, 0, sizeof hresp);
  ddstest_call(hw, &hreq, &hresp);
  ifaces(&hresp.command_interfaces, 1);
  ifaces(&hresp.state_interfaces, 0);
  components(hc);
  printf("{\"done\":1}\n");
  fflush(stdout);
  dds_delete(pp);
  return 0;
}
