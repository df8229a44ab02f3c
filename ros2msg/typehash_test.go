package ros2msg

import (
	"testing"
)

// knownHashes are RIHS01 hashes as rosidl generated them for Jazzy-era
// packages (the generated C files' *__get_type_hash and *__EXPECTED_HASH
// tables, rosidl_generator_c idl__description.c.em): each computed hash
// must be the same, byte for byte.
var knownHashes = map[string]string{
	"builtin_interfaces/msg/Time":                "b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197",
	"std_msgs/msg/Header":                        "f49fb3ae2cf070f793645ff749683ac6b06203e41c891e17701b1cb597ce6a01",
	"std_msgs/msg/String":                        "df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18",
	"std_msgs/msg/Bool":                          "feb91e995ff9ebd09c0cb3d2aed18b11077585839fb5db80193b62d74528f6c9",
	"std_msgs/msg/MultiArrayLayout":              "4c66e6f78e740ac103a94cf63259f968e48c617e7699e829b63c21a5cb50dac6",
	"sensor_msgs/msg/JointState":                 "a13ee3a330e346c9d87b5aa18d24e11690752bd33a0350f11c5882bc9179260e",
	"sensor_msgs/msg/Imu":                        "7d9a00ff131080897a5ec7e26e315954b8eae3353c3f995c55faf71574000b5b",
	"sensor_msgs/msg/BatteryState":               "4bee5dfce981c98faa6828b868307a0a73f992ed0789f374ee96c8f840e69741",
	"geometry_msgs/msg/Point":                    "6963084842a9b04494d6b2941d11444708d892da2f4b09843b9c43f42a7f6881",
	"geometry_msgs/msg/Quaternion":               "8a765f66778c8ff7c8ab94afcc590a2ed5325a1d9a076ffff38fbce36f458684",
	"tf2_msgs/msg/TFMessage":                     "e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087",
	"control_msgs/msg/JointControllerState":      "1f6ee64b3b1f1947951f34694f8e19a10ea32f34fe3552df26514f8b30976e90",
	"rcl_interfaces/msg/Log":                     "e28ce254ca8abc06abf92773b74602cdbf116ed34fbaf294fb9f81da9f318eac",
	"std_msgs/msg/Float64":                       "705ba9c3d1a09df43737eb67095534de36fd426c0587779bda2bc51fe790182a",
	"std_msgs/msg/Float64MultiArray":             "1025ddc6b9552d191f89ef1a8d2f60f3d373e28b283d8891ddcc974e8c55397f",
	"sensor_msgs/msg/Joy":                        "0d356c79cad3401e35ffeb75a96a96e08be3ef896b8b83841d73e890989372c5",
	"nav_msgs/msg/Odometry":                      "3cc97dc7fb7502f8714462c526d369e35b603cfc34d946e3f2eda2766dfec6e0",
	"diagnostic_msgs/msg/DiagnosticArray":        "5a8a36efb05fb25070fa0fb3810290c0e6cd4862b54a8fb975a1ee8dc55a333e",
	"std_srvs/srv/SetBool_Request":               "c62fbb99d94e1b25e8ef9e109f9581956bb1b3361a45a4e5810c36a90d29932e",
	"std_srvs/srv/SetBool_Response":              "d0814e7f7b4880ab77e9c57426c7aa1562ab69f11eef8e2e968812f9cbd0b059",
	"rmw_dds_common/msg/Gid":                     "ab6f21cfbb0a6dbb837161e1110c2051a2850ed9f9c53944d7115d9bcebedf71",
	"rmw_dds_common/msg/NodeEntitiesInfo":        "8ffef65ee2d088c63b1e8fcd31e800ba9fc8dbe0ee15ca60d1676de5218087a7",
	"rmw_dds_common/msg/ParticipantEntitiesInfo": "91a0593bacdcc50ea9bdcf849a938b128412cc1ea821245c663bcd26f83c295e",
}

func TestTypeHashes(t *testing.T) {
	for name, want := range knownHashes {
		got, err := TypeHash(name)
		if err != nil || got != "RIHS01_"+want {
			j, _ := hashableJSON(name)
			t.Errorf("%s: %s %v, want RIHS01_%s\n%s", name, got, err, want, j)
		}
	}
}
