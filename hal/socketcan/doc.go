// Package socketcan is the CAN bus of a Linux machine with a SocketCAN
// interface (a USB-CAN adapter's can0, or vcan0): hal.CANBus and
// hal.CANMonitor per bus, several buses by name.
//
// # Use
//
//	buses, err := socketcan.Open([]string{"can0", "can1"}, clock, socketcan.Options{})
//	// err names every interface's problem and its fix: missing, not CAN,
//	// down (with the `ip link set can0 up type can bitrate 1000000` to
//	// run), no SocketCAN in the kernel, permission denied.
//	bus, _ := buses.Bus("")      // the default bus, the first named
//	bus.Send(f)                  // from the control loop: never blocks, never allocates
//	f, at, ok := bus.Latest(id)  // from the control loop: the newest frame of that id
//	bus.Stats()                  // for /diagnostics, any goroutine, about once a second
//	bus.Errors(); bus.Err()      // the error frames' details; why the reader stopped, if it did
//	bus.Heard(nil)               // for the inventory
//	buses.Close()                // on shutdown: returns once every reader has exited
//
// Opened with Options.FD (on interfaces with the CAN FD MTU, 72), a bus
// also sends and receives CAN FD frames of up to 64 bytes: SendFD and
// LatestFD (fd.go), beside the classic frames' Send and Latest.
//
// The clock stamps received frames; it must be the loop's clock (the
// Latest times are compared with its now) and safe to call from the
// reader goroutines.
//
// # Receiving
//
// One reader goroutine per bus reads struct can_frame from the socket and
// keeps the newest frame of every 29-bit id in a table (Latest), with its
// count and time (Heard). A new id may allocate (the table holds 256
// before it first grows, and at most Options.MaxIDs); a frame of a known
// id allocates nothing. Remote requests and 11-bit frames are counted but
// not kept. The bus does not receive the frames it sends itself
// (CAN_RAW_RECV_OWN_MSGS off), so a heartbeat in Latest is another
// sender's.
//
// Stats counts frames both ways, error frames, bus-off events, failed
// sends and dropped frames (the kernel's SO_RXQ_OVFL count of frames lost
// on a full receive queue, controller RX overflows and frames of ids past
// MaxIDs), and the load: the bit times (hal.FrameBits at hal.CANBitRate)
// of the frames received and sent over the last whole second, in 100 ms
// buckets. Errors decodes the error frames the controller's driver
// reports (linux/can/error.h; Open asks for every class with
// CAN_RAW_ERR_FILTER): the error state (active, warning, passive,
// bus-off), restarts, arbitration, protocol, ACK and transceiver errors,
// and the controller's error counters where the driver gives them.
//
// # Shutdown
//
// go-daq/canbus's Recv has no deadline, and on Linux nothing that Close
// could do to the socket wakes a read blocked on it: close(2) from
// another thread leaves the read blocked (the read holds its own
// reference to the socket, close(2) NOTES) and the descriptor number
// free for reuse while the read may still complete into it; shutdown(2)
// on a CAN_RAW socket fails with EOPNOTSUPP (net/can/raw.c has no
// shutdown). So the socket has a receive timeout (SO_RCVTIMEO,
// Options.RecvTimeout, 50 ms): a reader on a quiet bus wakes with EAGAIN
// that often, sees that the bus is closing and returns; Close waits for
// it and only then closes the descriptor. Close thus takes at most
// RecvTimeout.
//
// # What go-daq/canbus does here
//
// canbus (v0.2.0) makes the socket (AF_CAN, SOCK_RAW, CAN_RAW), binds it
// to the interface and closes it. Its Recv allocates a data slice per
// frame, cannot time out and cannot read the kernel's drop count; its
// Send writes blocking, so a full transmit queue could stall the control
// loop; it has no way to ask for error frames. Its descriptor being
// unexported, the package reads it by reflection (TestSocketFD guards
// that) and sets CAN_RAW_ERR_FILTER, SO_RCVTIMEO and SO_RXQ_OVFL on it
// with golang.org/x/sys/unix, receives with recvmsg into buffers
// allocated once and sends with MSG_DONTWAIT.
//
// # Testing
//
// Everything above the socket (reader, table, counters, load, error
// frames, shutdown, Heard) runs in the tests over a fake socket (the conn
// interface). The descriptor code runs against UDP sockets, which take
// the same receive timeout and drop counter. The CAN socket calls run on
// a real kernel in TestOnKernel, which boots Debian's kernel under qemu
// (internal/qemutest) and runs TestKernelSocket there on vcan0: Open's
// diagnoses, frames between two sockets, 11-bit and remote frames from
// cansend, the interface going down and up, Close. Error frames and
// bus-off need a CAN controller (vcan has none): deploy/can.md is the
// on-hardware check.
package socketcan
