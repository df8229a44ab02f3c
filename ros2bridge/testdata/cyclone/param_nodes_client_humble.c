/* param_nodes_client_humble: param_nodes_client built with Humble's graph
 * types (testdata/humble/ParticipantEntitiesInfo.idl: 24-byte gids); the
 * parameter services are the same in Humble. */
#include "param_nodes_client.c"
