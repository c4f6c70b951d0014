package io.signalman.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The packages' layers, as the README's map draws them: each package uses only packages below it,
 * and no two packages use each other. Read from the compiled classes (every dependency, not only
 * the imports: a fully qualified name counts too).
 */
class LayersTest {

    /** Bottom first; packages on one line are one layer and may use each other, cycles aside. */
    static final List<List<String>> LAYERS = List.of(
            List.of("rulelang"),
            List.of("cost"),
            List.of("json"),
            List.of("tracing"),
            List.of("datadir"),
            List.of("control"),
            List.of("people"),
            List.of("notify"),
            List.of("rulesgit"),
            List.of("engine.tables", "engine.explain"),
            List.of("engine"),
            List.of("decisionlog"),
            List.of("state"),
            List.of("broker", "dispatch", "handoff", "fsm"),
            List.of("signals"),
            List.of("packs", "cluster"),
            List.of("replay", "scenario"),
            List.of("replay.cluster"),
            List.of("trials"),
            List.of("decisions"),
            List.of("http"),
            List.of("workbench"),
            List.of("app"),
            List.of("cli"));

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.signalman");

    @Test
    void noTwoPackagesUseEachOther() {
        slices().matching("io.signalman.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void noPackageUsesOneAboveIt() {
        LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (int i = 0; i < LAYERS.size(); i++) {
            layers = layers.layer(name(i)).definedBy(LAYERS.get(i).stream().map(p -> "io.signalman." + p)
                    .toArray(String[]::new));
        }
        for (int i = 0; i < LAYERS.size() - 1; i++) {
            String[] above = new String[LAYERS.size() - 1 - i];
            for (int j = i + 1; j < LAYERS.size(); j++) {
                above[j - i - 1] = name(j);
            }
            layers = layers.whereLayer(name(i)).mayOnlyBeAccessedByLayers(above);
        }
        layers.whereLayer(name(LAYERS.size() - 1)).mayNotBeAccessedByAnyLayer().check(CLASSES);
    }

    @Test
    void everyPackageIsInALayer() {
        List<String> known = LAYERS.stream().flatMap(List::stream).map(p -> "io.signalman." + p).toList();
        List<String> missing = CLASSES.stream().map(c -> c.getPackageName()).distinct()
                .filter(p -> !known.contains(p)).sorted().toList();
        org.junit.jupiter.api.Assertions.assertEquals(List.of(), missing, "packages the map does not place: add them to LAYERS "
                + "and to the README's map");
    }

    private static String name(int i) {
        return String.join("+", LAYERS.get(i));
    }
}
