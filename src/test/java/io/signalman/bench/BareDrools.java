package io.signalman.bench;

import java.util.Map;
import java.util.stream.Collectors;
import org.drools.model.codegen.ExecutableModelProject;
import org.kie.api.KieBase;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message;
import org.kie.api.builder.ReleaseId;
import org.kie.api.runtime.KieContainer;

/**
 * Rule files built the way a plain Drools user builds them, for the reload row's floor: a
 * {@link KieFileSystem} with the files, {@code buildAll(ExecutableModelProject.class)} (the
 * executable model, as Signalman compiles), then a {@link KieContainer} and its {@link KieBase}.
 * No lint, no rule-language check, no gate, no compile units: what Signalman adds on top of this
 * is the gap the row reports.
 *
 * <p>NOTE: no kmodule.xml is written, so Drools makes its default kmodule (one default KieBase of
 * every package), as it does for Signalman's own builds: writing one takes drools-xml-support,
 * which the project does not otherwise need, and a default KieBase described in XML builds the same.
 *
 * <p>Each build is a new version of one module. {@link #release()} removes the last one from the
 * {@link org.kie.api.builder.KieRepository} and disposes its container, so a run of many builds
 * holds one module at a time (Drools keeps every module it built otherwise); the caller releases
 * before it starts the clock, so that the figure is the build alone.
 */
final class BareDrools implements AutoCloseable {

    private static final String GROUP = "io.signalman.bench";
    private static final String ARTIFACT = "bare-drools";

    private final KieServices kie = KieServices.Factory.get();
    private int version;
    private ReleaseId previous;
    private KieContainer container;

    /**
     * Builds {@code files} (path under {@code src/main/resources} to DRL text) into a new KieBase;
     * throws, with Drools' own messages, when the build has errors.
     */
    KieBase build(Map<String, String> files) {
        ReleaseId id = kie.newReleaseId(GROUP, ARTIFACT, "1.0." + version++);
        KieFileSystem kfs = kie.newKieFileSystem();
        kfs.generateAndWritePomXML(id);
        files.forEach((path, drl) -> kfs.write("src/main/resources/" + path, drl));
        KieBuilder builder = kie.newKieBuilder(kfs).buildAll(ExecutableModelProject.class);
        if (builder.getResults().hasMessages(Message.Level.ERROR)) {
            throw new IllegalStateException("bare Drools refused the bundle: " + builder.getResults().getMessages(Message.Level.ERROR)
                    .stream().limit(3).map(Message::toString).collect(Collectors.joining("; ")));
        }
        release();
        container = kie.newKieContainer(id);
        previous = id;
        return container.getKieBase();
    }

    /** The rules of a KieBase, every package's together. */
    static int rules(KieBase base) {
        return base.getKiePackages().stream().mapToInt(p -> p.getRules().size()).sum();
    }

    /** Disposes the last build's container and removes its module from the repository; nothing when there is none. */
    void release() {
        if (container != null) {
            container.dispose();
            kie.getRepository().removeKieModule(previous);
            container = null;
        }
    }

    @Override
    public void close() {
        release();
    }
}
