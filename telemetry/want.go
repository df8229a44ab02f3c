package telemetry

// Which topics a Source works on. A reader of every topic (the WPILOG)
// keeps them all current (KeepAll, the default); other readers say which
// they read (Want: an NT4 server, the topics its clients subscribe to the
// values of). Sample skips the work of a part (an IMU, the loop's
// statistics, the Mechanism2d, the sim's poses, the Alerts, the Driver
// Station tables) none of whose topics is wanted; a topic wanted again is
// brought up to date by the next Sample, at once, even when no cycle ran
// since (its throttled parts too: the Mechanism2d, the sim's poses, the
// match and the backend's Alerts). Cheap topics filled from the snapshot
// every cycle (joints, commands, link sensors) are always kept: a reader
// that skips them skips only their encoding.

// KeepAll says whether every topic is kept current (a reader of every
// topic, the WPILOG, is attached), or only those Want marks.
func (s *Source) KeepAll(on bool) {
	if s.keepAll == on {
		return
	}
	s.keepAll = on
	for _, t := range s.Topics {
		s.setNeed(t)
	}
}

// Want says whether a reader wants the value of topic i (an index into
// Topics).
func (s *Source) Want(i int, on bool) {
	if i < 0 || i >= len(s.Topics) {
		return
	}
	t := s.Topics[i]
	if t.wanted != on {
		t.wanted = on
		s.setNeed(t)
	}
}

func (s *Source) setNeed(t *Topic) {
	need := s.keepAll || t.wanted
	if need && !t.need {
		s.woke = true
	}
	t.need = need
}

// Needed says whether the Source keeps the topic's value current (KeepAll
// or Want).
func (t *Topic) Needed() bool { return t.need }

// anyNeeded says whether one of ts (nil ones ignored) is needed.
func anyNeeded(ts ...*Topic) bool {
	for _, t := range ts {
		if t != nil && t.need {
			return true
		}
	}
	return false
}
