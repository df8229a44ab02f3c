// Package systemservertest is an emulated Systemcore system server for
// tests: frcd's own NT4 server, with a client standing in for
// Systemcore's services. It serves the topics WPILib's Systemcore HAL read
// from the system server before WPILib moved them to mrclib (every fact
// from docs/systemcore.md, with the WPILib commit it was read from):
//
//   - SmartIO: /io/<ch>/valget (int) for channels 0-5, which the test
//     sets; every /io/<ch>/type, valset and periodset value frcd publishes
//     is recorded as the server takes it (History, Int).
//   - The Driver Station: /Netcomm/Control/ControlData, a protobuf
//     mrc.proto.ProtobufControlData sent every 20 ms as the Driver
//     Station sends its packets, and /Netcomm/Control/MatchInfo.
//   - The IMU: /imu/quat, /imu/rawgyro (°/s), /imu/rawaccel (g),
//     double[].
//   - The battery: /sys/battery (double, V).
//   - The robot program's status: /Netcomm/Status/HasUserCode and
//     HasUserCodeReady, which frcd publishes (read them with Bool).
//
// Restart drops every connection and serves again on the same port, as a
// restarted system server would.
package systemservertest

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/tinylib/msgp/msgp"

	"github.com/frcd/frcd/nt4"
)

// The topics' NT4 types (WPILib's protobuf topics are "proto:" and the
// message's full name).
const (
	controlDataType = "proto:mrc.proto.ProtobufControlData"
	matchInfoType   = "proto:mrc.proto.ProtobufMatchInfo"
)

// Control is the Driver Station's control data the server sends.
type Control struct {
	Enabled, EStop, DSConnected, FMSConnected, Watchdog bool
	// Mode is mrc::RobotMode: 1 autonomous, 2 teleoperated, 3 test.
	Mode      uint32
	Alliance  uint32
	MatchTime int32
	GameData  string
	Sticks    []Stick
}

// Stick is one joystick of the control data.
type Stick struct {
	Axes           []int16 // raw, -32768 to 32767
	Buttons        uint64
	NumButtons     int
	POVs           []uint8 // 4-bit: up 1, right 2, down 4, left 8
	AvailAxesExtra uint32  // extra bits or'ed into AvailableAxes
}

// Match is the match info the server sends.
type Match struct {
	Event                string
	Number, Replay, Type int32
}

// Server is the emulated system server.
type Server struct {
	addr string

	mu      sync.Mutex
	srv     *nt4.Server
	sys     *nt4.Conn
	stopSrv context.CancelFunc
	served  chan error
	pub     map[string]int64
	control *Control // nil: the Driver Station sends nothing
	sent    uint64   // control messages sent
	valget  [6]int64
	battery float64
	imu     [3][]float64 // quat, gyro, accel
	match   *Match

	rec map[string][]Value // the current connection's record

	stopDS context.CancelFunc
	dsDone chan struct{}
}

// Value is one integer (or boolean: 0, 1) value a client published, and
// when the server took it.
type Value struct {
	Int int64
	At  time.Time
}

// maxHistory bounds each topic's record.
const maxHistory = 1 << 16

// Start serves on a free port of 127.0.0.1.
func Start() (*Server, error) { return StartAt("127.0.0.1:0") }

// StartAt serves on addr (host:port; port 0 picks one).
func StartAt(addr string) (*Server, error) {
	s := &Server{addr: addr, battery: 12.5,
		imu: [3][]float64{{1, 0, 0, 0}, {0, 0, 0}, {0, 0, 1}}}
	if err := s.serve(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stopDS, s.dsDone = cancel, make(chan struct{})
	go s.driverStation(ctx)
	return s, nil
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return s.addr }

// serve starts the NT4 server and the services' client, and publishes
// every topic's current value.
func (s *Server) serve() error {
	start := time.Now()
	rec := map[string][]Value{}
	record := func(topic string, v nt4.Value) error {
		val := Value{At: time.Now()}
		if b, ok := v.Bool(); ok {
			val.Int = 0
			if b {
				val.Int = 1
			}
		} else if f, ok := v.Double(); ok && !math.IsNaN(f) {
			val.Int = int64(f)
		} else {
			return nil
		}
		s.mu.Lock()
		if len(rec[topic]) < maxHistory {
			rec[topic] = append(rec[topic], val)
		}
		s.mu.Unlock()
		return nil
	}
	// Every value a client publishes passes through the server's command
	// hook as it arrives, in order: the record of what frcd set, even just
	// before it disconnects.
	srv, err := nt4.New(nt4.Options{Addr: s.addr, Clock: func() time.Duration { return time.Since(start) }, Commands: record, CommandPrefix: "/"})
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx) }()
	sys, err := nt4.Dial(context.Background(), srv.Addr().String(), "systemserver")
	if err != nil {
		cancel()
		<-served
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.srv, s.sys, s.stopSrv, s.served, s.addr, s.rec = srv, sys, cancel, served, srv.Addr().String(), rec
	s.pub = map[string]int64{}
	for ch := range s.valget {
		if err := s.setLocked("/io/"+strconv.Itoa(ch)+"/valget", "int", nt4.TypeInt, msgp.AppendInt64(nil, s.valget[ch])); err != nil {
			return err
		}
	}
	if err := s.setLocked("/sys/battery", "double", nt4.TypeDouble, msgp.AppendFloat64(nil, s.battery)); err != nil {
		return err
	}
	for i, n := range []string{"/imu/quat", "/imu/rawgyro", "/imu/rawaccel"} {
		if err := s.setLocked(n, "double[]", nt4.TypeDoubleArr, appendDoubles(s.imu[i])); err != nil {
			return err
		}
	}
	if s.match != nil {
		if err := s.setLocked("/Netcomm/Control/MatchInfo", matchInfoType, nt4.TypeRaw, msgp.AppendBytes(nil, EncodeMatchInfo(*s.match))); err != nil {
			return err
		}
	}
	return nil
}

func appendDoubles(v []float64) []byte {
	b := msgp.AppendArrayHeader(nil, uint32(len(v)))
	for _, f := range v {
		b = msgp.AppendFloat64(b, f)
	}
	return b
}

// setLocked publishes a topic the first time and sends its value.
func (s *Server) setLocked(name, typ string, id uint8, value []byte) error {
	if s.sys == nil {
		return nil // between Restart's stop and serve
	}
	p, ok := s.pub[name]
	if !ok {
		var err error
		if p, err = s.sys.Publish(name, typ); err != nil {
			return err
		}
		s.pub[name] = p
	}
	return s.sys.Set(p, 0, id, value)
}

// driverStation sends the control data every 20 ms while one is set.
func (s *Server) driverStation(ctx context.Context) {
	defer close(s.dsDone)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		s.mu.Lock()
		if s.control != nil {
			if s.setLocked("/Netcomm/Control/ControlData", controlDataType, nt4.TypeRaw, msgp.AppendBytes(nil, EncodeControlData(*s.control))) == nil {
				s.sent++
			}
		}
		s.mu.Unlock()
	}
}

// SetControl sets the control data the Driver Station sends; nil stops it
// sending (a Driver Station gone).
func (s *Server) SetControl(c *Control) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c != nil {
		cp := *c
		c = &cp
	}
	s.control = c
}

// Sent counts the control messages sent.
func (s *Server) Sent() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent
}

// SetMatch sets the match info.
func (s *Server) SetMatch(m Match) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.match = &m
	return s.setLocked("/Netcomm/Control/MatchInfo", matchInfoType, nt4.TypeRaw, msgp.AppendBytes(nil, EncodeMatchInfo(m)))
}

// SetValget sets SmartIO channel ch's valget.
func (s *Server) SetValget(ch int, v int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.valget[ch] = v
	return s.setLocked("/io/"+strconv.Itoa(ch)+"/valget", "int", nt4.TypeInt, msgp.AppendInt64(nil, v))
}

// SetBattery sets /sys/battery, V.
func (s *Server) SetBattery(v float64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.battery = v
	return s.setLocked("/sys/battery", "double", nt4.TypeDouble, msgp.AppendFloat64(nil, v))
}

// SetIMU sets the IMU's quaternion (w, x, y, z), gyro rates (°/s) and
// acceleration (g).
func (s *Server) SetIMU(quat [4]float64, gyro, accel [3]float64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.imu = [3][]float64{quat[:], gyro[:], accel[:]}
	for i, n := range []string{"/imu/quat", "/imu/rawgyro", "/imu/rawaccel"} {
		if err := s.setLocked(n, "double[]", nt4.TypeDoubleArr, appendDoubles(s.imu[i])); err != nil {
			return err
		}
	}
	return nil
}

// History is every integer (or boolean) value published on a topic
// (/io/<ch>/valset, type, periodset) since the server last started, in
// the order it took them.
func (s *Server) History(name string) []Value {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Value(nil), s.rec[name]...)
}

// Int is the latest integer value published on a topic since the server
// last started; false when none was.
func (s *Server) Int(name string) (int64, bool) {
	h := s.History(name)
	if len(h) == 0 {
		return 0, false
	}
	return h[len(h)-1].Int, true
}

// Bool is the latest boolean value frcd published on a topic
// (/Netcomm/Status/HasUserCode); false when it published none.
func (s *Server) Bool(name string) bool {
	v, ok := s.Int(name)
	return ok && v == 1
}

// Restart drops every connection and serves again on the same address,
// with the same values (the Driver Station's control data too).
func (s *Server) Restart() error {
	s.stop()
	return s.serve()
}

// Pause drops every connection and stops serving, until Resume.
func (s *Server) Pause() { s.stop() }

// Resume serves again on the same address, with the same values.
func (s *Server) Resume() error { return s.serve() }

func (s *Server) stop() {
	s.mu.Lock()
	sys, cancel, served := s.sys, s.stopSrv, s.served
	s.sys = nil
	s.mu.Unlock()
	if sys != nil {
		sys.Close()
		cancel()
		<-served
	}
}

// Close stops the server.
func (s *Server) Close() {
	s.stopDS()
	<-s.dsDone
	s.stop()
}

// EncodeControlData encodes a mrc.proto.ProtobufControlData (WPILib's
// MrcComm.proto and ControlDataProto.cpp at 6e5171cd8f^).
func EncodeControlData(c Control) []byte {
	var w uint32
	bit := func(on bool, b uint32) {
		if on {
			w |= b
		}
	}
	bit(c.Enabled, 1)
	w |= (c.Mode & 3) << 1
	bit(c.EStop, 1<<3)
	bit(c.FMSConnected, 1<<4)
	bit(c.DSConnected, 1<<5)
	bit(c.Watchdog, 1<<6)
	w |= (c.Alliance & 0xF) << 8
	var b []byte
	b = appendVarintField(b, 5, uint64(w))
	b = appendVarintField(b, 2, uint64(int64(c.MatchTime)))
	for _, st := range c.Sticks {
		b = appendBytesField(b, 3, encodeStick(st))
	}
	b = binary.AppendUvarint(b, 4<<3|1)
	b = binary.LittleEndian.AppendUint64(b, 0)
	if c.GameData != "" {
		b = appendBytesField(b, 6, []byte(c.GameData))
	}
	return b
}

func encodeStick(st Stick) []byte {
	var b []byte
	avail := uint64(0)
	if st.NumButtons > 0 {
		avail = 1<<st.NumButtons - 1
	}
	b = appendVarintField(b, 1, avail)
	b = appendVarintField(b, 2, st.Buttons)
	b = appendVarintField(b, 3, uint64(uint32(1<<len(st.Axes)-1)|st.AvailAxesExtra))
	var axes []byte
	for _, a := range st.Axes {
		axes = binary.AppendUvarint(axes, uint64(int64(a)<<1^int64(a)>>63))
	}
	b = appendBytesField(b, 4, axes)
	var povs uint32
	for i := len(st.POVs) - 1; i >= 0; i-- {
		povs = povs<<4 | uint32(st.POVs[i]&0xF)
	}
	b = appendVarintField(b, 5, uint64(len(st.POVs)))
	b = appendVarintField(b, 6, uint64(povs))
	return b
}

// EncodeMatchInfo encodes a mrc.proto.ProtobufMatchInfo.
func EncodeMatchInfo(m Match) []byte {
	var b []byte
	b = appendBytesField(b, 1, []byte(m.Event))
	b = appendVarintField(b, 2, uint64(int64(m.Number)))
	b = appendVarintField(b, 3, uint64(int64(m.Replay)))
	b = appendVarintField(b, 4, uint64(int64(m.Type)))
	return b
}

func appendVarintField(b []byte, num int, v uint64) []byte {
	b = binary.AppendUvarint(b, uint64(num)<<3)
	return binary.AppendUvarint(b, v)
}

func appendBytesField(b []byte, num int, v []byte) []byte {
	b = binary.AppendUvarint(b, uint64(num)<<3|2)
	b = binary.AppendUvarint(b, uint64(len(v)))
	return append(b, v...)
}

// String describes the server for test logs.
func (s *Server) String() string { return fmt.Sprintf("emulated system server at %s", s.Addr()) }
