/* components.h: list_hardware_components for the controller_manager
 * clients (services_client.c with Jazzy's types, cm_humble_client.c with
 * Humble's: the generated C names are the same). The includer defines
 * RATE(c), the JSON text of the fields its layout adds ("" for none), and
 * includes service.h and its generated header first. */
#pragma once

/* components prints list_hardware_components' answer: one line per
 * component. */
static inline void components(struct ddstest_service s) {
  controller_manager_msgs_srv_dds__ListHardwareComponents_Request_ req = {0};
  controller_manager_msgs_srv_dds__ListHardwareComponents_Response_ resp;
  memset(&resp, 0, sizeof resp);
  ddstest_call(s, &req, &resp);
  for (uint32_t i = 0; i < resp.component._length; i++) {
    controller_manager_msgs_msg_dds__HardwareComponentState_ *c = &resp.component._buffer[i];
    uint32_t avail = 0;
    for (uint32_t j = 0; j < c->command_interfaces._length; j++)
      avail += c->command_interfaces._buffer[j].is_available;
    printf("{\"component\":\"%s\",\"type\":\"%s\",\"class\":\"%s\",\"state_id\":%u,\"label\":\"%s\",\"commands\":%u,\"available\":%u,\"states\":%u%s}\n",
           c->name, c->type, c->class_type, c->state.id, c->state.label, c->command_interfaces._length, avail, c->state_interfaces._length, RATE(c));
  }
  fflush(stdout);
}
