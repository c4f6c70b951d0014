package io.signalman.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.signalman.cli.Main;
import io.signalman.json.Json;
import io.signalman.replay.GeneratedArchive;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Replay at archive scale: {@code signalman replay} in a JVM of its own (-Xmx512m),
 * timed by the wall clock from start to exit (start-up and compile included), over a generated
 * archive of the golden history repeated (5 million records by default), plain and as the decision
 * log compresses it; the heap left after each GC, the largest; and, in the same run, a bare JSON
 * parse of the same lines by python3 on one core, which replay is compared with; and a profiled run
 * (the flight recorder's CPU samples over the first million records, summarized by {@link JfrTop}).
 * Writes target/bench/replay.json.
 */
public final class ReplayBench {

    private static final long PER_FILE = 500_000;
    /** Files of the plain archive the profiled run replays (a million records: the profile's shape, not its rate). */
    private static final int PROFILED_FILES = 2;
    private static final Pattern AFTER_GC = Pattern.compile("->(\\d+)M\\(");

    private ReplayBench() {
    }

    public static void main(String[] args) throws Exception {
        long records = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        Path dir = HistoryInputs.benchDir().resolve("replay");
        deleteTree(dir);
        List<String> lines = GeneratedArchive.lines(GeneratedArchive.PACKS, false);
        Path plain = dir.resolve("plain");
        Path gzip = dir.resolve("gzip");
        List<Path> plainFiles = GeneratedArchive.writeFolder(plain, lines, records, PER_FILE, false);
        GeneratedArchive.writeFolder(gzip, lines, records, PER_FILE, true);
        ObjectNode out = Json.object();
        out.put("records", records);
        out.put("plain_bytes", size(plain));
        out.put("gzip_bytes", size(gzip));
        out.put("compression_ratio", (double) size(plain) / size(gzip));
        out.set("plain", replay(List.of(plain), dir.resolve("plain-report.json"), dir.resolve("plain-gc.log"), List.of()));
        out.set("gzip", replay(List.of(gzip), dir.resolve("gzip-report.json"), dir.resolve("gzip-gc.log"), List.of()));
        // A third run, apart from the timed ones, under the flight recorder: where replay's CPU goes.
        Path jfr = dir.resolve("plain.jfr");
        List<Path> profiled = plainFiles.subList(0, Math.min(plainFiles.size(), PROFILED_FILES));
        ObjectNode run = replay(profiled, dir.resolve("profiled-report.json"), dir.resolve("profiled-gc.log"),
                List.of("-XX:StartFlightRecording=filename=" + jfr + ",settings=profile"));
        ObjectNode profile = JfrTop.summary(jfr, 15, thread -> true);
        profile.put("records", (long) profiled.size() * PER_FILE).put("records_per_s", run.get("records_per_s").asDouble());
        out.set("profile", profile);
        double parse = pythonParse(plainFiles);
        if (parse > 0) {
            out.put("python_parse_lines_per_s", parse);
            out.put("replay_vs_parse", out.get("plain").get("records_per_s").asDouble() / parse);
        }
        deleteTree(plain);
        deleteTree(gzip);
        Files.writeString(HistoryInputs.benchDir().resolve("replay.json"), Json.write(out) + "\n");
        System.out.println(Json.write(out));
    }

    /** One replay process over the folder: wall-clock rate, the report's own figures, the heap after GC. */
    private static ObjectNode replay(List<Path> archive, Path report, Path gcLog, List<String> jvm) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-Xlog:gc:file=" + gcLog));
        cmd.addAll(jvm);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "replay",
                "--quiet", "--report", report.toString()));
        archive.forEach(a -> cmd.add(a.toString()));
        long start = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(report.resolveSibling(
                report.getFileName() + ".out").toFile()).start();
        int code = p.waitFor();
        double wall = (System.nanoTime() - start) / 1e9;
        if (code != 0) {
            throw new IllegalStateException("replay of " + archive + " exited " + code);
        }
        JsonNode r = Json.parse(Files.readAllBytes(report));
        ObjectNode o = Json.object();
        long n = r.get("records").asLong();
        o.put("wall_seconds", wall);
        o.put("records_per_s", n / wall);
        o.put("report_elapsed_seconds", r.get("elapsed_seconds").asDouble());
        o.put("report_records_per_second", r.get("records_per_second").asDouble());
        o.put("heap_after_gc_max_mb", maxAfterGc(gcLog));
        o.put("max_heap_mb", 512);
        return o;
    }

    private static long maxAfterGc(Path gcLog) throws IOException {
        long max = 0;
        for (String line : Files.readAllLines(gcLog)) {
            Matcher m = AFTER_GC.matcher(line);
            if (line.contains("Pause") && m.find()) {
                max = Math.max(max, Long.parseLong(m.group(1)));
            }
        }
        return max;
    }

    /** json.loads of every line on one core, the yardstick the issue names; 0 when python3 is not there. */
    private static double pythonParse(List<Path> files) throws Exception {
        String script = "import json,sys,time\nt=time.time();n=0\nfor f in sys.argv[1:]:\n  with open(f,'rb') as h:\n"
                + "    for line in h:\n      json.loads(line);n+=1\nprint(n/(time.time()-t))\n";
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", "0", "python3", "-c", script));
        files.forEach(f -> cmd.add(f.toString()));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String printed = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? Double.parseDouble(printed) : 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
