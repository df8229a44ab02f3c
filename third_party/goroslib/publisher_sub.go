package goroslib

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/prototcp"
)

const (
	// writeBufferSize is the queue of a UDP subscriber's goroutine.
	writeBufferSize = 64
)

type publisherSubscriber struct {
	pub      *Publisher
	callerID string
	tcpNConn net.Conn
	tcpTConn *prototcp.Conn
	udpAddr  *net.UDPAddr
	tcpW     *tcpSubWriter // the TCP subscriber's writer

	ctx       context.Context
	ctxCancel func()

	// in (UDP): encoded messages, each a copy
	chWriteMessage chan []byte
}

func newPublisherSubscriber(
	pub *Publisher,
	callerID string,
	tcpNConn net.Conn,
	tcpTConn *prototcp.Conn,
	udpAddr *net.UDPAddr,
) *publisherSubscriber {
	ctx, ctxCancel := context.WithCancel(pub.ctx)

	ps := &publisherSubscriber{
		pub:       pub,
		callerID:  callerID,
		tcpNConn:  tcpNConn,
		tcpTConn:  tcpTConn,
		udpAddr:   udpAddr,
		ctx:       ctx,
		ctxCancel: ctxCancel,
	}
	if tcpNConn != nil {
		ps.tcpW = newTCPSubWriter(tcpNConn, pub.conf.Node.conf.WriteTimeout, tcpSubQueue)
	} else {
		ps.chWriteMessage = make(chan []byte, writeBufferSize)
	}

	pub.subscribersWg.Add(1)
	go ps.run()

	return ps
}

func (ps *publisherSubscriber) subscriberLabel() string {
	if ps.tcpNConn != nil {
		return "'" + ps.tcpNConn.RemoteAddr().String() + "' (TCP)"
	}
	return "'" + ps.udpAddr.String() + "' (UDP)"
}

func (ps *publisherSubscriber) run() {
	defer ps.pub.subscribersWg.Done()

	ps.pub.conf.Node.Log(LogLevelDebug,
		"publisher '%s' got a new subscriber %s",
		ps.pub.conf.Node.absoluteTopicName(ps.pub.conf.Topic),
		ps.subscriberLabel())

	if ps.pub.conf.onSubscriber != nil {
		ps.pub.conf.onSubscriber()
	}

	var err error
	if ps.tcpNConn != nil {
		err = ps.runTCP()
	} else {
		err = ps.runUDP()
	}

	ps.ctxCancel()

	select {
	case ps.pub.subscriberClose <- ps:
	case <-ps.pub.ctx.Done():
	}

	ps.pub.conf.Node.Log(LogLevelDebug,
		"publisher '%s' lost subscriber %s: %s",
		ps.pub.conf.Node.absoluteTopicName(ps.pub.conf.Topic),
		ps.subscriberLabel(),
		err)
}

func (ps *publisherSubscriber) runTCP() error {
	ps.tcpNConn.SetReadDeadline(time.Time{})

	readerErr := make(chan error)

	go func() {
		readerErr <- ps.runTCPReader()
	}()

	writerErr := make(chan error)

	go func() {
		writerErr <- ps.tcpW.run()
	}()

	select {
	case err := <-readerErr:
		ps.tcpW.close()
		<-writerErr
		return err

	case err := <-writerErr:
		ps.tcpW.close()
		<-readerErr
		return err

	case <-ps.ctx.Done():
		ps.tcpW.close()
		<-readerErr
		<-writerErr
		return fmt.Errorf("terminated")
	}
}

func (ps *publisherSubscriber) runTCPReader() error {
	buf := make([]byte, 64)
	for {
		_, err := ps.tcpNConn.Read(buf)
		if err != nil {
			return err
		}
	}
}

func (ps *publisherSubscriber) runUDP() error {
	curMessageID := uint8(0)

	for {
		select {
		case msg := <-ps.chWriteMessage:
			curMessageID++

			err := ps.pub.conf.Node.udprosConn.WriteEncoded(
				ps.pub.id,
				curMessageID,
				msg,
				ps.udpAddr)
			if err != nil {
				return err
			}

		case <-ps.ctx.Done():
			return fmt.Errorf("terminated")
		}
	}
}

func (ps *publisherSubscriber) busInfo() []interface{} {
	proto := func() string {
		if ps.tcpNConn != nil {
			return "TCPROS"
		}
		return "UDPROS"
	}()

	return []interface{}{
		0,
		ps.callerID,
		"o",
		proto,
		ps.pub.conf.Node.absoluteTopicName(ps.pub.conf.Topic),
		true,
	}
}

// writeMessage queues a copy of the encoded message raw for a UDP
// subscriber.
func (ps *publisherSubscriber) writeMessage(raw []byte) {
	select {
	case ps.chWriteMessage <- append([]byte(nil), raw...):
	case <-ps.ctx.Done():
	default: // buffer is full
	}
}
