/* control_client: a Cyclone DDS peer commanding frcd's controllers in
 * ros2_controllers' forms and reading ros2_control's state topics.
 *
 *   control_client SECONDS SWITCH
 *
 * Writers (reliable, keep last 10, as ros2 topic pub):
 * rt/hood_position/commands (std_msgs Float64MultiArray) [0.4] every
 * 50 ms, and once, after 1 s, [0.1, 0.2] (the wrong length: refused);
 * from SWITCH seconds on, once it has read the hood within 0.03 of 0.4 on
 * controller_state (so that a slow start cannot skip the reference the
 * test waits for first), instead, rt/hood_position/reference
 * (control_msgs MultiDOFCommand) {dof_names [hood_joint], values [0.3]}
 * every 50 ms, the first one {[turret_joint], [0.3]} (refused);
 * rt/arm_trajectory/joint_trajectory (trajectory_msgs JointTrajectory)
 * once matched, and again each second until it reads the trajectory's
 * controller_state (frcd's reader may not know this writer yet when the
 * first is sent): shoulder_joint 0.5, elevator_joint 0.3 at 1 s.
 * Readers (reliable, volatile, keep last 10): rt/hood_position/controller_state
 * (control_msgs MultiDOFStateStamped), rt/arm_trajectory/controller_state
 * (control_msgs JointTrajectoryControllerState) and rt/dynamic_joint_states
 * (control_msgs DynamicJointState). Types from ControlCyclone.idl by idlc.
 * For SECONDS it prints the newest sample of each reader every 100 ms,
 * one JSON line each:
 *   {"topic":"pid","n":N,"name":S,"reference":R,"feedback":F,"error":E,"time_step":T,"output":O}
 *   {"topic":"trajectory","joints":[S,S],"ref":[R,R],"fb":[F,F],"err":[E,E],"speed":X}
 *   {"topic":"dynamic","n":N,"hood":[S,...],"values":[V,...]}  (hood_joint's interfaces)
 *   {"sent":N,"bad":B,"ref_sent":R,"ref_bad":RB}  (commands written, the
 *   wrong-length one written; references written, the wrong one written)
 * Strings are cut to 60 bytes. The domain is $ROS_DOMAIN_ID; the network
 * $CYCLONEDDS_URI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dds/dds.h"
#include "ControlCyclone.h"

static dds_entity_t pp;

static dds_entity_t endpoint(int writer, const dds_topic_descriptor_t *desc, const char *name) {
  dds_entity_t t = dds_create_topic(pp, desc, name, NULL, NULL);
  if (t < 0) {
    fprintf(stderr, "dds_create_topic %s: %s\n", name, dds_strretcode(-t));
    exit(1);
  }
  dds_qos_t *q = dds_create_qos();
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_SECS(1));
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
  dds_entity_t e = writer ? dds_create_writer(pp, t, q, NULL) : dds_create_reader(pp, t, q, NULL);
  dds_delete_qos(q);
  if (e < 0) {
    fprintf(stderr, "create %s: %s\n", name, dds_strretcode(-e));
    exit(1);
  }
  return e;
}

static int matched(dds_entity_t w) {
  dds_publication_matched_status_t st;
  return dds_get_publication_matched_status(w, &st) == 0 && st.current_count > 0;
}

static void str(const char *s) {
  putchar('"');
  for (int i = 0; s && s[i] && i < 60; i++) putchar(s[i] == '"' || s[i] == '\\' || (unsigned char)s[i] < 32 ? '\'' : s[i]);
  putchar('"');
}

static void doubles(const double *v, unsigned n) {
  putchar('[');
  for (unsigned i = 0; i < n; i++) printf(i ? ",%.17g" : "%.17g", v[i]);
  putchar(']');
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 3, sw = argc > 2 ? atof(argv[2]) : 1e9;
  const char *d = getenv("ROS_DOMAIN_ID");
  pp = dds_create_participant(d ? atoi(d) : 0, NULL, NULL);
  if (pp < 0) {
    fprintf(stderr, "dds_create_participant: %s\n", dds_strretcode(-pp));
    return 1;
  }
  dds_entity_t cmd = endpoint(1, &std_msgs_msg_dds__Float64MultiArray__desc, "rt/hood_position/commands");
  dds_entity_t ref = endpoint(1, &control_msgs_msg_dds__MultiDOFCommand__desc, "rt/hood_position/reference");
  dds_entity_t trj = endpoint(1, &trajectory_msgs_msg_dds__JointTrajectory__desc, "rt/arm_trajectory/joint_trajectory");
  dds_entity_t pid = endpoint(0, &control_msgs_msg_dds__MultiDOFStateStamped__desc, "rt/hood_position/controller_state");
  dds_entity_t jtc = endpoint(0, &control_msgs_msg_dds__JointTrajectoryControllerState__desc, "rt/arm_trajectory/controller_state");
  dds_entity_t dyn = endpoint(0, &control_msgs_msg_dds__DynamicJointState__desc, "rt/dynamic_joint_states");

  dds_time_t start = dds_time(), end = start + (dds_duration_t)(seconds * 1e9), lastCmd = 0, lastPrint = 0;
  int sent = 0, bad = 0, gotTraj = 0, refSent = 0, refBad = 0, settled = 0;
  dds_time_t lastTraj = 0;
  double one[1] = {0.4}, two[2] = {0.1, 0.2};
  void *s[1];
  dds_sample_info_t info[1];
  while (dds_time() < end) {
    dds_time_t now = dds_time();
    if (settled && now - start >= (dds_duration_t)(sw * 1e9)) {
      if (matched(ref) && now - lastCmd >= DDS_MSECS(50)) {
        control_msgs_msg_dds__MultiDOFCommand_ m;
        memset(&m, 0, sizeof m);
        char *hood[1] = {"hood_joint"}, *turret[1] = {"turret_joint"};
        double v[1] = {0.3};
        m.dof_names._buffer = refBad ? hood : turret;
        m.dof_names._length = m.dof_names._maximum = 1;
        m.values._buffer = v;
        m.values._length = m.values._maximum = 1;
        if (dds_write(ref, &m) == 0) {
          if (refBad) refSent++;
          refBad = 1;
        }
        lastCmd = now;
      }
    } else if (matched(cmd) && now - lastCmd >= DDS_MSECS(50)) {
      std_msgs_msg_dds__Float64MultiArray_ m;
      memset(&m, 0, sizeof m);
      int wrong = !bad && now - start > DDS_SECS(1);
      m.data._buffer = wrong ? two : one;
      m.data._length = m.data._maximum = wrong ? 2 : 1;
      if (dds_write(cmd, &m) == 0) {
        if (wrong) bad = 1;
        else sent++;
      }
      lastCmd = now;
    }
    if (!gotTraj && matched(trj) && now - lastTraj >= DDS_SECS(1)) {
      trajectory_msgs_msg_dds__JointTrajectory_ m;
      memset(&m, 0, sizeof m);
      char *names[2] = {"shoulder_joint", "elevator_joint"};
      double pos[2] = {0.5, 0.3};
      trajectory_msgs_msg_dds__JointTrajectoryPoint_ p;
      memset(&p, 0, sizeof p);
      p.positions._buffer = pos;
      p.positions._length = p.positions._maximum = 2;
      p.time_from_start.sec = 1;
      m.joint_names._buffer = names;
      m.joint_names._length = m.joint_names._maximum = 2;
      m.points._buffer = &p;
      m.points._length = m.points._maximum = 1;
      if (dds_write(trj, &m) == 0) lastTraj = now;
    }
    if (now - lastPrint < DDS_MSECS(100)) {
      dds_sleepfor(DDS_MSECS(2));
      continue;
    }
    lastPrint = now;
    /* the newest sample of each: take all, print the last valid one */
    s[0] = NULL;
    while (dds_take(pid, s, info, 1, 1) > 0) {
      const control_msgs_msg_dds__MultiDOFStateStamped_ *m = s[0];
      dds_sample_info_t peek[1];
      void *q[1] = {NULL};
      int more = dds_read(pid, q, peek, 1, 1) > 0;
      if (more) dds_return_loan(pid, q, 1);
      if (info[0].valid_data && !more && m->dof_states._length > 0) {
        const control_msgs_msg_dds__SingleDOFState_ *st = &m->dof_states._buffer[0];
        if (st->reference == 0.4 && st->feedback > 0.37 && st->feedback < 0.43) settled = 1;
        printf("{\"topic\":\"pid\",\"n\":%u,\"name\":", m->dof_states._length);
        str(st->name);
        printf(",\"reference\":%.17g,\"feedback\":%.17g,\"error\":%.17g,\"time_step\":%.17g,\"output\":%.17g}\n", st->reference,
               st->feedback, st->error, st->time_step, st->output);
      }
      dds_return_loan(pid, s, 1);
      s[0] = NULL;
    }
    while (dds_take(jtc, s, info, 1, 1) > 0) {
      const control_msgs_msg_dds__JointTrajectoryControllerState_ *m = s[0];
      dds_sample_info_t peek[1];
      void *q[1] = {NULL};
      int more = dds_read(jtc, q, peek, 1, 1) > 0;
      if (more) dds_return_loan(jtc, q, 1);
      if (info[0].valid_data) gotTraj = 1;
      if (info[0].valid_data && !more) {
        printf("{\"topic\":\"trajectory\",\"joints\":[");
        for (unsigned i = 0; i < m->joint_names._length; i++) {
          if (i) putchar(',');
          str(m->joint_names._buffer[i]);
        }
        printf("],\"ref\":");
        doubles(m->reference.positions._buffer, m->reference.positions._length);
        printf(",\"fb\":");
        doubles(m->feedback.positions._buffer, m->feedback.positions._length);
        printf(",\"err\":");
        doubles(m->error.positions._buffer, m->error.positions._length);
        printf(",\"speed\":%.17g}\n", m->speed_scaling_factor);
      }
      dds_return_loan(jtc, s, 1);
      s[0] = NULL;
    }
    while (dds_take(dyn, s, info, 1, 1) > 0) {
      const control_msgs_msg_dds__DynamicJointState_ *m = s[0];
      dds_sample_info_t peek[1];
      void *q[1] = {NULL};
      int more = dds_read(dyn, q, peek, 1, 1) > 0;
      if (more) dds_return_loan(dyn, q, 1);
      if (info[0].valid_data && !more) {
        printf("{\"topic\":\"dynamic\",\"n\":%u,\"hood\":[", m->joint_names._length);
        const control_msgs_msg_dds__InterfaceValue_ *iv = NULL;
        for (unsigned i = 0; i < m->joint_names._length && i < m->interface_values._length; i++)
          if (strcmp(m->joint_names._buffer[i], "hood_joint") == 0) iv = &m->interface_values._buffer[i];
        for (unsigned i = 0; iv && i < iv->interface_names._length; i++) {
          if (i) putchar(',');
          str(iv->interface_names._buffer[i]);
        }
        printf("],\"values\":");
        if (iv) doubles(iv->values._buffer, iv->values._length);
        else printf("[]");
        printf("}\n");
      }
      dds_return_loan(dyn, s, 1);
      s[0] = NULL;
    }
    printf("{\"sent\":%d,\"bad\":%d,\"ref_sent\":%d,\"ref_bad\":%d}\n", sent, bad, refSent, refBad);
    fflush(stdout);
  }
  dds_delete(pp);
  return 0;
}
