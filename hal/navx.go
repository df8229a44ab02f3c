package hal

// NavXCRC is the navX-MXP SPI protocol's CRC-7 (polynomial 0x91, bits
// shifted out least significant first, starting from 0): the device driver
// checks and the sim's firmware model signs with the same one.
func NavXCRC(b []byte) byte {
	var crc byte
	for _, c := range b {
		crc ^= c
		for range 8 {
			if crc&1 != 0 {
				crc ^= 0x91
			}
			crc >>= 1
		}
	}
	return crc
}
