// topics: a Fast DDS reader of frcd's newest ROS 2 topics and writer of
// sim/push, the twin of ../cyclone/topics.c (same arguments, same output,
// with "typehash" always empty: Fast DDS 2.9.1 does not give a matched
// writer's USER_DATA to a DataReader):
//
//   topics KIND=TOPIC...
//
// Readers reliable, volatile, keep last 10 (rmw's default); types by
// fastddsgen from Topics.idl. Each line on stdin, NAME POS [NAME POS...],
// is written on rt/sim/push as a sensor_msgs JointState, then
// {"pushed":N} printed; it runs until stdin ends. Discovery is by unicast
// on 127.0.0.1 only (internal/ddstest/unicast.hpp).
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>

#include "unicast.hpp"
#include "TopicsPubSubTypes.h"

using namespace eprosima::fastdds::dds;
namespace sm = sensor_msgs::msg::dds_;
namespace st = std_msgs::msg::dds_;

static std::string clean(const std::string &s) {
  std::string out = s.substr(0, 200);
  for (char &c : out)
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 32) c = '\'';
  return "\"" + out + "\"";
}

static std::string num(double v) {
  if (!std::isfinite(v)) return "null";
  char b[64];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

template <typename T> static std::string nums(const T &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); i++) s += (i ? "," : "") + num(v[i]);
  return s + "]";
}

// A topic: its reader and how it prints a sample (false: none taken).
struct Reading {
  std::string name;
  DataReader *rd;
  std::function<bool(DataReader *, std::string &)> take;
  bool seen = false;
};

template <typename T> static std::function<bool(DataReader *, std::string &)> taker(std::function<std::string(const T &)> print) {
  return [print](DataReader *rd, std::string &out) {
    T m;
    SampleInfo info;
    if (rd->take_next_sample(&m, &info) != ReturnCode_t::RETCODE_OK) return false;
    out = info.valid_data ? print(m) : "";
    return true;
  };
}

static std::string tf(const tf2_msgs::msg::dds_::TFMessage_ &m) {
  std::string s = ",\"tf\":[";
  for (size_t i = 0; i < m.transforms().size(); i++) {
    const auto &t = m.transforms()[i];
    const auto &v = t.transform().translation();
    const auto &q = t.transform().rotation();
    s += (i ? ",{\"parent\":" : "{\"parent\":") + clean(t.header().frame_id()) + ",\"child\":" + clean(t.child_frame_id()) + ",\"t\":" +
         nums(std::vector<double>{v.x(), v.y(), v.z()}) + ",\"q\":" + nums(std::vector<double>{q.x(), q.y(), q.z(), q.w()}) + "}";
  }
  return s + "]";
}

int main(int argc, char **argv) {
  DomainParticipant *pp = ddstest_participant("fastdds_topics");
  Subscriber *sub = pp->create_subscriber(SUBSCRIBER_QOS_DEFAULT);
  DataReaderQos rq = DATAREADER_QOS_DEFAULT;
  rq.reliability().kind = RELIABLE_RELIABILITY_QOS;
  rq.durability().kind = VOLATILE_DURABILITY_QOS;
  rq.history().kind = KEEP_LAST_HISTORY_QOS;
  rq.history().depth = 10;
  // Samples of any size (the generated types' bounds are only estimates).
  rq.endpoint().history_memory_policy = eprosima::fastrtps::rtps::DYNAMIC_REUSABLE_MEMORY_MODE;
  auto topic = [&](TopicDataType *t, const std::string &name) {
    TypeSupport type(t);
    type.register_type(pp);
    Topic *tp = pp->create_topic(name, type.get_type_name(), TOPIC_QOS_DEFAULT);
    if (tp == nullptr) {
      std::fprintf(stderr, "create_topic %s failed\n", name.c_str());
      std::exit(1);
    }
    return tp;
  };
  std::vector<Reading> topics;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    size_t eq = a.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "not KIND=TOPIC: %s\n", argv[i]);
      return 2;
    }
    std::string kind = a.substr(0, eq), name = a.substr(eq + 1);
    TopicDataType *t = nullptr;
    std::function<bool(DataReader *, std::string &)> take;
    if (kind == "bool") {
      t = new st::Bool_PubSubType();
      take = taker<st::Bool_>([](const st::Bool_ &m) { return std::string(",\"b\":") + (m.data() ? "true" : "false"); });
    } else if (kind == "string") {
      t = new st::String_PubSubType();
      take = taker<st::String_>([](const st::String_ &m) { return ",\"s\":" + clean(m.data()); });
    } else if (kind == "int8") {
      t = new st::Int8_PubSubType();
      take = taker<st::Int8_>([](const st::Int8_ &m) { return ",\"i\":" + std::to_string(static_cast<int8_t>(m.data())); });
    } else if (kind == "float64") {
      t = new st::Float64_PubSubType();
      take = taker<st::Float64_>([](const st::Float64_ &m) { return ",\"f\":" + num(m.data()); });
    } else if (kind == "joy") {
      t = new sm::Joy_PubSubType();
      take = taker<sm::Joy_>([](const sm::Joy_ &m) {
        std::string s = ",\"axes\":" + nums(m.axes()) + ",\"buttons\":[";
        for (size_t i = 0; i < m.buttons().size(); i++) s += (i ? "," : "") + std::to_string(m.buttons()[i]);
        return s + "],\"sec\":" + std::to_string(m.header().stamp().sec());
      });
    } else if (kind == "joint_state") {
      t = new sm::JointState_PubSubType();
      take = taker<sm::JointState_>([](const sm::JointState_ &m) {
        std::string s = ",\"names\":[";
        for (size_t i = 0; i < m.name().size(); i++) s += (i ? "," : "") + clean(m.name()[i]);
        return s + "],\"pos\":" + nums(m.position()) + ",\"vel\":" + nums(m.velocity()) + ",\"sec\":" + std::to_string(m.header().stamp().sec());
      });
    } else if (kind == "odometry") {
      t = new nav_msgs::msg::dds_::Odometry_PubSubType();
      take = taker<nav_msgs::msg::dds_::Odometry_>([](const nav_msgs::msg::dds_::Odometry_ &m) {
        const auto &p = m.pose().pose().position();
        const auto &q = m.pose().pose().orientation();
        return ",\"frame\":" + clean(m.header().frame_id()) + ",\"child\":" + clean(m.child_frame_id()) +
               ",\"p\":" + nums(std::vector<double>{p.x(), p.y(), p.z()}) + ",\"q\":" + nums(std::vector<double>{q.x(), q.y(), q.z(), q.w()});
      });
    } else if (kind == "tf") {
      t = new tf2_msgs::msg::dds_::TFMessage_PubSubType();
      take = taker<tf2_msgs::msg::dds_::TFMessage_>(tf);
    } else {
      std::fprintf(stderr, "unknown kind %s\n", kind.c_str());
      return 2;
    }
    DataReader *rd = sub->create_datareader(topic(t, name), rq);
    if (rd == nullptr) {
      std::fprintf(stderr, "create_datareader %s failed\n", name.c_str());
      return 1;
    }
    topics.push_back(Reading{name, rd, take});
  }
  Publisher *pub = pp->create_publisher(PUBLISHER_QOS_DEFAULT);
  DataWriterQos wq = DATAWRITER_QOS_DEFAULT;
  wq.reliability().kind = RELIABLE_RELIABILITY_QOS;
  wq.history().kind = KEEP_LAST_HISTORY_QOS;
  wq.history().depth = 10;
  DataWriter *wr = pub->create_datawriter(topic(new sm::JointState_PubSubType(), "rt/sim/push"), wq);
  if (wr == nullptr) {
    std::fprintf(stderr, "create_datawriter failed\n");
    return 1;
  }
  std::string in;
  for (;;) {
    bool any = false;
    for (auto &tp : topics) {
      std::string s;
      while (tp.take(tp.rd, s)) {
        any = true;
        if (!s.empty() && !tp.seen) {
          tp.seen = true;
          std::printf("{\"topic\":\"%s\",\"typehash\":\"\"%s}\n", tp.name.c_str(), s.c_str());
        }
      }
    }
    pollfd pf{0, POLLIN, 0};
    if (poll(&pf, 1, 0) > 0) {
      char buf[4096];
      ssize_t r = read(0, buf, sizeof buf);
      if (r <= 0) break;  // stdin ended
      in.append(buf, static_cast<size_t>(r));
      size_t nl;
      while ((nl = in.find('\n')) != std::string::npos) {
        std::istringstream line(in.substr(0, nl));
        in.erase(0, nl + 1);
        sm::JointState_ m;
        std::string name;
        double pos;
        while (line >> name >> pos) {
          m.name().push_back(name);
          m.position().push_back(pos);
        }
        wr->write(&m);
        std::printf("{\"pushed\":%zu}\n", m.name().size());
      }
      if (in.size() > 4096) in.clear();  // a line too long: dropped
      any = true;
    }
    std::fflush(stdout);
    if (!any) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  pp->delete_contained_entities();
  DomainParticipantFactory::get_instance()->delete_participant(pp);
  return 0;
}
