package io.signalman.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.signalman.TestBundles;
import io.signalman.broker.BrokerMessage;
import io.signalman.hostile.Canary;
import io.signalman.packs.Packs;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compiled rules kept between processes: a second compiler with the same store loads every unit
 * instead of compiling it and decides as the first did; a damaged entry is rebuilt; and a forged
 * entry, class files that reach outside the rule language, cannot link and is rebuilt too.
 */
class UnitStoreTest {

    @TempDir
    Path dir;

    @Test
    void aSecondCompilerLoadsEveryUnitAndDecidesTheSame() throws Exception {
        Path store = dir.resolve("store");
        BundleCompiler first = compiler(store);
        RuleBundle compiled = first.compile(BundleFiles.read(TestBundles.RULES));
        assertEquals(0, first.unitsLoaded());

        BundleCompiler second = compiler(store);
        RuleBundle loaded = second.compile(BundleFiles.read(TestBundles.RULES));

        assertEquals(compiled.packs().size(), second.unitsLoaded(), "every unit came from the store");
        for (String subtype : List.of("trade.executed", "service.offline", "misc.hello", "pnl.report")) {
            BrokerMessage m = new BrokerMessage(null, new BrokerMessage.Envelope("foresight", "normal"), "event", subtype, null);
            assertEquals(Packs.BROKER.decide(compiled, m, false).outcome(), Packs.BROKER.decide(loaded, m, false).outcome());
            assertEquals(Packs.BROKER.decide(compiled, m, false).decidedBy().name(), Packs.BROKER.decide(loaded, m, false).decidedBy().name());
        }
    }

    @Test
    void twoCompilersStartingTogetherOnTheSameStoreBuildEachUnitOnce() throws Exception {
        // Two servers (or test JVMs) starting on the same rules: the later builder of a unit waits for
        // the first and loads what it kept, instead of generating and compiling it a second time.
        Path store = dir.resolve("store");
        BundleCompiler a = compiler(store);
        BundleCompiler b = compiler(store);
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(2);
        java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<RuleBundle>> both = two.invokeAll(List.of(
                    () -> { together.await(); return a.compile(BundleFiles.read(TestBundles.RULES)); },
                    () -> { together.await(); return b.compile(BundleFiles.read(TestBundles.RULES)); }));
            int units = both.get(0).get().packs().size();
            assertEquals(units, both.get(1).get().packs().size());
            assertEquals(units, a.unitsLoaded() + b.unitsLoaded(), "each unit built by one compiler and loaded by the other");
        } finally {
            two.shutdownNow();
        }
    }

    @Test
    void aDamagedEntryIsRebuilt() throws Exception {
        Path store = dir.resolve("store");
        compiler(store).compile(BundleFiles.read(TestBundles.RULES));
        for (Path entry : entries(store)) {
            byte[] b = Files.readAllBytes(entry);
            b[b.length / 2] ^= 1;
            Files.write(entry, b);
        }

        BundleCompiler again = compiler(store);
        again.compile(BundleFiles.read(TestBundles.RULES));

        assertEquals(0, again.unitsLoaded(), "no damaged entry was used");
    }

    @Test
    void aForgedEntryThatReachesOutsideTheLanguageCannotLinkAndIsRebuilt() throws Exception {
        // Given every entry replaced by a model class that writes the canary file through java.nio
        Path store = dir.resolve("store");
        compiler(store).compile(BundleFiles.read(TestBundles.RULES));
        byte[] evil = compile("signalman.broker.Forged", """
                package signalman.broker;
                public class Forged implements org.drools.model.Model {
                    static {
                        try {
                            java.nio.file.Files.writeString(java.nio.file.Path.of("%s"), "forged");
                        } catch (java.io.IOException e) {
                            throw new RuntimeException(e);
                        }
                    }
                    public String getName() { return "signalman.broker"; }
                    public java.util.List<org.drools.model.Global> getGlobals() { return java.util.List.of(); }
                    public java.util.List<org.drools.model.Rule> getRules() { return java.util.List.of(); }
                    public java.util.List<org.drools.model.Query> getQueries() { return java.util.List.of(); }
                    public java.util.List<org.drools.model.TypeMetaData> getTypeMetaDatas() { return java.util.List.of(); }
                    public java.util.List<org.drools.model.EntryPoint> getEntryPoints() { return java.util.List.of(); }
                }
                """.formatted(Canary.FILE.toAbsolutePath()));
        for (Path entry : entries(store)) {
            String key = entry.getFileName().toString().replace(".unit", "");
            Files.write(entry, forge(key, "signalman.broker.Forged", evil));
        }
        Canary.reset();

        // When a compiler reads the store
        BundleCompiler again = compiler(store);
        RuleBundle b = again.compile(BundleFiles.read(TestBundles.RULES));

        // Then nothing of the forged classes ran, none was used, and the rules were compiled anew
        assertTrue(!Canary.fileLeft(), "the forged class's initializer ran");
        assertEquals(0, again.unitsLoaded());
        assertEquals(TestBundles.shipped().revision(), b.revision());
    }

    private static BundleCompiler compiler(Path store) {
        return new BundleCompiler(Packs.definitions(), Clock.systemUTC(), UnitPolicy.DEFAULT, store);
    }

    private static List<Path> entries(Path store) throws Exception {
        try (Stream<Path> s = Files.list(store)) {
            return s.filter(p -> p.toString().endsWith(".unit")).toList();
        }
    }

    /** An entry in the store's format, well formed and with a correct digest: what a forger with the directory could write. */
    private static byte[] forge(String key, String model, byte[] classBytes) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buf);
        out.writeInt(0x534d5531);
        out.writeUTF(key);
        out.writeInt(1);
        out.writeUTF(model);
        out.writeInt(1);
        out.writeUTF(model);
        out.writeInt(classBytes.length);
        out.write(classBytes);
        out.flush();
        byte[] body = buf.toByteArray();
        buf.write(MessageDigest.getInstance("SHA-256").digest(body));
        return buf.toByteArray();
    }

    /** Java source to class bytes with the JDK's compiler, against the test classpath. */
    private static byte[] compile(String name, String source) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path out = Files.createTempDirectory("forged");
        JavaFileObject file = new SimpleJavaFileObject(URI.create("string:///" + name.replace('.', '/') + ".java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        var fm = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8);
        fm.setLocation(StandardLocation.CLASS_OUTPUT, List.of(out.toFile()));
        assertTrue(javac.getTask(null, fm, null, List.of("-classpath", System.getProperty("java.class.path")), null,
                List.of(file)).call(), "the forged class compiles");
        return Files.readAllBytes(out.resolve(name.replace('.', '/') + ".class"));
    }

}
