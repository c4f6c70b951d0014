package io.signalman.engine;

import io.signalman.rulelang.GeneratedJava;
import io.signalman.rulelang.LinearPattern;
import io.signalman.rulelang.Vocabulary;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.drools.codegen.common.GeneratedFile;
import org.drools.compiler.compiler.io.File;
import org.drools.compiler.compiler.io.memory.MemoryFile;
import org.drools.compiler.compiler.io.memory.MemoryFileSystem;
import org.drools.compiler.kie.builder.impl.BuildContext;
import org.drools.compiler.kie.builder.impl.CompilationProblemAdapter;
import org.drools.compiler.kie.builder.impl.InternalKieModule;
import org.drools.model.codegen.execmodel.CanonicalModelBuildContext;
import org.drools.model.codegen.execmodel.CanonicalModelKieProject;
import org.drools.model.codegen.execmodel.JavaParserCompiler;
import org.drools.model.codegen.execmodel.ModelBuilderImpl;
import org.drools.model.codegen.execmodel.ModelSourceClass;
import org.drools.model.codegen.execmodel.ModelWriter;
import org.drools.model.codegen.execmodel.PackageSources;
import org.drools.util.ClassUtils;
import org.drools.util.PortablePath;
import org.drools.wiring.api.classloader.ProjectClassLoader;
import org.kie.api.builder.Message;
import org.kie.memorycompiler.CompilationProblem;
import org.kie.memorycompiler.CompilationResult;

/**
 * Drools' executable-model project with the two steps Signalman puts between generating Java
 * from the rules and compiling it: RE2/J's pattern in place of Java's backtracking one
 * ({@link LinearPattern}), and the generated-Java check ({@link GeneratedJava}) over exactly the
 * text the compiler then receives. When the check finds anything, nothing is compiled and the
 * build fails with its findings ({@link #refusals()}).
 *
 * <p>NOTE: this replaces {@link CanonicalModelKieProject#writeProjectOutput} instead of wrapping
 * it, because Drools writes and compiles the generated sources in one method, with nowhere to
 * stand between the two; the steps are Drools 10.2.0's own (write each package's files and the
 * project's model class, compile them with the executable model's compiler, write the model
 * file), in the same order.
 */
final class CheckedModelProject extends CanonicalModelKieProject {

    private final Vocabulary vocabulary;
    private final Set<String> drlPackages;
    private final boolean vet;
    private final List<GeneratedJava.Problem> refusals = new ArrayList<>();
    private final List<JavaProblem> javaProblems = new ArrayList<>();
    /** The class files the compile produced, by binary name, and the names of the Drools models among them. */
    private final Map<String, byte[]> compiled = new LinkedHashMap<>();
    private final List<String> models = new ArrayList<>();

    /** A Java compiler error in a generated source: where, what, and the source it is in. */
    record JavaProblem(String path, int line, String message, String source) {
    }

    /**
     * @param vet false only in tests of the class loader behind this check (package-private:
     *            production code always checks)
     */
    CheckedModelProject(InternalKieModule module, ClassLoader loader, Vocabulary vocabulary, Set<String> drlPackages,
                        boolean vet) {
        super(module, loader);
        this.vocabulary = vocabulary;
        this.drlPackages = drlPackages;
        this.vet = vet;
    }

    /** What the generated-Java check refused; empty when the build compiled. */
    List<GeneratedJava.Problem> refusals() {
        return List.copyOf(refusals);
    }

    /** The class files compiled from the rules (the project's own model class aside), for the unit store. */
    Map<String, byte[]> compiled() {
        return Map.copyOf(compiled);
    }

    /** The binary names of the Drools models among {@link #compiled()}. */
    List<String> models() {
        return List.copyOf(models);
    }

    /** The Java compiler's errors, as its own diagnostics say them; empty when the sources compiled. */
    List<JavaProblem> javaProblems() {
        return List.copyOf(javaProblems);
    }

    @Override
    public void writeProjectOutput(MemoryFileSystem trgMfs, BuildContext buildContext) {
        Map<String, String> sources = new LinkedHashMap<>();
        Set<String> modelFiles = new HashSet<>();
        Set<String> ruleUnits = new HashSet<>();
        Map<String, List<String>> modelsByKBase = new HashMap<>();
        for (Map.Entry<String, ModelBuilderImpl> builder : modelBuilders.entrySet()) {
            List<String> ofKBase = new ArrayList<>();
            for (Object o : builder.getValue().getPackageSources()) {
                PackageSources pkg = (PackageSources) o;
                List<GeneratedFile> files = new ArrayList<>();
                pkg.collectGeneratedFiles(files);
                for (GeneratedFile f : files) {
                    String java = new String(f.contents(), StandardCharsets.UTF_8);
                    sources.put(f.relativePath(), LinearPattern.inGeneratedJava(java));
                }
                modelFiles.addAll(pkg.getModelNames());
                ofKBase.addAll(pkg.getModelNames());
                ruleUnits.addAll(pkg.getRuleUnitClassNames());
            }
            ofKBase.addAll(((CanonicalModelBuildContext) buildContext).getNotOwnedModelFiles(modelBuilders, builder.getKey()));
            modelsByKBase.put(builder.getKey(), ofKBase);
        }
        if (vet) {
            refusals.addAll(GeneratedJava.check(vocabulary, drlPackages, sources));
            if (!refusals.isEmpty()) {
                refusals.forEach(p -> buildContext.getMessages().addMessage(Message.Level.ERROR, p.path(),
                        "the Java compiled from the rules holds " + p.message()));
                return;
            }
        }
        MemoryFileSystem srcMfs = new MemoryFileSystem();
        ModelWriter writer = new ModelWriter();
        List<String> paths = new ArrayList<>();
        sources.forEach((relative, java) -> {
            PortablePath path = writer.getBasePath().resolve(relative);
            srcMfs.write(path, java.getBytes(StandardCharsets.UTF_8));
            paths.add(path.asString());
        });
        // The project's model class names the rule classes; Drools writes it from the kmodule, not from rule text.
        InternalKieModule module = getInternalKieModule();
        ModelSourceClass project = new ModelSourceClass(module.getReleaseId(), module.getKieModuleModel().getKieBaseModels(),
                modelsByKBase, hasDynamicClassLoader());
        String projectPath = writer.getBasePath().asString() + "/" + project.getName();
        srcMfs.write(projectPath, project.generate().getBytes(StandardCharsets.UTF_8));
        paths.add(projectPath);

        Set<PortablePath> before = new HashSet<>(trgMfs.getFilePaths());
        CompilationResult result = JavaParserCompiler.getCompiler().compile(paths.toArray(String[]::new), srcMfs, trgMfs,
                getClassLoader());
        report(result, srcMfs, buildContext, javaProblems);
        Set<PortablePath> produced = new HashSet<>(trgMfs.getFilePaths());
        produced.removeAll(before);
        if (javaProblems.isEmpty()) {
            for (PortablePath p : produced) {
                String path = p.asString();
                String name = ClassUtils.convertResourceToClassName(path);
                if (path.endsWith(".class") && !path.startsWith(project.getName().replaceAll("\\.java$", ""))) {
                    compiled.put(name, trgMfs.getBytes(p));
                }
            }
            models.addAll(modelFiles);
        }
        if (ProjectClassLoader.isEnableStoreFirst()) {
            Set<PortablePath> generated = new HashSet<>(produced);
            writer.writeGeneratedClassNamesFile(generated.stream().map(PortablePath::asString)
                    .map(ClassUtils::convertResourceToClassName).collect(Collectors.toSet()), trgMfs, module.getReleaseId());
        }
        writer.writeModelFile(modelFiles, trgMfs, module.getReleaseId());
        writer.writeRuleUnitServiceFile(ruleUnits, trgMfs);
    }

    /** Compiler errors, kept as the compiler's diagnostics (and reported to Drools, which then has no module). */
    private static void report(CompilationResult result, MemoryFileSystem srcMfs, BuildContext buildContext,
                               List<JavaProblem> into) {
        for (CompilationProblem p : result.getErrors()) {
            buildContext.getMessages().addMessage(new CompilationProblemAdapter(p));
            File file = srcMfs.getFile(p.getFileName());
            String source = file instanceof MemoryFile memory ? new String(srcMfs.getFileContents(memory), StandardCharsets.UTF_8) : "";
            into.add(new JavaProblem(p.getFileName(), p.getStartLine(), p.getMessage(), source));
        }
        for (CompilationProblem warning : result.getWarnings()) {
            buildContext.getMessages().addMessage(new CompilationProblemAdapter(warning));
        }
    }
}
