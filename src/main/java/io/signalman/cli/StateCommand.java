package io.signalman.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.signalman.packs.StateSpecs;
import io.signalman.cluster.StateDatabase;
import io.signalman.datadir.DataDir;
import io.signalman.datadir.Disk;
import io.signalman.datadir.FileRegistry;
import io.signalman.datadir.Storage;
import io.signalman.datadir.Writing;
import io.signalman.json.Json;
import io.signalman.state.LocalState;
import io.signalman.state.StateConfig;
import io.signalman.state.StateLine;
import io.signalman.state.StoreSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code signalman state export|import}: state as JSON lines, one entry a line
 * ({@link StateLine}: store, id, version, changed_at, and the value in the snapshot format that
 * {@code GET} returns and {@code PUT} takes), to back it up or to move it between a single node
 * ({@code --data DIR}) and a cluster ({@code --state-jdbc URL}, credentials from the environment).
 * Export reads a running node's files without writing any; import is for a stopped node or cluster.
 */
final class StateCommand {

    private StateCommand() {
    }

    static int run(String[] argv, InputStream in, PrintStream out, PrintStream err, Map<String, String> env)
            throws Args.UsageException {
        Args a = new Args(argv, Set.of("data", "state-jdbc"), Set.of(), env);
        if (a.positional().isEmpty() || !Set.of("export", "import").contains(a.positional().get(0))) {
            throw new Args.UsageException("state takes export or import");
        }
        boolean export = "export".equals(a.positional().get(0));
        String jdbc = a.get("state-jdbc", null);
        Path data = Path.of(a.get("data", "data"));
        var specs = StateSpecs.all(() -> {
            throw new IllegalStateException("no rules offline");
        });
        try {
            if (jdbc != null) {
                StateDatabase db = new StateDatabase(jdbc, env).migrate();
                if (export) {
                    db.export(line -> out.println(Json.write(line)));
                    return 0;
                }
                return read(a, in, err, line -> db.importLine(spec(specs, line.store()), line.id(), line.version(),
                        line.value()));
            }
            if (export) {
                // Beside a running server: no lock taken, no file written.
                Writing reading = new Writing(Disk.REAL, new Storage(Disk.REAL), FileRegistry.NONE, DataDir.legacyFiles(data));
                LocalState state = LocalState.openOffline(StateConfig.defaults(), specs, data.resolve("state"),
                        data.resolve("decisions"), true, reading);
                state.export(line -> out.println(Json.write(line)));
                return 0;
            }
            // An import writes: it owns the (stopped) node's directory while it runs.
            try (DataDir dir = DataDir.open(data, false)) {
                LocalState state = LocalState.openOffline(StateConfig.defaults(), specs, data.resolve("state"),
                        data.resolve("decisions"), false, Writing.of(dir, Disk.REAL, new Storage(Disk.REAL)));
                int code = read(a, in, err, state::importLine);
                state.close();
                return code;
            }
        } catch (RuntimeException e) {
            err.println("signalman state: " + e.getMessage());
            return 1;
        }
    }

    /** The store an exported line names; an unknown one is refused like a bad line. */
    private static StoreSpec<?> spec(List<StoreSpec<?>> specs, String store) {
        return specs.stream().filter(s -> s.name().equals(store)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "no state store \"" + store + "\"; known: " + specs.stream().map(StoreSpec::name).toList()));
    }

    /** Reads lines from the file given after {@code import}, or standard input; a bad line stops the import, naming it. */
    private static int read(Args a, InputStream in, PrintStream err, java.util.function.Consumer<StateLine> sink) {
        int count = 0;
        int number = 0;
        try (BufferedReader r = a.positional().size() > 1
                ? Files.newBufferedReader(Path.of(a.positional().get(1)), StandardCharsets.UTF_8)
                : new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = Json.parse(line);
                StateLine l = StateLine.read(n, Instant.now());
                if (l.expiredAt() != null) {
                    continue; // a tombstone: nothing to restore
                }
                sink.accept(l);
                count++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (io.signalman.json.InputException | RuntimeException e) {
            err.println("signalman state import: line " + number + ": " + e.getMessage() + " (" + count + " imported before it)");
            return 1;
        }
        err.println("signalman state import: " + count + " entries imported");
        return 0;
    }
}
