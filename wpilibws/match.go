package wpilibws

// Match is what the clients last said of the match: the alliance station
// (">station": "red1".."blue3") and the match time in seconds (negative:
// none), for the ROS bridge's driver_station topics. Safe from any
// goroutine.
func (s *Server) Match() (station string, matchTime float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ds.station, s.ds.matchTime
}
