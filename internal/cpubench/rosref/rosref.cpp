// rosref: the reference for the ROS share of frcd's CPU in `make bench`
// (internal/cpubench): a minimal roscpp node publishing the messages
// frcd's bridge publishes, of the same sizes, at the same rates, and
// subscribing to the same command topics. With --listen it is instead the
// subscriber both are measured against: it takes every topic of the spec.
//
// The spec (standard input), one topic a line:
//   every SECONDS               the state topics' period
//   joint_states TOPIC N        sensor_msgs/JointState, N joints
//   imu TOPIC                   sensor_msgs/Imu
//   battery TOPIC               sensor_msgs/BatteryState
//   float64s TOPIC N            std_msgs/Float64MultiArray, N values
//   bool TOPIC | float64 TOPIC  std_msgs/Bool, std_msgs/Float64
//   odometry TOPIC              nav_msgs/Odometry
//   diagnostics TOPIC N         diagnostic_msgs/DiagnosticArray, N statuses, once a second
//   command TOPIC TYPE          a subscription: bool, int8, float64, float64s or twist (geometry_msgs/Twist)
#include <ros/ros.h>
#include <diagnostic_msgs/DiagnosticArray.h>
#include <geometry_msgs/Twist.h>
#include <nav_msgs/Odometry.h>
#include <sensor_msgs/BatteryState.h>
#include <sensor_msgs/Imu.h>
#include <sensor_msgs/JointState.h>
#include <std_msgs/Bool.h>
#include <std_msgs/Float64.h>
#include <std_msgs/Float64MultiArray.h>
#include <std_msgs/Int8.h>

#include <time.h>

#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Topic {
  std::string kind, name;
  int n = 0;
  ros::Publisher pub;
};

template <class M>
void ignore(const typename M::ConstPtr &) {}

}  // namespace

int main(int argc, char **argv) {
  bool listen = argc > 1 && std::string(argv[1]) == "--listen";
  ros::init(argc, argv, listen ? "rosref_listener" : "rosref", ros::init_options::NoSigintHandler);
  ros::NodeHandle nh;
  double every = 0.01;
  std::vector<Topic> topics;
  std::vector<ros::Subscriber> subs;
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    Topic t;
    in >> t.kind >> t.name;
    if (t.kind == "every") {
      every = std::stod(t.name);
      continue;
    }
    if (t.kind == "command") {
      if (listen) continue;
      std::string type;
      in >> type;
      if (type == "bool") subs.push_back(nh.subscribe(t.name, 1, ignore<std_msgs::Bool>));
      else if (type == "int8") subs.push_back(nh.subscribe(t.name, 1, ignore<std_msgs::Int8>));
      else if (type == "float64s") subs.push_back(nh.subscribe(t.name, 1, ignore<std_msgs::Float64MultiArray>));
      else if (type == "twist") subs.push_back(nh.subscribe(t.name, 1, ignore<geometry_msgs::Twist>));
      else subs.push_back(nh.subscribe(t.name, 1, ignore<std_msgs::Float64>));
      continue;
    }
    in >> t.n;
    if (listen) {
      if (t.kind == "joint_states") subs.push_back(nh.subscribe(t.name, 10, ignore<sensor_msgs::JointState>));
      else if (t.kind == "imu") subs.push_back(nh.subscribe(t.name, 10, ignore<sensor_msgs::Imu>));
      else if (t.kind == "battery") subs.push_back(nh.subscribe(t.name, 10, ignore<sensor_msgs::BatteryState>));
      else if (t.kind == "float64s") subs.push_back(nh.subscribe(t.name, 10, ignore<std_msgs::Float64MultiArray>));
      else if (t.kind == "bool") subs.push_back(nh.subscribe(t.name, 10, ignore<std_msgs::Bool>));
      else if (t.kind == "float64") subs.push_back(nh.subscribe(t.name, 10, ignore<std_msgs::Float64>));
      else if (t.kind == "odometry") subs.push_back(nh.subscribe(t.name, 10, ignore<nav_msgs::Odometry>));
      else if (t.kind == "diagnostics") subs.push_back(nh.subscribe(t.name, 10, ignore<diagnostic_msgs::DiagnosticArray>));
      continue;
    }
    if (t.kind == "joint_states") t.pub = nh.advertise<sensor_msgs::JointState>(t.name, 10);
    else if (t.kind == "imu") t.pub = nh.advertise<sensor_msgs::Imu>(t.name, 10);
    else if (t.kind == "battery") t.pub = nh.advertise<sensor_msgs::BatteryState>(t.name, 10);
    else if (t.kind == "float64s") t.pub = nh.advertise<std_msgs::Float64MultiArray>(t.name, 10);
    else if (t.kind == "bool") t.pub = nh.advertise<std_msgs::Bool>(t.name, 10);
    else if (t.kind == "float64") t.pub = nh.advertise<std_msgs::Float64>(t.name, 10);
    else if (t.kind == "odometry") t.pub = nh.advertise<nav_msgs::Odometry>(t.name, 10);
    else if (t.kind == "diagnostics") t.pub = nh.advertise<diagnostic_msgs::DiagnosticArray>(t.name, 10);
    else {
      std::cerr << "rosref: unknown spec line: " << line << "\n";
      return 2;
    }
    topics.push_back(t);
  }
  ros::AsyncSpinner spinner(1);
  spinner.start();
  if (listen) {
    ros::waitForShutdown();
    return 0;
  }
  const long period = static_cast<long>(every * 1e9);
  const long perDiag = static_cast<long>(1e9 / period);
  timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  for (long tick = 0; ros::ok(); tick++) {
    ros::Time stamp = ros::Time::now();
    for (auto &t : topics) {
      if (t.kind == "joint_states") {
        sensor_msgs::JointState m;
        m.header.stamp = stamp;
        for (int i = 0; i < t.n; i++) {
          m.name.push_back("joint_" + std::to_string(i));
          m.position.push_back(tick * 0.001 + i);
          m.velocity.push_back(i * 0.5);
          m.effort.push_back(i * 0.25);
        }
        t.pub.publish(m);
      } else if (t.kind == "imu") {
        sensor_msgs::Imu m;
        m.header.stamp = stamp;
        m.header.frame_id = "imu";
        m.orientation.w = 1;
        t.pub.publish(m);
      } else if (t.kind == "battery") {
        sensor_msgs::BatteryState m;
        m.header.stamp = stamp;
        m.voltage = 12.5;
        m.current = 10;
        m.present = true;
        t.pub.publish(m);
      } else if (t.kind == "float64s") {
        std_msgs::Float64MultiArray m;
        m.data.assign(t.n, 1.5);
        t.pub.publish(m);
      } else if (t.kind == "bool") {
        std_msgs::Bool m;
        m.data = tick & 1;
        t.pub.publish(m);
      } else if (t.kind == "float64") {
        std_msgs::Float64 m;
        m.data = tick * 0.5;
        t.pub.publish(m);
      } else if (t.kind == "odometry") {
        nav_msgs::Odometry m;
        m.header.stamp = stamp;
        m.header.frame_id = "odom";
        m.child_frame_id = "base_link";
        m.pose.pose.orientation.w = 1;
        t.pub.publish(m);
      } else if (t.kind == "diagnostics" && tick % perDiag == 0) {
        diagnostic_msgs::DiagnosticArray m;
        m.header.stamp = stamp;
        for (int i = 0; i < t.n; i++) {
          diagnostic_msgs::DiagnosticStatus s;
          s.name = "frcd: device_" + std::to_string(i);
          s.message = "OK";
          diagnostic_msgs::KeyValue kv;
          kv.key = "errors";
          kv.value = "0";
          s.values.push_back(kv);
          m.status.push_back(s);
        }
        t.pub.publish(m);
      }
    }
    next.tv_nsec += period;
    while (next.tv_nsec >= 1000000000L) {
      next.tv_nsec -= 1000000000L;
      next.tv_sec++;
    }
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, nullptr) == EINTR) {
    }
  }
  return 0;
}
