/* joint_states.h: what pub and sub share: a participant on $ROS_DOMAIN_ID
 * (the network setup from $CYCLONEDDS_URI), the DDS topic rt/joint_states
 * of sensor_msgs::msg::dds_::JointState_ (JointState.idl, compiled by
 * idlc), and rmw's default QoS profile: reliable, volatile, keep last 10.
 */
#include <stdio.h>
#include <stdlib.h>
#include "dds/dds.h"
#include "JointState.h"

/* js_open sets *pp and *tp and returns the QoS (dds_delete_qos it), or
 * NULL after printing why. */
static dds_qos_t *js_open(dds_entity_t *pp, dds_entity_t *tp) {
  const char *d = getenv("ROS_DOMAIN_ID");
  *pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (*pp < 0) {
    fprintf(stderr, "dds_create_participant: %s\n", dds_strretcode(-*pp));
    return NULL;
  }
  *tp = dds_create_topic(*pp, &sensor_msgs_msg_dds__JointState__desc, "rt/joint_states", NULL, NULL);
  if (*tp < 0) {
    fprintf(stderr, "dds_create_topic: %s\n", dds_strretcode(-*tp));
    return NULL;
  }
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_durability(q, DDS_DURABILITY_VOLATILE);
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
  return q;
}
