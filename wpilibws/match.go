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

// GameData is the game-specific message a client last sent
// (">game_data"), for /FMSInfo/GameSpecificMessage. Safe from any
// goroutine.
func (s *Server) GameData() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ds.gameData
}

// MatchSeq counts the changes of the station and the game data, so that
// a reader polling the match seldom (once a second) reads it again at
// once when a client changed it. Safe from any goroutine, without a lock.
func (s *Server) MatchSeq() uint64 { return s.matchSeq.Load() }
