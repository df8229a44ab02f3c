package sim

// VoltsPerSpeed is the voltage that turns a motor-driven joint's plant at
// 1 rad/s (or 1 m/s) with no load: its motors' back-EMF through the
// gearing, gearing / kv (the package doc), V per joint unit/s. It is the
// velocity feedforward (a drive base's wheel_pid.f) that fits the joint
// as the sim models it, before friction and the base's mass. false for a
// joint no speed controller drives.
func (s *Sim) VoltsPerSpeed(name string) (float64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.byName[name]
	if j == nil || j.motors == 0 || !(j.motor.kv > 0) {
		return 0, false
	}
	return j.gear / j.motor.kv, true
}
