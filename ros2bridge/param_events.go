package ros2bridge

import (
	"sort"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/rtps"
)

// /parameter_events, as rclcpp publishes a node's: one
// rcl_interfaces/msg/ParameterEvent {builtin_interfaces/Time stamp;
// string node; Parameter[] new_parameters; Parameter[]
// changed_parameters; Parameter[] deleted_parameters} (ros2/rcl_interfaces
// jazzy 003987ec msg/ParameterEvent.msg, Parameter.msg) when the node
// comes up, with every parameter as new (rclcpp's declare_parameter
// does the same), then one for each accepted set with what it changed.
// node is the node's fully qualified name. QoS rmw_qos_profile_parameter_events:
// reliable, volatile, keep last 1000 (ros2/rmw rmw/include/rmw/qos_profiles.h).
// A gain changed another way (ROS 1's parameter server, NT4) raises no
// event here.

// ParameterEventsTopic is the topic every ROS 2 node publishes its
// parameter changes on.
const ParameterEventsTopic = "/parameter_events"

var paramEventsQoS = rtps.QoS{Reliability: rtps.Reliable, Durability: rtps.Volatile, History: rtps.KeepLast, Depth: 1000}

// namedValue is an rcl_interfaces/msg/Parameter.
type namedValue struct {
	name string
	v    paramValue
}

// parameterEvent is an rcl_interfaces/msg/ParameterEvent.
type parameterEvent struct {
	stamp                   ros2msg.Time
	node                    string
	added, changed, deleted []namedValue
}

// TypeName implements ros2msg.Message.
func (*parameterEvent) TypeName() string { return "rcl_interfaces::msg::dds_::ParameterEvent_" }

// MarshalCDR implements ros2msg.Message.
func (m *parameterEvent) MarshalCDR(e *cdr.Encoder) {
	m.stamp.MarshalCDR(e)
	e.String(m.node)
	for _, list := range [][]namedValue{m.added, m.changed, m.deleted} {
		e.SeqLen(len(list))
		for i := range list {
			e.String(list[i].name)
			list[i].v.marshal(e)
		}
	}
}

// UnmarshalCDR implements ros2msg.Message (for tests and peers).
func (m *parameterEvent) UnmarshalCDR(d *cdr.Decoder) {
	m.stamp.UnmarshalCDR(d)
	m.node = d.String()
	for _, list := range []*[]namedValue{&m.added, &m.changed, &m.deleted} {
		n := d.SeqLen(5 + 1 + 8*3 + 5*4) // a Parameter takes at least this
		*list = make([]namedValue, n)
		for i := 0; i < n && d.Err() == nil; i++ {
			(*list)[i].name = d.String()
			(*list)[i].v.unmarshal(d)
		}
	}
}

// setupParamEvents creates /parameter_events (the first time: one writer
// on frcd's node carries every node's events, each naming its node) and
// announces every parameter of the node fqn as new.
func (b *Bridge) setupParamEvents(fqn string, ps map[string]*param) error {
	if b.paramEvents == nil {
		p, err := b.node.Publisher(ParameterEventsTopic, &parameterEvent{}, paramEventsQoS)
		if err != nil {
			return err
		}
		b.paramEvents = p
	}
	names := make([]string, 0, len(ps))
	for n := range ps {
		names = append(names, n)
	}
	sort.Strings(names)
	ev := b.paramEvent(fqn)
	for _, n := range names {
		ev.added = append(ev.added, namedValue{n, ps[n].get()})
	}
	return b.paramEvents.Publish(ev)
}

// paramEvent is an empty event stamped now, from the node fqn.
func (b *Bridge) paramEvent(fqn string) *parameterEvent {
	return &parameterEvent{stamp: ros2msg.TimeOf(b.o.Epoch.Add(b.o.Clock())), node: fqn}
}

// paramsChanged publishes the new values of the parameters names of the
// node fqn, just set, with the read-only ones following them; nothing
// before the services are up (the command line's -p).
func (b *Bridge) paramsChanged(fqn string, ps map[string]*param, names ...string) {
	if b.paramEvents == nil || len(names) == 0 {
		return
	}
	ev := b.paramEvent(fqn)
	for _, n := range names {
		ev.changed = append(ev.changed, namedValue{n, ps[n].get()})
		for _, f := range ps {
			if f.follows == n {
				ev.changed = append(ev.changed, namedValue{f.name, f.get()})
			}
		}
	}
	b.countErr(b.paramEvents.Publish(ev))
}
