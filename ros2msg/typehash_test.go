package ros2msg

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// knownHashes are RIHS01 hashes as rosidl generated them for Jazzy-era
// packages (the generated C files' *__get_type_hash and *__EXPECTED_HASH
// tables, rosidl_generator_c idl__description.c.em): each computed hash
// must be the same, byte for byte.
var knownHashes = map[string]string{
	"builtin_interfaces/msg/Time":                "b106235e25a4c5ed35098aa0a61a3ee9c9b18d197f398b0e4206cea9acf9c197",
	"rosgraph_msgs/msg/Clock":                    "692f7a66e93a3c83e71765d033b60349ba68023a8c689a79e48078bcb5c58564",
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
	// control_msgs 5.x and what they hold, from a Jazzy-era build of
	// control_msgs (saahu27/aprs@4013b140 aprs_ws/install/control_msgs/
	// include/control_msgs/control_msgs/msg/detail/*__description.c: the
	// types' hashes and their *__EXPECTED_HASH of referenced types).
	"control_msgs/msg/DynamicJointState":               "18024c98a62697680f581108eeed40b28fb4542fa0ac5a8e36f56c62b6813d26",
	"control_msgs/msg/InterfaceValue":                  "74a12144ef6b7af67533195cb30f7f607d3301b66950208a72d280695f3e190c",
	"control_msgs/msg/MultiDOFStateStamped":            "08e47e3e734a7d08131b57e14e9f740782f3bf9a1aadabd2a16b54d27e551f0a",
	"control_msgs/msg/SingleDOFState":                  "fe8365f86265bddfefbd26698975a818bf024a1c267c8ce577cd366ef06d7163",
	"builtin_interfaces/msg/Duration":                  "e8d009f659816f758b75334ee1a9ca5b5c0b859843261f14c7f937349599d93b",
	"trajectory_msgs/msg/JointTrajectoryPoint":         "de8907036d8bd45aac6f30cc9044a3d4a329c42cbf719aff7d95a584cfa532d7",
	"trajectory_msgs/msg/MultiDOFJointTrajectoryPoint": "6ada1085b5ee64eaa069b074968e69f0e27c8c5e6f5bb0586dd1c834ef0e32b8",
	"geometry_msgs/msg/Transform":                      "beb83fbe698636351461f6f35d1abb20010c43d55374d81bd041f1ba2581fddc",
	"geometry_msgs/msg/Twist":                          "9c45bf16fe0983d80e3cfe750d6835843d265a9a6c46bd2e609fcddde6fb8d2a",
	"geometry_msgs/msg/Vector3":                        "cc12fe83e4c02719f1ce8070bfd14aecd40f75a96696a67a2a1f37f7dbb0765d",
	// From another generated control_msgs (rosidl_generator_c's
	// multi_dof_command__description.c, found in the code index by its
	// control_msgs__msg__MultiDOFCommand__get_type_hash).
	"control_msgs/msg/MultiDOFCommand": "033fb0fa1ffc63a872ca73c61a49ded83a22daa5cc3f074cc28949f73359e677",
}

// TestJointTrajectoryControllerStateHash: that build of control_msgs
// predates speed_scaling_factor (5.3.0): its
// JointTrajectoryControllerState hash is that of the fields before it,
// which checks the nested trajectory points' descriptions; Jazzy's hash
// is the same fields and speed_scaling_factor, so it must differ.
func TestJointTrajectoryControllerStateHash(t *testing.T) {
	const name = "control_msgs/msg/JointTrajectoryControllerState"
	old := map[string]string{}
	for k, v := range definitions {
		old[k] = v
	}
	old[name] = jtcStateFields
	j, err := hashableJSONIn(old, name)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(j)
	if got, want := hex.EncodeToString(sum[:]), "6cb9ac0858fc11b54bd6c0a46f032ea243c16856182276d8eb0875f6ce6a8335"; got != want {
		t.Errorf("before 5.3.0: %s, want %s\n%s", got, want, j)
	}
	jazzy, err := TypeHash(name)
	if err != nil || jazzy == "RIHS01_"+hex.EncodeToString(sum[:]) {
		t.Errorf("Jazzy's: %s %v: want another hash than before speed_scaling_factor", jazzy, err)
	}
	j, _ = hashableJSON(name)
	if !strings.Contains(string(j), `{"name": "speed_scaling_factor", "type": {"type_id": 11,`) {
		t.Errorf("Jazzy's description has no float64 speed_scaling_factor: %s", j)
	}
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
