/* sub: `make bench`'s ROS 2 latency probe: a Cyclone DDS C subscriber of
 * /joint_states that records each sample's latency.
 *
 *   sub SKIP SECONDS
 *
 * It reads sensor_msgs::msg::dds_::JointState_ on rt/joint_states
 * (reliable, volatile, keep last 10: rmw's default profile), and from
 * SKIP seconds after its first sample, for SECONDS, records each sample's
 * latency: the host's real-time clock at the take less the header's stamp
 * (the publisher runs on the same host and clock). It then prints one
 * line, {"samples":N,"joints":J,"p50_us":..,"p99_us":..,"max_us":..}
 * (J the last sample's joints), and exits; it also exits after 60 s with
 * no sample. The domain is $ROS_DOMAIN_ID; the network setup comes from
 * $CYCLONEDDS_URI.
 */
#include <time.h>
#include "joint_states.h"

#define MAXSAMPLES 2000000

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: sub SKIP SECONDS\n");
    return 2;
  }
  double skip = atof(argv[1]), secs = atof(argv[2]);
  if (skip < 0 || secs <= 0 || secs > 3600) {
    fprintf(stderr, "sub: SKIP >= 0, SECONDS in (0, 3600]\n");
    return 2;
  }
  dds_entity_t pp, tp;
  dds_qos_t *q = js_open(&pp, &tp);
  if (q == NULL) return 1;
  dds_entity_t rd = dds_create_reader(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (rd < 0) {
    fprintf(stderr, "dds_create_reader: %s\n", dds_strretcode(-rd));
    return 1;
  }
  dds_entity_t ws = dds_create_waitset(pp);
  dds_entity_t rc = dds_create_readcondition(rd, DDS_ANY_STATE);
  dds_waitset_attach(ws, rc, 0);
  double *lat = malloc(MAXSAMPLES * sizeof(double));
  long n = 0;
  uint32_t joints = 0;
  double first = 0, last = now_s();
  void *samples[1];
  samples[0] = sensor_msgs_msg_dds__JointState___alloc();
  dds_sample_info_t info[1];
  for (;;) {
    dds_waitset_wait(ws, NULL, 0, DDS_MSECS(100));
    double t = now_s();
    if (first == 0 && t - last > 60) {
      fprintf(stderr, "sub: no sample in 60 s\n");
      return 1;
    }
    if (first > 0 && t > first + skip + secs) break;
    while (dds_take(rd, samples, info, 1, 1) > 0) {
      if (!info[0].valid_data) continue;
      t = now_s();
      const sensor_msgs_msg_dds__JointState_ *m = samples[0];
      if (first == 0) first = t;
      joints = m->name._length;
      double stamp = (double)m->header.stamp.sec + 1e-9 * (double)m->header.stamp.nanosec;
      if (t >= first + skip && t <= first + skip + secs && n < MAXSAMPLES) lat[n++] = t - stamp;
    }
  }
  if (n == 0) {
    printf("{\"samples\":0,\"joints\":%u}\n", joints);
  } else {
    qsort(lat, n, sizeof(double), cmp);
    long i99 = (long)(0.99 * (double)(n - 1) + 0.5);
    printf("{\"samples\":%ld,\"joints\":%u,\"p50_us\":%.1f,\"p99_us\":%.1f,\"max_us\":%.1f}\n", n, joints,
           1e6 * lat[(n - 1) / 2], 1e6 * lat[i99], 1e6 * lat[n - 1]);
  }
  fflush(stdout);
  dds_delete(pp);
  return 0;
}
