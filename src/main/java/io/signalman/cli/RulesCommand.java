package io.signalman.cli;

import io.signalman.control.FileJournal;
import io.signalman.control.FileRevisionStore;
import io.signalman.datadir.DataDir;
import io.signalman.datadir.Disk;
import io.signalman.datadir.FileRegistry;
import io.signalman.datadir.Storage;
import io.signalman.datadir.Writing;
import io.signalman.workbench.RevisionExport;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * {@code signalman rules export --revision REV DIR [--data data]}: writes a revision of a single
 * node's activation history ({@code DATA/activations.jsonl} and the copies under
 * {@code DATA/workbench/revisions/}) into {@code DIR}, a new or empty folder ({@link RevisionExport}).
 * It reads and never writes the data directory, and takes no lock, so it runs beside a server.
 * Exit 0 when written, 1 when the history holds no such revision (or no copy of it), 2 for a usage
 * error: a REV that is neither an activation's number nor a hash, a DIR that is not empty.
 */
final class RulesCommand {

    private RulesCommand() {
    }

    static int run(String[] argv, PrintStream out, PrintStream err, Map<String, String> env) throws Args.UsageException {
        Args a = new Args(argv, Set.of("data", "revision"), Set.of(), env);
        if (a.positional().size() != 2 || !"export".equals(a.positional().get(0))) {
            throw new Args.UsageException("rules takes export --revision REV DIR");
        }
        String rev = a.get("revision", null);
        if (rev == null) {
            throw new Args.UsageException("rules export needs --revision REV (an activation's number, or a revision's hash)");
        }
        Path data = Path.of(a.get("data", "data"));
        Path dir = Path.of(a.positional().get(1));
        if (!Files.isDirectory(data)) {
            err.println("signalman rules export: " + data + " is no data directory (give --data DIR)");
            return 2;
        }
        RevisionExport.Exported done;
        try {
            Writing reading = new Writing(Disk.REAL, new Storage(Disk.REAL), FileRegistry.NONE, DataDir.legacyFiles(data));
            done = RevisionExport.export(FileJournal.open(data.resolve("activations.jsonl"), reading),
                    new FileRevisionStore(data), rev, dir);
        } catch (RevisionExport.Refused e) {
            if (e.usage()) {
                throw new Args.UsageException(e.getMessage());
            }
            err.println("signalman rules export: " + e.getMessage());
            return 1;
        } catch (IOException | RuntimeException e) {
            err.println("signalman rules export: cannot write " + dir + " from " + data + ": " + e.getMessage());
            return 1;
        }
        out.printf("signalman rules export: %d file(s) of %s%s written into %s%n", done.files(), done.revision(),
                done.activation() > 0 ? " (made live by activation #" + done.activation() + ")" : "", dir);
        return 0;
    }
}
