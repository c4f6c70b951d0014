package io.signalman.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How {@code GET /v1/cluster} names the cluster's revision and flags the members that differ. */
class ClusterViewTest {

    private static ObjectNode member(String id, String revision, boolean self) {
        return Json.object().put("node_id", id).put("rules_revision", revision).put("self", self).put("reachable", true);
    }

    private static ObjectNode unreachable(String id) {
        return Json.object().put("node_id", id).put("self", false).put("reachable", false).put("error", "timeout");
    }

    private static boolean flagged(JsonNode view, String id) {
        for (JsonNode m : view.path("members")) {
            if (m.path("node_id").asText().equals(id)) {
                return m.path("revision_differs").asBoolean();
            }
        }
        throw new AssertionError("no member " + id + " in " + view);
    }

    @Test
    void theRevisionMostMembersServeIsTheClustersAndTheOtherIsFlagged() {
        ObjectNode me = member("a", "sha256:old", true);
        JsonNode view = ClusterView.summary(true, true, List.of(me, member("b", "sha256:new", false), member("c", "sha256:old", false)), me);
        assertEquals("sha256:old", view.path("rules_revision").asText());
        assertFalse(flagged(view, "a"));
        assertTrue(flagged(view, "b"));
        assertFalse(flagged(view, "c"));
        assertFalse(view.path("consistent").asBoolean());
        assertEquals(2, view.path("revisions").path("sha256:old").asInt());
        assertEquals(1, view.path("revisions").path("sha256:new").asInt());
    }

    @Test
    void aMemberInTheMinorityIsFlaggedEvenWhenItIsTheOneAsked() {
        ObjectNode me = member("b", "sha256:new", true);
        JsonNode view = ClusterView.summary(true, true, List.of(member("a", "sha256:old", false), me, member("c", "sha256:old", false)), me);
        assertEquals("sha256:old", view.path("rules_revision").asText());
        assertTrue(flagged(view, "b"));
    }

    @Test
    void onATieTheAskedNodesRevisionIsTheReference() {
        ObjectNode me = member("b", "sha256:new", true);
        JsonNode view = ClusterView.summary(true, true, List.of(member("a", "sha256:old", false), me), me);
        assertEquals("sha256:new", view.path("rules_revision").asText());
        assertTrue(flagged(view, "a"));
        assertFalse(flagged(view, "b"));
    }

    @Test
    void anUnreachableMemberMakesTheClusterInconsistentWithoutCountingAsARevision() {
        ObjectNode me = member("a", "sha256:x", true);
        JsonNode view = ClusterView.summary(true, false, List.of(me, unreachable("b")), me);
        assertFalse(view.path("consistent").asBoolean());
        assertFalse(flagged(view, "b"), "unreachable, not differing: its revision is unknown");
        assertEquals(1, view.path("revisions").size());
        assertFalse(view.path("safe").asBoolean());
    }

    @Test
    void agreeingMembersAreConsistent() {
        ObjectNode me = member("a", "sha256:x", true);
        JsonNode view = ClusterView.summary(true, true, List.of(me, member("b", "sha256:x", false)), me);
        assertTrue(view.path("consistent").asBoolean());
        assertEquals("a", view.path("node_id").asText());
    }
}
