package io.signalman.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.TestBundles;
import io.signalman.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay --members}: the archive replayed as a Hazelcast Jet job over two
 * {@code serve --cluster} nodes on 127.0.0.1 gives the report one machine gives, with both
 * members' shares listed: the same records sampled for determinism, and {@code --determinism}
 * carried to every member.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReplayMembersTest {

    @TempDir
    Path dir;

    @Test
    void twoMembersMergeTheSameReportAsOneMachineAndListTheirShares() throws Exception {
        Path rules = TestBundles.copyOfRulesWithToolSmith(dir.resolve("candidate"));
        String archive = TestBundles.FIXTURES.toAbsolutePath().toString();
        List<String> members = List.of("127.0.0.1:" + TestBundles.freePort(), "127.0.0.1:" + TestBundles.freePort());
        List<ServeProcess> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < members.size(); i++) {
                String port = members.get(i).substring(members.get(i).indexOf(':') + 1);
                nodes.add(ServeProcess.launch(dir.resolve("node" + i), Map.of(), "--cluster", "--cluster-host", "127.0.0.1",
                        "--cluster-port", port, "--members", String.join(",", members)));
            }
            for (ServeProcess n : nodes) {
                n.awaitServing(Duration.ofSeconds(150));
            }
            Path single = dir.resolve("single.json");
            Path spread = dir.resolve("cluster.json");
            Path everyRecord = dir.resolve("cluster-all.json");

            CliRunner.Result one = CliRunner.run("replay", "--quiet", "--rules", rules.toString(), "--report", single.toString(),
                    archive);
            CliRunner.Result two = CliRunner.run("replay", "--members", String.join(",", members), "--rules", rules.toString(),
                    "--report", spread.toString(), archive);
            CliRunner.Result all = CliRunner.run("replay", "--members", String.join(",", members), "--rules", rules.toString(),
                    "--determinism", "all", "--report", everyRecord.toString(), archive);

            assertEquals(1, one.code(), one.out() + one.err());
            assertEquals(1, two.code(), two.out() + two.err());
            JsonNode clustered = Json.parse(Files.readAllBytes(spread));
            JsonNode members2 = clustered.get("members");
            assertEquals(2, members2.size(), clustered.toString());
            Set<String> seen = new HashSet<>();
            long shared = 0;
            for (JsonNode m : members2) {
                seen.add(m.get("member").asText());
                shared += m.get("records").asLong();
                assertTrue(m.get("records").asLong() > 0, "each member replays a share: " + members2);
            }
            assertEquals(Set.copyOf(members), seen);
            assertEquals(clustered.get("records").asLong(), shared);
            assertEquals(withoutTimes(Json.parse(Files.readAllBytes(single))), withoutTimes(clustered));
            // The default sample goes by archive position, so the members checked the records one machine checks (the
            // reports are equal, determinism included); --determinism all reached both members.
            JsonNode sampled = clustered.get("determinism");
            assertEquals("sample", sampled.get("mode").asText());
            assertTrue(sampled.get("checked").asLong() < sampled.get("of").asLong(), sampled.toString());
            assertEquals(1, all.code(), all.out() + all.err());
            JsonNode checkedAll = Json.parse(Files.readAllBytes(everyRecord)).get("determinism");
            assertEquals("all", checkedAll.get("mode").asText());
            assertEquals(clustered.get("records").asLong(), checkedAll.get("checked").asLong(), checkedAll.toString());
        } finally {
            nodes.forEach(ServeProcess::close);
        }
    }

    private static JsonNode withoutTimes(JsonNode report) {
        ObjectNode copy = (ObjectNode) report.deepCopy();
        copy.remove(List.of("elapsed_seconds", "records_per_second", "members"));
        return copy;
    }
}
