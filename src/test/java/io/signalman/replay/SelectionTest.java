package io.signalman.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.cli.CliRunner;
import io.signalman.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --since}, {@code --until}, {@code --pack} and {@code --sample}: what is replayed, and what the report says was skipped. */
class SelectionTest {

    private static final Path FIXTURES = TestBundles.FIXTURES;

    @TempDir
    Path tmp;

    @Test
    void onlyTheNamedPacksAreReplayedAndTheRestAreCountedAsSkipped() throws Exception {
        Archive archive = Archive.read(List.of(FIXTURES));
        ReplayReport all = Replayer.run(ReplayRequest.of(TestBundles.shipped(), archive));
        ReplayReport broker = Replayer.run(ReplayRequest.of(TestBundles.shipped(), archive)
                .withSelection(new Selection(null, null, Set.of("broker"), 1)));

        long brokerRecords = Archive.read(List.of(FIXTURES.resolve("broker"))).records();
        assertEquals(brokerRecords, broker.counts().records());
        assertEquals(all.counts().records(), broker.counts().read());
        assertEquals(all.counts().records() - brokerRecords, broker.toJson().path("selection").path("skipped").path("pack").asLong());
        assertTrue(broker.toText().contains("packs broker"), broker.toText());
    }

    @Test
    void sinceAndUntilSelectByTheRecordsTimeAndDatesMeanMidnightUtc() throws Exception {
        Path archive = tmp.resolve("days.jsonl");
        String line = Files.readAllLines(FIXTURES.resolve("signals/history.jsonl")).get(0);
        String at = Json.parse(line).get("at").asText();
        Files.writeString(archive, String.join("\n",
                line.replace(at, "2026-11-16T23:59:59.999Z"),
                line.replace(at, "2026-11-17T00:00:00Z"),
                line.replace(at, "2026-11-17T12:00:00.5Z"),
                line.replace(at, "2026-11-18T00:00:00Z")) + "\n");

        CliRunner.Result day = CliRunner.run("replay", "--quiet", "--since", "2026-11-17", "--until", "2026-11-18",
                "--report", tmp.resolve("r.json").toString(), archive.toString());

        assertEquals(0, day.code(), day.out() + day.err());
        var json = Json.parse(Files.readAllBytes(tmp.resolve("r.json")));
        assertEquals(2, json.get("records").asLong());
        assertEquals(2, json.path("selection").path("skipped").path("since_until").asLong());
        assertEquals(Instant.parse("2026-11-17T00:00:00Z"), Selection.instant("since", "2026-11-17"));
    }

    @Test
    void aSampleSelectsTheSameRecordsEveryTimeAndAboutItsShare() throws Exception {
        Path archive = tmp.resolve("generated.jsonl");
        GeneratedArchive.write(archive, GeneratedArchive.lines(List.of("signals", "fsm"), true), 4000);
        Archive a = Archive.read(List.of(archive));
        Selection half = new Selection(null, null, Set.of(), 0.5);

        ReplayReport first = Replayer.run(ReplayRequest.of(TestBundles.shipped(), a).withSelection(half));
        ReplayReport second = Replayer.run(ReplayRequest.of(TestBundles.shipped(), a).withSelection(half).withThreads(1));

        assertEquals(first.counts().records(), second.counts().records());
        assertEquals(first.neverFired(), second.neverFired());
        assertTrue(first.counts().records() > 1800 && first.counts().records() < 2200, "about half of 4000: " + first.counts().records());
        assertEquals(4000 - first.counts().records(), first.toJson().path("selection").path("skipped").path("sample").asLong());
    }

    @Test
    void anArmSelectsTheRecordsThatArmOfALiveTrialMadeAndCountsTheOthersAsSkipped() throws Exception {
        // Given a log in which a trial's candidate made one record of three (the others: live, and no trial at all)
        Path archive = tmp.resolve("trial.jsonl");
        List<String> lines = Files.readAllLines(FIXTURES.resolve("signals/history.jsonl")).subList(0, 3);
        Files.writeString(archive, String.join("\n", lines.get(0),
                lines.get(1).replaceFirst("\\{", "{\"trial\":{\"id\":\"01TRIAL\",\"arm\":\"live\"},"),
                lines.get(2).replaceFirst("\\{", "{\"trial\":{\"id\":\"01TRIAL\",\"arm\":\"candidate\"},")) + "\n");

        // When each arm is replayed on its own
        CliRunner.Result live = CliRunner.run("replay", "--quiet", "--arm", "live", "--report", tmp.resolve("live.json").toString(),
                archive.toString());
        CliRunner.Result candidate = CliRunner.run("replay", "--quiet", "--arm", "candidate", "--report",
                tmp.resolve("candidate.json").toString(), archive.toString());

        // Then the live arm is the records made outside the trial too, the candidate's the one it made
        assertEquals(0, live.code(), live.out() + live.err());
        var l = Json.parse(Files.readAllBytes(tmp.resolve("live.json")));
        assertEquals(2, l.get("records").asLong());
        assertEquals(1, l.path("selection").path("skipped").path("arm").asLong());
        var c = Json.parse(Files.readAllBytes(tmp.resolve("candidate.json")));
        assertEquals(1, c.get("records").asLong(), candidate.out());
        assertEquals(2, c.path("selection").path("skipped").path("arm").asLong());
        assertEquals(2, CliRunner.run("replay", "--arm", "both", archive.toString()).code());
    }

    @Test
    void aSelectionThatLeavesNothingNeverPasses() {
        CliRunner.Result none = CliRunner.run("replay", "--quiet", "--since", "2099-01-01", "replay-fixtures/signals");
        assertEquals(1, none.code(), none.out());
        assertTrue(none.out().contains("no record was replayed"), none.out());
    }

    @Test
    void badSelectionsAreUsageErrors() {
        assertEquals(2, CliRunner.run("replay", "--sample", "0", FIXTURES.toString()).code());
        assertEquals(2, CliRunner.run("replay", "--sample", "1.5", FIXTURES.toString()).code());
        assertEquals(2, CliRunner.run("replay", "--since", "yesterday", FIXTURES.toString()).code());
        assertEquals(2, CliRunner.run("replay", "--pack", "nosuchpack", FIXTURES.toString()).code());
    }
}
