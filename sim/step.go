package sim

import "time"

// baseIMUs gives the IMUs fixed to the base the base's motion.
func (s *Sim) baseIMUs() {
	for _, m := range s.imus {
		if m.onBase {
			m.m = s.base.imu(m.mount, m.at)
		}
	}
}

// navx gives every navX the motion its IMU feels; the navX latches a new
// sample at its own update rate.
func (s *Sim) navx() {
	for _, m := range s.imus {
		if m.nav != nil {
			m.nav.set(m.motion(), s.t)
		}
	}
}

// enabled is the FPGA's view: outputs may move.
func (s *Sim) enabled() bool { return s.ds.Enabled && s.ds.Attached && !s.ds.EStop }

// AdvanceTo integrates the physics up to now, in substeps of at most
// Options.Step, and sends the emulated devices' periodic CAN frames on
// schedule. It does nothing when now is not after the present time.
func (s *Sim) AdvanceTo(now time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.t < now {
		dt := min(s.step, now-s.t)
		s.substep(dt)
		s.t += dt
		s.advanceFaults(dt.Seconds(), s.t)
		s.advanceCANFaults(s.t)
		s.redraw()
		s.navx()
		if s.t >= s.nextStatus || s.t >= s.nextFast {
			s.publish()
		}
	}
	s.clk.advanced(s.t)
}

// publish sends the status frames when they are due.
func (s *Sim) publish() {
	if s.t >= s.nextStatus {
		for _, p := range s.pdps {
			p.publish(s, s.t)
		}
		for _, p := range s.pcms {
			p.publish(s, s.t)
		}
		for _, p := range s.pdhs {
			p.publish(s, s.t)
		}
		for s.nextStatus <= s.t {
			s.nextStatus += statusPeriod
		}
	}
	if s.t >= s.nextFast {
		for _, m := range s.motorList {
			m.publish(s, s.t, s.fastTick)
		}
		for _, m := range s.imus {
			if m.can != nil {
				m.can.publish(m, s.t, s.fastTick)
			}
		}
		for _, x := range s.senders {
			x.send(s, s.t, s.fastTick)
		}
		for s.nextFast <= s.t {
			s.nextFast += fastPeriod
			s.fastTick++
		}
	}
}

// substep integrates everything over dt.
func (s *Sim) substep(dt time.Duration) {
	h := dt.Seconds()
	now := s.t + dt
	en := s.enabled()
	s.disturbJoints()
	extra := controllerA
	for _, p := range s.pcms {
		p.update(en, now, h)
		extra += p.current()
	}
	for _, j := range s.motorJoints {
		j.duty = s.duty(j, en, now)
		if j.can != nil { // its current limits, at the last substep's terminal voltage
			j.duty = j.can.limits().limit(j, j.duty, s.vTerm, h)
		}
	}
	v := s.solveBattery(extra)
	s.vTerm = v
	s.iTotal = (s.batt.Voltage - v) / s.batt.Resistance
	for _, j := range s.joints {
		s.move(j, en, v, h)
		if j.dv != 0 || j.carried != 0 {
			p := j.pos
			j.pos += j.dv * h // a velocity disturbance carries it
			j.stops()
			j.carried = (j.pos - p) / h
		}
	}
	if s.base != nil {
		fx, fy, vx, vy := s.baseDisturbance()
		s.base.force, s.base.vel = [2]float64{fx, fy}, [2]float64{vx, vy}
		s.base.step(h)
		s.baseIMUs()
	}
	for _, j := range s.joints {
		if j.mimic != nil {
			j.pos = j.mult*j.mimic.pos + j.moff
			j.vel = j.mult * (j.mimic.vel + j.mimic.carried)
			j.stops()
		}
	}
	for _, p := range s.pdps {
		p.energy += v * s.iTotal * h
	}
}

// duty is the signed duty a motor joint's controller applies, in the
// plant's direction; 0 is neutral (the motor coasts, or brakes on a CAN
// controller in brake or a PWM one with its jumper on brake).
func (s *Sim) duty(j *joint, en bool, now time.Duration) float64 {
	var d float64
	switch j.kind {
	case kindPWMMotor:
		if en { // the FPGA sends no pulses while disabled
			d = j.cal.Duty(s.pwm[j.pwm].width)
		}
	case kindNidec:
		if p := &s.dio[j.dio]; en && s.pwm[j.pwm].width > 0 && p.dutySet {
			d = max(-1, min(1, (p.duty-0.5)*2))
		}
	case kindCANMotor:
		d = j.can.effective(en, now)
	}
	return d * j.sign
}

// solveBattery finds the terminal voltage with every motor's supply
// current at that voltage and extra amps of other loads. A controller at
// duty d passes d × its motor's current from the battery (negative when
// the motor drives current back), and its motor's current at terminal
// voltage V is (d V - back-EMF) / R: linear in V, so V is solved exactly,
// with the back-EMF at the present velocity.
func (s *Sim) solveBattery(extra float64) float64 {
	voc, rb := s.batt.Voltage, s.batt.Resistance
	num, den := voc-rb*extra, 1.0
	for _, j := range s.motorJoints {
		d := j.duty
		if d == 0 {
			continue
		}
		k := j.motors * d / j.motor.r
		num += rb * k * j.backEMF()
		den += rb * k * d
	}
	return max(0, num/den)
}

// move advances one joint's plant by h seconds.
func (s *Sim) move(j *joint, en bool, v, h float64) {
	switch j.kind {
	case kindPassive:
		if j.mimic == nil {
			j.stepMotor(0, true, h)
		}
	case kindPWMMotor, kindNidec, kindCANMotor:
		// At zero output a controller in brake (a CAN controller's
		// neutral mode, a PWM controller's jumper) shorts the windings: no
		// voltage, the back-EMF braking; otherwise the motor coasts.
		brake := j.jumper || j.can != nil && j.can.limits().brake
		j.stepMotor(j.duty*v, j.duty == 0 && !brake, h)
	case kindSolenoid:
		on := j.pcm.out&(1<<uint(j.ch&15)) != 0
		if on && j.state != 1 {
			j.pcm.stroke()
		}
		j.state = -1
		if on {
			j.state = 1
			if j.pcm.pressure < minStrokePSI {
				j.hold()
				return
			}
			j.moveToward(j.upper, h)
			return
		}
		j.moveToward(j.lower, h) // the spring returns it
	case kindDouble:
		f := j.pcm.out&(1<<uint(j.ch&15)) != 0
		r := j.pcm.out&(1<<uint(j.rev&15)) != 0
		dir := j.state // both off or both on: the valve stays
		switch {
		case f && !r:
			dir = 1
		case r && !f:
			dir = -1
		}
		if dir != j.state {
			j.pcm.stroke()
			j.state = dir
		}
		switch {
		case dir == 0 || j.pcm.pressure < minStrokePSI:
			j.hold()
		case dir > 0:
			j.moveToward(j.upper, h)
		default:
			j.moveToward(j.lower, h)
		}
	case kindRelay:
		p := &s.relay[j.ch]
		switch {
		case !en || p.fwd == p.rev: // the FPGA opens relays while disabled
			j.hold()
		case p.fwd:
			j.moveToward(j.upper, h)
		default:
			j.moveToward(j.lower, h)
		}
	case kindDOut:
		p := &s.dio[j.dio]
		switch {
		case p.use != dioOut:
			j.hold()
		case p.level != j.inv:
			j.moveToward(j.upper, h)
		default:
			j.moveToward(j.lower, h)
		}
	case kindAOut:
		p := &s.ao[j.ch]
		if !p.open {
			j.hold()
			return
		}
		target := p.volts/5*j.scale + j.offset
		if j.bounded {
			target = max(j.lower, min(j.upper, target))
		}
		j.moveToward(target, h)
	case kindServo:
		w := s.pwm[j.pwm].width
		if !en || w <= 0 {
			j.hold() // no pulses: the servo stays where it is
			return
		}
		w = max(j.minPulse, min(j.maxPulse, w))
		j.moveToward(j.minAngle+float64(w-j.minPulse)/float64(j.maxPulse-j.minPulse)*(j.maxAngle-j.minAngle), h)
	}
}
